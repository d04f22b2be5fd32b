"""The device's serial port through the commands: found without --port (a board by USB id, else a
running simulator), held by one command at a time (one `sync` per port, one `simulate` per
folder), refused with what to do (`dialout`), and a reply that trickles given up on."""

import json
import os
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from kit.clirun import knockbox
from kit.ptydevice import KNOCKBOX, FakeDevice, failed, good_device, journal, run
from test_simulate import FAKE_FIRMWARE, quit_sim, read_until, start_sim


def board(device, vid=0x2E8A, pid=0x0005, manufacturer="MicroPython"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, manufacturer=manufacturer)


@pytest.fixture
def fake(tmp_path):
    """The simulator's stand-in firmware (tests/test_simulate.py: it echoes serial lines)."""
    path = tmp_path / "fake_sim.py"
    path.write_text(FAKE_FIRMWARE)
    return str(path)


@pytest.fixture
def plugged(monkeypatch, tmp_path):
    """The serial ports pyserial lists (a list the test fills), and a data folder of its own
    (no simulator running there unless the test starts one)."""
    from serial.tools import list_ports

    listed = []
    monkeypatch.setattr(list_ports, "comports", lambda: listed)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return listed


def test_no_board_and_no_simulator_is_one_line(plugged, db):
    plugged.append(board("/dev/ttyS0", None, None, None))
    for command in ("sync", "push"):
        code, out, err = knockbox(command, "--db", db) if command == "sync" else knockbox(command)
        assert (code, out) == (1, "")
        assert err == (
            "knockbox: no MicroPython board found on USB (looked for USB ids "
            "2e8a:0005, f055:9800, f055:9802), and no simulator running: plug it in "
            "with a data cable, or name its port with --port\n"
        )
    assert not os.path.exists(db)


def test_several_boards_are_listed_to_choose_from(plugged, db):
    plugged += [board("COM4"), board("COM3", 0xF055, 0x9802)]
    code, out, err = knockbox("sync", "--db", db)
    assert code == 1
    assert err == (
        "knockbox: several MicroPython boards are plugged in; pick one with --port:\n"
        "  COM3  (MicroPython, USB f055:9802)\n"
        "  COM4  (MicroPython (Raspberry Pi RP2), USB 2e8a:0005)\n"
    )


def test_the_one_board_is_used_and_named(plugged, db):
    evs, _ = journal(3)
    with FakeDevice(good_device(evs)) as d:
        plugged.append(board(d.path))
        code, out, err = knockbox("sync", "--db", db, "--timeout", "2")
    assert code == 0, err
    assert err.startswith("%s: MicroPython (Raspberry Pi RP2), USB 2e8a:0005\n" % d.path)
    assert "5 new records" in out


@pytest.mark.slow
def test_sync_finds_a_running_simulator_and_only_while_it_runs(plugged, tmp_path, fake, db):
    data = str(tmp_path / "data")
    sim = start_sim(["--script", fake], env={"XDG_DATA_HOME": data})
    try:
        port = read_until(sim, lambda s: s.startswith("frame 1 "))[0].split()[2]
        code, out, err = knockbox("sync", "--db", db, "--timeout", "1")
        # the stand-in firmware echoes what it gets: the port sync opened is the simulator's
        assert code == 1
        assert err.startswith(
            "%s: the simulator in %s (process %d)\n"
            % (port, os.path.join(data, "knockbox", "sim"), sim.pid)
        ), err
        assert "did not answer hello" in err and "echo {" in err
        quit_sim(sim)
    finally:
        if sim.poll() is None:
            sim.kill()
    code, out, err = knockbox("sync", "--db", db)
    assert code == 1 and "no simulator running" in err


@pytest.mark.slow
def test_one_simulator_per_folder(tmp_path, fake):
    folder = str(tmp_path / "sim")
    first = start_sim(["--dir", folder, "--script", fake])
    try:
        read_until(first, lambda s: s.startswith("frame 1 "))
        second = subprocess.run(
            KNOCKBOX_M + ["simulate", "--no-tty", "--dir", folder, "--script", fake],
            input="quit\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert second.stderr.startswith(
            "knockbox: the simulator's folder %s is in use by "
            "knockbox simulate (process %d, since " % (folder, first.pid)
        ), second.stderr
        assert second.stderr.count("\n") == 1
        os.kill(first.pid, signal.SIGKILL)  # however it ends, the folder is free again
        first.wait(15)
    finally:
        if first.poll() is None:
            first.kill()
    again = start_sim(["--dir", folder, "--script", fake])
    try:
        read_until(again, lambda s: s.startswith("frame 1 "))
        quit_sim(again)
    finally:
        if again.poll() is None:
            again.kill()


KNOCKBOX_M = [sys.executable, "-m", "knockbox.cli"]


def test_one_sync_per_port(db):
    silent = FakeDevice(lambda req, line: b"")  # answers nothing: the first sync waits
    try:
        first = subprocess.Popen(
            [KNOCKBOX, "sync", "--port", silent.path, "--db", db, "--timeout", "30"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            end = time.monotonic() + 20
            while not silent.seen and time.monotonic() < end:  # it has the port
                time.sleep(0.05)
            assert silent.seen, "the first sync never wrote to the port"
            p = run("sync", "--port", silent.path, "--db", db + "2")
            failed(
                p,
                "knockbox: serial port %s is in use by knockbox sync (process %d, since "
                % (silent.path, first.pid),
            )
            assert p.stderr.count("\n") == 1
            push = run("push", "--port", silent.path)
            failed(push, "is in use by knockbox sync (process %d" % first.pid)
        finally:
            first.kill()
            first.wait(15)
        # killed, it holds nothing: the port is free (and still silent)
        failed(
            run("sync", "--port", silent.path, "--db", db + "3", "--timeout", "0.3"),
            "no answer to hello",
        )
    finally:
        silent.close()


@pytest.mark.slow
@pytest.mark.parametrize("command", [["sync"], ["push"], ["deploy", "--board", "badger"]])
def test_a_refused_port_says_what_to_do(monkeypatch, db, tmp_path, command):
    """A port the user may not open (on Linux: not in the dialout group); deploy opens it
    through mpremote, which does not say why."""
    import errno

    path = str(tmp_path / "ttyACM0")
    open(path, "w").close()
    real_open = os.open

    def refuse(p, *args, **kw):
        if p == path:
            raise PermissionError(errno.EACCES, "Permission denied", p)
        return real_open(p, *args, **kw)

    monkeypatch.setattr(os, "open", refuse)
    code, out, err = knockbox(*command, "--port", path)
    assert code == 1
    if sys.platform.startswith("linux"):
        assert err == (
            "knockbox: cannot open %s: permission denied. Your user may not use "
            "serial ports yet: sudo usermod -aG dialout $USER, then log out and in "
            "again\n" % path
        )
    else:
        assert err.startswith("knockbox: cannot open %s: " % path) and "close it" in err


def test_a_reply_that_trickles_is_given_up_on(db):
    """The reply starts, then each byte comes before the timeout: silence never ends the wait,
    the reply's rate does."""
    evs, _ = journal(30)

    def trickle(req, page):
        b = (
            json.dumps(
                {"id": req["id"], "epoch": 0, "ev": page, "last_seq": len(evs), "ok": True},
                separators=(",", ":"),
            ).encode()
            + b"\n"
        )
        # 2 bytes a second, for 5 s (then silence: without the rate, a "stopped part way")
        return [(0, b[:20])] + [(0.5, b[i : i + 1]) for i in range(20, 30)]

    with FakeDevice(good_device(evs, trickle)) as d:
        t0 = time.monotonic()
        p = run("sync", "--port", d.path, "--db", db, "--timeout", "1")
        took = time.monotonic() - t0
        time.sleep(max(0.0, t0 + 6 - time.monotonic()))  # the device has said all it would
    failed(p, "the device on %s sends its reply to events too slowly (" % d.path)
    assert took < 4.5


def test_a_simulator_folder_that_cannot_be_made_is_one_line(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    folder = tmp_path / "file" / "sim"
    code, out, err = knockbox("simulate", "--no-tty", "--dir", folder)
    assert (code, out) == (1, "")
    assert err.startswith("knockbox: cannot use the simulator's folder %s: " % folder)
    assert err.count("\n") == 1
