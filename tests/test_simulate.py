"""knockbox simulate: the front end (screen rendering, the pty serial port, the command headless
and in a terminal) against a small stand-in firmware that speaks the documented simulator channel
under the real MicroPython unix port. tests/test_simulate_keys.py tests the key plans,
tests/test_simulate_firmware.py runs the real firmware."""

import fcntl
import os
import pty
import random
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from kit import mp
from knockbox import bitmap
from knockbox.link.ptyrelay import SerialBridge
from test_simulate_keys import lines

KNOCKBOX = [sys.executable, "-m", "knockbox.cli"]

# The simulator's channel (host/knockbox/simulate/__init__.py), nothing more: frames as P4 PBM
# written tmp-then-rename plus "@frame N kind" on stderr, keys read from the start of DIR/keys in
# the key protocol (each press, or down...up, is recorded and gives a frame; no timing), serial on
# stdin/stdout (each line comes back as "echo LINE"), and state in DIR/flash.img.
FAKE_FIRMWARE = r"""
import os, sys, select, framebuf
d = os.getenv("KNOCKBOX_SIM_DIR")
buf = bytearray(37 * 128)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
presses = []
try:
    with open(d + "/flash.img") as f:
        presses = f.read().split()
except OSError:
    pass
n = [0]
def frame(kind):
    n[0] += 1
    fb.fill(0)
    fb.rect(0, 0, 296, 128, 1)
    fb.text("frame %d" % n[0], 8, 8, 1)
    fb.text(" ".join(presses[-10:]), 8, 24, 1)
    with open(d + "/frame.pbm.tmp", "wb") as f:
        f.write(b"P4\n296 128\n")
        f.write(buf)
    os.rename(d + "/frame.pbm.tmp", d + "/frame.pbm")
    sys.stderr.write("@frame %d %s\n" % (n[0], kind))
def pressed(name):
    presses.append(name)
    with open(d + "/flash.img", "w") as f:
        f.write(" ".join(presses))
    frame("partial")
frame("full")
if os.getenv("FAKE_CRASH"):
    raise RuntimeError("fake firmware gave up")
keys = open(d + "/keys", "rb")
down = {}
pend = b""
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
line = b""
while True:
    pend += keys.read() or b""
    while b"\n" in pend:
        ln, pend = pend.split(b"\n", 1)
        words = ln.decode().split()
        if words[0] == "press":
            pressed(words[1])
        elif words[0] == "down":
            down[words[1]] = 1
        elif words[0] == "up" and down.pop(words[1], 0):
            pressed(words[1])
    for _ in poll.poll(10):
        c = sys.stdin.buffer.read(1)
        if c == b"\n":
            sys.stdout.buffer.write(b"echo " + line + b"\n")
            line = b""
        else:
            line += c
"""


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_sim.py"
    path.write_text(FAKE_FIRMWARE)
    return str(path)


# ---- screen ---------------------------------------------------------------------------------


def random_frame(seed, w=296, h=128):
    rnd = random.Random(seed)
    return bitmap.Bitmap(w, h, bytes(rnd.getrandbits(8) for _ in range(((w + 7) // 8) * h)))


def test_pbm_round_trip_and_header_comments():
    f = random_frame(1)
    assert bitmap.parse_pbm(bitmap.to_pbm(f)) == f
    g = bitmap.parse_pbm(b"P4\n# made by hand\n296 128\n" + f.data)
    assert g == f
    with pytest.raises(bitmap.BitmapError):
        bitmap.parse_pbm(b"P5\n296 128\n255\n" + bytes(296 * 128))
    with pytest.raises(bitmap.BitmapError):
        bitmap.parse_pbm(b"P4\n296 128\n" + f.data[:100])


@pytest.mark.parametrize(
    "mode, cols, rows",
    [("half", 296, 64), ("quad", 148, 64), ("braille", 148, 32), ("small", 74, 32)],
)
def test_text_modes_size_and_pixels(mode, cols, rows):
    f = random_frame(2)
    lines = bitmap.to_text(f, mode)
    assert bitmap.cells(mode) == (cols, rows)
    assert len(lines) == rows and all(len(line) == cols for line in lines)
    cw, ch = bitmap.MODES[mode]
    # every cell is blank exactly when its pixels are all white
    for cy in (0, rows // 2, rows - 1):
        for cx in (0, 7, cols - 1):
            px = [f.pixel(cx * cw + dx, cy * ch + dy) for dy in range(ch) for dx in range(cw)]
            blank = lines[cy][cx] in (" ", "\u2800")
            assert blank == (not any(px)), (mode, cx, cy)


def test_text_exact_glyphs():
    data = bytearray(37 * 128)
    data[0] = 0b10000000  # pixel (0, 0)
    data[37] = 0b01000000  # pixel (1, 1)
    f = bitmap.Bitmap(296, 128, data)
    assert bitmap.to_text(f, "quad")[0][0] == "\u259a"  # ▚ top-left + bottom-right
    assert bitmap.to_text(f, "half")[0][:2] == "\u2580\u2584"  # ▀ then ▄
    assert bitmap.to_text(f, "braille")[0][0] == chr(0x2800 + 0x01 + 0x10)
    assert bitmap.to_text(f, "small")[0][0] == "\u2598"  # ▘ any ink in the top-left 2x2


def test_pick_mode_fits_the_terminal():
    assert bitmap.pick_mode(80, 24) == "small"
    assert bitmap.pick_mode(150, 40, extra_cols=2, extra_rows=5) == "braille"
    assert bitmap.pick_mode(150, 69, extra_cols=2, extra_rows=5) == "quad"
    assert bitmap.pick_mode(149, 69, extra_cols=2, extra_rows=5) == "small"


def test_png_pixels(tmp_path):
    from PIL import Image

    f = random_frame(3)
    path = bitmap.save_png(f, str(tmp_path / "f.png"), scale=2)
    img = Image.open(path).convert("L")
    assert img.size == (592, 256)
    for x, y in [(0, 0), (5, 9), (295, 127), (100, 64), (37, 101)]:
        want = 0 if f.pixel(x, y) else 255  # black ink on white paper
        assert img.getpixel((2 * x, 2 * y)) == want and img.getpixel((2 * x + 1, 2 * y + 1)) == want


# ---- the serial bridge ----------------------------------------------------------------------


def test_bridge_relays_both_ways_and_never_blocks_the_process():
    import serial

    with SerialBridge() as b:
        p = subprocess.Popen(
            [
                sys.executable,
                "-c",
                (
                    "import sys\n"
                    "line = sys.stdin.buffer.readline()\n"
                    "sys.stdout.buffer.write(b'got ' + line)\n"
                    "sys.stdout.buffer.flush()\n"
                    "sys.stdout.buffer.write(b'x' * 300000)\n"  # nobody reads this: must not block
                    "sys.stdout.buffer.flush()\n"
                ),
            ],
            stdin=b.device_fd,
            stdout=b.device_fd,
        )
        b.start()
        port = serial.Serial(b.path, 115200, timeout=5)
        port.write(b"hello\n")
        assert port.readline() == b"got hello\n"
        port.close()
        assert p.wait(10) == 0
        assert b.closed.wait(5)  # the relay saw the process hang up
        assert b.relay is not None and b.relay.bytes[b.device.master] >= 300000


# ---- the command, headless ------------------------------------------------------------------


def start_sim(args, env=None, exe=None, cwd=None):
    """`knockbox simulate --no-tty ARGS` (exe: another knockbox, e.g. an installed one, run with
    none of this checkout's paths in its environment)."""
    e = dict(os.environ)
    if exe:
        e.pop("PYTHONPATH", None)
        e.pop("MICROPYPATH", None)
    e.update(env or {})
    return subprocess.Popen(
        (exe and [exe] or KNOCKBOX) + ["simulate", "--no-tty"] + args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=e,
        cwd=cwd or mp.ROOT,
        text=True,
        bufsize=1,
    )


def quit_sim(proc, timeout=15):
    """`quit` on the simulator's input: it ends, exit code 0. What it still writes is read
    meanwhile (a full pipe would stop it before it reads `quit`)."""
    _PENDING.pop(proc, None)
    proc.communicate("quit\n", timeout)
    assert proc.returncode == 0


def read_until(proc, pred, timeout=60):
    """stdout lines until pred(line) is true; returns them all.

    Reads the pipe's fd itself (os.read), keeping what follows the matching line for the next
    call: a buffered readline() can take two lines from the pipe at once, and a select() on the
    fd then waits for the second one in vain."""
    lines = []
    end = time.monotonic() + timeout
    fd = proc.stdout.fileno()
    pending = _PENDING.pop(proc, b"")
    while True:
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            lines.append(line.decode("utf-8", "replace"))
            if pred(lines[-1]):
                _PENDING[proc] = pending
                return lines
        left = end - time.monotonic()
        if left <= 0:
            break
        if select.select([fd], [], [], min(left, 0.2))[0]:
            data = os.read(fd, 65536)
            if not data:
                break
            pending += data
    raise AssertionError(
        "timed out; got %r; stderr %r"
        % (lines, proc.stderr.read() if proc.poll() is not None else "")
    )


_PENDING = {}  # proc -> bytes read past the last line read_until returned


@pytest.mark.slow
def test_headless_frames_keys_screenshots_serial_and_persistence(tmp_path, fake):
    import serial

    sim, shots = str(tmp_path / "sim"), str(tmp_path / "shots")
    p = start_sim(["--dir", sim, "--screenshot", shots, "--script", fake])
    try:
        p.stdin.write("a\nB\n")  # typed before the firmware is up: kept
        p.stdin.flush()
        head = read_until(p, lambda s: s.startswith("frame 1 "))
        port = head[0].split()[2]
        assert head[0] == "serial port: %s (knockbox sync --port %s)" % (port, port)
        assert head[-1] == "frame 1 full %s" % os.path.join(shots, "frame-0001.png")
        # the printed port is the firmware's serial port
        s = serial.Serial(port, 115200, timeout=5)
        s.write(b'{"op": "hello"}\n')
        assert s.readline() == b'echo {"op": "hello"}\n'
        s.close()
        p.stdin.write("up hold 300\nc long\n")
        p.stdin.flush()
        frames = read_until(p, lambda s: s.startswith("frame 5 "))
        assert [ln.split()[:3] for ln in frames] == [
            ["frame", str(i), "partial"] for i in (2, 3, 4, 5)
        ]
        quit_sim(p)
    finally:
        if p.poll() is None:
            p.kill()
    assert lines(os.path.join(sim, "keys")) == [
        "press a 120",
        "press b 800",
        "press up 300",
        "press c 800",
    ]
    assert sorted(os.listdir(shots)) == ["frame-%04d.png" % i for i in range(1, 6)]
    last = bitmap.to_image(bitmap.read_pbm(os.path.join(sim, "frame.pbm")), 2)
    from PIL import Image

    assert (
        Image.open(os.path.join(shots, "frame-0005.png")).convert("1").tobytes() == last.tobytes()
    )

    # a second run starts from the same flash image; --reset wipes it
    p = start_sim(["--dir", sim, "--script", fake])
    read_until(p, lambda s: s.startswith("frame 1 "))
    quit_sim(p)
    assert open(os.path.join(sim, "flash.img")).read() == "a b up c"
    first = bitmap.read_pbm(os.path.join(sim, "frame.pbm"))
    p = start_sim(["--dir", sim, "--script", fake, "--reset"])
    read_until(p, lambda s: s.startswith("frame 1 "))
    quit_sim(p)
    assert not os.path.exists(os.path.join(sim, "flash.img"))
    assert bitmap.read_pbm(os.path.join(sim, "frame.pbm")).ink() < first.ink()


def firmware_pids(sim_dir):
    """Processes started with KNOCKBOX_SIM_DIR=sim_dir (the firmware)."""
    want = ("KNOCKBOX_SIM_DIR=%s" % sim_dir).encode()
    pids = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if want in f.read().split(b"\0"):
                    pids.append(int(pid))
        except (OSError, ValueError):
            pass
    return pids


def test_killed_simulator_stops_its_firmware(tmp_path, fake):
    import signal

    sim = str(tmp_path)
    p = start_sim(["--dir", sim, "--script", fake])
    read_until(p, lambda s: s.startswith("frame 1 "))
    assert len(firmware_pids(sim)) == 1
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=15)
    assert p.returncode == 0
    assert firmware_pids(sim) == []

    # killed outright (SIGKILL: no clean-up runs), it still takes its firmware along (Linux)
    p = start_sim(["--dir", sim, "--script", fake])
    read_until(p, lambda s: s.startswith("frame 1 "))
    (pid,) = firmware_pids(sim)
    p.kill()
    p.communicate(timeout=15)
    end = time.monotonic() + 10
    while firmware_pids(sim) and time.monotonic() < end:
        time.sleep(0.05)
    assert firmware_pids(sim) == []


def test_firmware_crash_is_reported(tmp_path, fake):
    p = start_sim(["--dir", str(tmp_path), "--script", fake], env={"FAKE_CRASH": "1"})
    out, err = p.communicate(timeout=20)
    assert p.returncode == 1
    assert "knockbox: the firmware stopped" in err
    assert "RuntimeError: fake firmware gave up" in err  # its traceback (printed on its stdout)


# ---- the command, in a terminal -------------------------------------------------------------


def run_in_terminal(argv, steps, cols, rows, env=None):
    """Run argv on a pty of the given size and type: steps are (keys, until): keys is bytes, or
    a list of bytes typed 30 ms apart (a held key the terminal repeats); then wait until the
    output holds `until` (no fixed sleeps). The first keys are typed at once, before the program
    is even up. Returns (exit status, output bytes, terminal attributes before, after)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    before = termios.tcgetattr(slave)
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=e, cwd=mp.ROOT, start_new_session=True
    )
    out = bytearray()

    def pump(seconds, until=None):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if until is not None and until in out:
                return
            r, _, _ = select.select([master], [], [], 0.01)
            if r:
                try:
                    out.extend(os.read(master, 65536))
                except OSError:
                    return
        assert until is None, "no %r in %r" % (until, bytes(out[-1500:]))

    try:
        for data, until in steps:
            for chunk in [data] if isinstance(data, bytes) else data:
                os.write(master, chunk)
                pump(0.03)
            pump(30, until.encode())
        p.wait(15)
    finally:
        if p.poll() is None:
            p.kill()
        pump(0.3)
        after = termios.tcgetattr(slave)
        os.close(slave)
        os.close(master)
    return p.returncode, bytes(out), before, after


def test_terminal_screen_keys_and_restore(tmp_path, fake):
    sim = str(tmp_path / "sim")
    argv = KNOCKBOX + ["simulate", "--dir", sim, "--script", fake]
    held = [b"\x1b[B"] * 12  # Down held: the terminal repeats it
    rc, out, before, after = run_in_terminal(
        argv,
        [
            (b"a", "refresh 2 ("),
            (b"\x1b[A", "refresh 3 ("),
            (b"B", "refresh 4 ("),
            (held, "down: down"),
            (b"", "refresh 5 ("),
            (b"q", "\x1b[?1049l"),
        ],
        cols=160,
        rows=50,
    )
    text = out.decode("utf-8", "replace")
    assert rc == 0, text[-2000:]
    assert after == before  # cbreak undone, echo back on
    assert text.rstrip().endswith("\x1b[?1049l")  # left the alternate screen
    assert "\u2800" in text and "\u250c" in text  # braille picture (fits 160x50) in a border
    assert "serial port: /dev/pts/" in text and "q: quit" in text
    # "a" was typed before the simulator set up the terminal: kept, not flushed
    got = lines(os.path.join(sim, "keys"))
    assert got[:3] == ["press a 120", "press up 120", "press b 800"]
    # (a loaded machine may hand the first repeat over in one read with the key: then that one
    # is a press of its own before the hold)
    assert got[-2:] == ["down down", "up down"] and set(got[3:-2]) <= {"press down 120"}
    assert len(got) <= 6

    # a crash still restores the terminal, and says what happened
    rc, out, before, after = run_in_terminal(argv, [], cols=80, rows=40, env={"FAKE_CRASH": "1"})
    text = out.decode("utf-8", "replace")
    assert rc == 1 and after == before
    assert "knockbox: the firmware stopped" in text


# ---- sync and push find the simulator in any folder -------------------------------------------


def knockbox_in(env, *args):
    """A knockbox command run with env added to the environment."""
    return subprocess.run(
        KNOCKBOX + list(args),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=mp.ROOT,
        env=dict(os.environ, **env),
    )


def test_sync_and_push_find_a_simulator_started_in_any_folder(tmp_path, fake):
    """`simulate --dir DIR` (not the default folder): `sync` and `push` without --port find it
    and say so; with two running they list both to choose from with --port."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}  # the default folder: another one
    one, two = str(tmp_path / "one"), str(tmp_path / "two")
    sims = []
    try:
        sims.append(start_sim(["--dir", one, "--script", fake], env=env))
        port = read_until(sims[0], lambda s: s.startswith("frame 1 "))[0].split()[2]
        for cmd in (["sync", "--db", str(tmp_path / "h.sqlite3")], ["push"]):
            r = knockbox_in(env, *cmd, "--timeout", "1")
            # found: it talks to the stand-in firmware, which only echoes (so no hello)
            assert "%s: the simulator in %s (process %d)" % (port, one, sims[0].pid) in r.stderr
            assert "no MicroPython board found" not in r.stderr, r.stderr

        sims.append(start_sim(["--dir", two, "--script", fake], env=env))
        port2 = read_until(sims[1], lambda s: s.startswith("frame 1 "))[0].split()[2]
        r = knockbox_in(env, "push")
        assert r.returncode == 1
        assert r.stderr.startswith("knockbox: several simulators are running; pick one with --port")
        assert "%s  (the simulator in %s" % (port, one) in r.stderr
        assert "%s  (the simulator in %s" % (port2, two) in r.stderr
        for p in sims:
            quit_sim(p)
        # gone: nothing is found any more (and the list of running simulators is empty again)
        r = knockbox_in(env, "push")
        assert "no MicroPython board found" in r.stderr and "no simulator running" in r.stderr
        assert os.listdir(tmp_path / "data" / "knockbox" / "running") == []
    finally:
        for p in sims:
            if p.poll() is None:
                p.kill()
