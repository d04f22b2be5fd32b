"""`knockbox simulate`: the real firmware under the MicroPython unix port, with the e-ink screen
drawn in the terminal, keys as the five buttons, and a pseudo-terminal serial port.

The channel to the firmware (docs/ARCHITECTURE.md, "The simulator channel"):
  KNOCKBOX_SIM_DIR=DIR   flash.img (littlefs image, persists), keys (we append "a 1" / "a 0"
                         lines, one per button level change), frame.pbm (P4 296x128, written
                         tmp-then-rename by the firmware on each refresh)
  stderr                 "@frame N full|partial" after each refresh; other lines are logs
  stdin/stdout           the USB serial port: on a pty, relayed to a second pty for clients
"""
import io
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time

from knockbox import engines, screen
from knockbox.errors import UserError
from knockbox.ptyrelay import SerialBridge

HEAP = "192k"
BUTTONS = ("a", "b", "c", "up", "down")
REPEATERS = ("up", "down")  # held while the terminal keeps repeating the key
TAP_MS = 120                # a key press: button down this long
LONG_MS = 800               # Shift / capital letter: a long press (the firmware's long is 600 ms)
GAP_MS = 120                # button up at least this long before the next press of it
SIM_FILES = ("flash.img", "keys", "frame.pbm", "frame.pbm.tmp", "firmware.log")
_FRAME_RE = re.compile(r"^@frame (\d+) (full|partial)\s*$")


def default_dir():
    """The simulator's flash image lives in the user's data dir, so it persists between runs."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return os.path.join(base, "knockbox", "sim")


def reset_dir(sim_dir):
    """Wipe the simulated device (only the files the simulator owns)."""
    for name in SIM_FILES:
        try:
            os.remove(os.path.join(sim_dir, name))
        except FileNotFoundError:
            pass


def build(sim_dir):
    """Compile the core and the firmware (with the simulator's board) into sim_dir/build;
    only files whose bytes changed are rewritten, and stale ones are removed."""
    from knockbox import deploy

    root = os.path.join(sim_dir, "build")
    want = {}
    for path, data in deploy.compile_all(include_sim=True).items():
        if path.startswith("lib/"):
            want[os.path.join(root, *path[4:].split("/"))] = data
    for dest, data in want.items():
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        try:
            with open(dest, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            pass
        with open(dest + ".tmp", "wb") as f:
            f.write(data)
        os.replace(dest + ".tmp", dest)
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(dirpath, name)
            if full not in want and name.endswith(".mpy"):
                os.remove(full)
    return root


def now_ms():
    return time.monotonic() * 1000.0


class Firmware:
    """The firmware process: stdio on a SerialBridge, stderr read by the caller's loop."""

    def __init__(self, sim_dir, script=None, heap=HEAP):
        self.sim_dir = sim_dir
        self.script = script or os.path.join(engines.firmware_root(), "sim_main.py")
        if not os.path.exists(self.script):
            raise UserError("the simulator entry point %s is missing" % self.script)
        self.heap = heap
        self.proc = None
        self.bridge = None
        self._err = b""
        self.tail = []  # last stderr lines that were not frame events (for crash reports)
        self.serial_tail = b""

    def start(self):
        # The firmware runs as on the Pico: .mpy files from mpy-cross -O3 (from source, the
        # unix port's compiler would need more than the 192 KB heap the device has).
        root = build(self.sim_dir)
        env = engines.micropython_env([root])
        env["KNOCKBOX_SIM_DIR"] = os.path.abspath(self.sim_dir)
        # The entry script runs from the build folder: MicroPython looks for imports beside the
        # script first, and beside firmware/sim_main.py are the sources.
        script = os.path.join(root, os.path.basename(self.script))
        shutil.copyfile(self.script, script)
        argv = [engines.tool("micropython"), "-X", "heapsize=" + self.heap, script]
        self.bridge = SerialBridge()
        try:
            self.proc = subprocess.Popen(
                argv, stdin=self.bridge.device_fd, stdout=self.bridge.device_fd,
                stderr=subprocess.PIPE, env=env, cwd=self.sim_dir,
                start_new_session=True)  # our terminal's Ctrl-C is ours, not the firmware's
        except OSError as e:
            self.bridge.close()
            raise UserError("cannot start micropython: %s" % e) from None
        self.bridge.start()
        os.set_blocking(self.proc.stderr.fileno(), False)
        return self

    @property
    def port(self):
        return self.bridge.path

    def stderr_fd(self):
        return self.proc.stderr.fileno()

    def read_stderr(self):
        """Complete stderr lines available now (decoded); [] when none."""
        try:
            data = os.read(self.stderr_fd(), 65536)
        except BlockingIOError:
            return []
        except OSError:
            data = b""
        if not data:
            return []
        self._err += data
        *lines, self._err = self._err.split(b"\n")
        out = [ln.decode("utf-8", "replace").rstrip("\r") for ln in lines]
        for ln in out:
            if not ln.startswith("@frame "):
                self.tail = (self.tail + [ln])[-40:]
        return out

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        """Stop the firmware: SIGINT (KeyboardInterrupt), then SIGTERM, then SIGKILL."""
        p = self.proc
        if p is not None and p.poll() is None:
            for sig, wait_s in ((signal.SIGINT, 2.0), (signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
                try:
                    p.send_signal(sig)
                except ProcessLookupError:
                    break
                try:
                    p.wait(wait_s)
                    break
                except subprocess.TimeoutExpired:
                    continue
        if p is not None:
            try:
                self.read_stderr()
            except (OSError, ValueError):
                pass
            p.stderr.close()
        if self.bridge is not None:
            if self.bridge.relay is not None:
                time.sleep(0.05)  # let the relay take the last bytes
                self.serial_tail = bytes(self.bridge.relay.tail)
            self.bridge.close()
            self.bridge = None

    def crash_report(self):
        """What the firmware said before it stopped: its stderr, else the end of its serial
        output (the unix port prints tracebacks on stdout, i.e. the serial port)."""
        text = "\n".join(self.tail[-15:])
        if not text.strip() or "Traceback" not in text:
            serial = self.serial_tail.decode("utf-8", "replace").replace("\r", "")
            at = serial.rfind("Traceback")
            if at >= 0:
                text = (text + "\n" + serial[at:]).strip()
        return text


class Keys:
    """Button presses for the firmware, as level changes appended to DIR/keys at the right times.

    press(name, hold_ms): the button goes down as soon as it is free (up for GAP_MS since its
    last release), and up hold_ms later. A press of a repeat button (up/down) while it is down
    keeps it down instead (terminal key repeat = holding the button). With sequential=True
    (scripts), every press waits for the previous one of any button to end.
    """

    def __init__(self, path, sequential=False):
        self.path = path
        self.sequential = sequential
        self.plan = []       # [(at_ms, name, level)], kept sorted
        self.down = {}       # name -> planned release time of a press in progress / planned
        self.free_at = {}    # name -> earliest time the next press may start
        self.last_end = 0.0  # sequential mode: when the last planned press ends
        self.pressed = set()  # buttons that are down now (written "1")
        self.ready = False   # the firmware follows the file only once it is up (first frame)
        with open(path, "w"):
            pass  # start with an empty file: old lines must not replay

    def press(self, name, hold_ms=TAP_MS, at=None):
        now = now_ms() if at is None else at
        if not self.sequential and name in self.down and self.down[name] >= now:
            if name in REPEATERS:  # terminal key repeat: keep it down
                self._move_release(name, max(self.down[name], now + hold_ms))
            return  # A/B/C: a repeat of the key while the button is down is ignored
        start = max(now, self.free_at.get(name, 0.0))
        if self.sequential:
            start = max(start, self.last_end + GAP_MS if self.last_end else start)
        end = start + hold_ms
        self.plan.append((start, name, 1))
        self.plan.append((end, name, 0))
        self.plan.sort(key=lambda t: (t[0], t[2]))
        self.down[name] = end
        self.free_at[name] = end + GAP_MS
        self.last_end = max(self.last_end, end)

    def _move_release(self, name, end):
        self.plan = [t for t in self.plan if not (t[1] == name and t[2] == 0)]
        self.plan.append((end, name, 0))
        self.plan.sort(key=lambda t: (t[0], t[2]))
        self.down[name] = end
        self.free_at[name] = end + GAP_MS
        self.last_end = max(self.last_end, end)

    def wait_ms(self, ms):
        """Sequential scripts: the next press starts no earlier than ms from now (or from the
        end of the planned presses)."""
        self.last_end = max(self.last_end, now_ms()) + ms

    def start(self, now=None):
        """The firmware is up: from now on write the presses; the ones planned while it was
        booting keep their spacing, shifted to begin now."""
        now = now_ms() if now is None else now
        if not self.ready and self.plan and self.plan[0][0] < now:
            shift = now - self.plan[0][0]
            self.plan = [(t + shift, n, lv) for t, n, lv in self.plan]
            for d in (self.down, self.free_at):
                for k in d:
                    d[k] += shift
            self.last_end += shift
        self.ready = True

    def next_due(self):
        return self.plan[0][0] if self.plan and self.ready else None

    def idle(self):
        return not self.plan

    def flush(self, now=None):
        """Write the level changes that are due; return them as (name, level)."""
        now = now_ms() if now is None else now
        due = []
        while self.ready and self.plan and self.plan[0][0] <= now:
            _, name, level = self.plan.pop(0)
            due.append((name, level))
            if level:
                self.pressed.add(name)
            else:
                self.pressed.discard(name)
                if self.down.get(name, 0) <= now:
                    self.down.pop(name, None)
        if due:
            with open(self.path, "a") as f:
                for name, level in due:
                    f.write("%s %d\n" % (name, level))
        return due


def parse_script_line(line):
    """A headless command: "a" (press), "A" or "a long" (long press), "up", "down",
    "NAME hold MS", "wait MS", "quit". Returns (verb, name, ms) or raises ValueError."""
    words = line.split()
    if not words or words[0].startswith("#"):
        return None
    w = words[0]
    if w.lower() in ("q", "quit", "exit"):
        return ("quit", None, 0)
    if w.lower() == "wait":
        return ("wait", None, _ms(words, 1))
    name = w.lower()
    if name in ("k",):
        name = "up"
    if name in ("j",):
        name = "down"
    if name not in BUTTONS:
        raise ValueError("unknown key %r (a b c up down, capital or 'long' = long press)" % w)
    hold = LONG_MS if (len(w) == 1 and w.isupper()) else TAP_MS
    if len(words) > 1:
        if words[1] == "long":
            hold = LONG_MS
        elif words[1] == "hold":
            hold = _ms(words, 2)
        else:
            raise ValueError("say '%s', '%s long' or '%s hold MS'" % (name, name, name))
    return ("press", name, hold)


def _ms(words, i):
    try:
        v = int(words[i])
    except (IndexError, ValueError):
        raise ValueError("expected a number of milliseconds") from None
    if v < 0 or v > 600000:
        raise ValueError("milliseconds out of range")
    return v


# Terminal keys -> (button, hold_ms); special values "quit", "redraw".
_TTY_KEYS = {
    b"a": ("a", TAP_MS), b"b": ("b", TAP_MS), b"c": ("c", TAP_MS),
    b"A": ("a", LONG_MS), b"B": ("b", LONG_MS), b"C": ("c", LONG_MS),
    b"k": ("up", TAP_MS), b"j": ("down", TAP_MS), b"K": ("up", TAP_MS), b"J": ("down", TAP_MS),
    b"q": ("quit", 0), b"Q": ("quit", 0), b"\x03": ("quit", 0), b"\x04": ("quit", 0),
    b"\x0c": ("redraw", 0),
}
_ESC_KEYS = {b"A": "up", b"B": "down"}  # ESC [ A / ESC O A, also ESC [ 1 ; 2 A (Shift)


def parse_tty_keys(data):
    """Bytes read from the terminal -> list of (button or "quit"/"redraw", hold_ms)."""
    out = []
    i = 0
    while i < len(data):
        ch = data[i:i + 1]
        if ch == b"\x1b":
            m = re.match(rb"\x1b[\[O][0-9;]*([A-Za-z~])", data[i:])
            if m:
                key = _ESC_KEYS.get(m.group(1))
                if key:
                    out.append((key, TAP_MS))
                i += m.end()
                continue
            i += 1
            continue
        if ch in _TTY_KEYS:
            out.append(_TTY_KEYS[ch])
        i += 1
    return out


class TerminalView:
    """Draws the screen, the key help and a status line; owns the terminal's mode."""

    HELP = ("a b c: buttons A B C   A B C (Shift): long press   "
            "\u2191 \u2193 or k j: Up Down   q: quit")

    def __init__(self, out, fd):
        self.out = out
        self.fd = fd
        self.frame = None
        self.info = ""
        self.status = ""
        self.port = ""
        self.saved = None
        self.resized = True

    def __enter__(self):
        import termios
        import tty

        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self.out.write("\x1b[?1049h\x1b[?25l")  # alternate screen, hide cursor
        self.out.flush()
        signal.signal(signal.SIGWINCH, self._winch)
        return self

    def __exit__(self, *exc):
        import termios

        signal.signal(signal.SIGWINCH, signal.SIG_DFL)
        self.out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        self.out.flush()
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)

    def _winch(self, *_):
        self.resized = True

    def draw(self):
        try:  # the terminal itself (COLUMNS/LINES in the environment may be stale)
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            size = shutil.get_terminal_size((80, 24))
        cols, rows = size.columns, size.lines
        w, h = (self.frame.width, self.frame.height) if self.frame else (296, 128)
        mode = screen.pick_mode(cols, rows, w, h, extra_cols=2, extra_rows=5)
        pw, ph = screen.cells(mode, w, h)
        if self.frame is not None:
            body = screen.to_text(self.frame, mode)
        else:
            body = [" " * pw for _ in range(ph)]
            msg = "starting the firmware..."
            body[ph // 2] = msg.center(pw)[:pw]
        tight = pw + 2 > cols or ph + 5 > rows
        vw = min(pw, max(cols - 2, 1))  # picture columns that fit (cropped on the right)
        lines = []
        if tight:
            lines.append(("terminal too small: make it at least %dx%d" % (pw + 2, ph + 6))[:cols])
        lines.append("\u250c" + "\u2500" * vw + "\u2510")
        for row in body:  # e-ink: black ink on white paper, whatever the terminal's colours
            lines.append("\u2502\x1b[30;107m" + row[:vw] + "\x1b[0m\u2502")
        lines.append("\u2514" + "\u2500" * vw + "\u2518")
        lines.append(self.HELP[:cols])
        port = "serial port: %s   (knockbox sync --port %s)" % (self.port, self.port)
        lines.append(port[:cols])
        lines.append(self.info[:cols])
        lines.append(self.status[:cols])
        if len(lines) > rows:  # never scroll: keep the help and status, drop picture rows
            keep_tail = 4 + 1
            lines = lines[: max(rows - keep_tail, 1)] + lines[-keep_tail:]
            lines = lines[:rows]
        prefix = "\x1b[H"
        if self.resized:
            prefix = "\x1b[H\x1b[2J"
            self.resized = False
        self.out.write(prefix + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")
        self.out.flush()


def run(args, stdin=None, stdout=None, stderr=None):
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    sim_dir = os.path.abspath(args.dir or default_dir())
    os.makedirs(sim_dir, exist_ok=True)
    if args.reset:
        reset_dir(sim_dir)
    for stale in ("frame.pbm", "frame.pbm.tmp"):
        try:
            os.remove(os.path.join(sim_dir, stale))
        except FileNotFoundError:
            pass
    shots = None
    if args.screenshot:
        shots = os.path.abspath(args.screenshot)
        os.makedirs(shots, exist_ok=True)
    tty_mode = not args.no_tty and stdin.isatty() and stdout.isatty()
    keys = Keys(os.path.join(sim_dir, "keys"), sequential=not tty_mode)
    def stop_signal(signum, _frame):  # kill / closed terminal: quit as cleanly as with q
        raise KeyboardInterrupt

    old_handlers = [(sig, signal.signal(sig, stop_signal)) for sig in (signal.SIGTERM,
                                                                       signal.SIGHUP)]
    fw = Firmware(sim_dir, script=args.script).start()
    session = _Session(fw, keys, sim_dir, shots, args.scale, stdout, stderr)
    try:
        try:
            if tty_mode:
                with TerminalView(stdout, stdin.fileno()) as view:
                    rc = session.loop_tty(stdin.fileno(), view)
            else:
                rc = session.loop_headless(stdin)
        except KeyboardInterrupt:  # Ctrl-C is a way to quit, not an error
            rc = "done"
    finally:
        fw.stop()
        session.logfile.close()
        for sig, handler in old_handlers:
            signal.signal(sig, handler)
    if rc == "crashed":
        tail = fw.crash_report()
        raise UserError("the firmware stopped (exit code %s)%s"
                        % (fw.proc.returncode, ":\n" + tail if tail else ""))
    return 0


class _Session:
    def __init__(self, fw, keys, sim_dir, shots, scale, stdout, stderr):
        self.fw = fw
        self.keys = keys
        self.sim_dir = sim_dir
        self.shots = shots
        self.scale = scale or 1
        self.stdout = stdout
        self.stderr = stderr
        self.shot_count = 0
        self.frames = 0
        self.logfile = open(os.path.join(sim_dir, "firmware.log"), "a")

    def _firmware_lines(self, on_frame, on_log, on_event):
        for line in self.fw.read_stderr():
            m = _FRAME_RE.match(line)
            if m:
                try:
                    frame = screen.read_pbm(os.path.join(self.sim_dir, "frame.pbm"))
                except (OSError, screen.FrameError) as e:
                    on_log("cannot read frame.pbm: %s" % e)
                    continue
                self.frames += 1
                path = None
                if self.shots:
                    self.shot_count += 1
                    path = os.path.join(self.shots, "frame-%04d.png" % self.shot_count)
                    screen.save_png(frame, path, self.scale)
                on_frame(int(m.group(1)), m.group(2), frame, path)
                self.keys.start()
            elif line.startswith("@"):  # other board events: "@power off", "@power on a"
                on_event(line[1:])
            else:
                self.logfile.write(line + "\n")
                self.logfile.flush()
                on_log(line)

    def _timeout(self, cap):
        due = self.keys.next_due()
        if due is None:
            return cap
        return max(0.0, min(cap, (due - now_ms()) / 1000.0))

    def loop_headless(self, stdin):
        out = self.stdout
        out.write("serial port: %s (knockbox sync --port %s)\n" % (self.fw.port, self.fw.port))
        out.write("sim dir: %s\n" % self.sim_dir)
        out.flush()

        def on_frame(n, kind, frame, path):
            out.write("frame %d %s%s\n" % (n, kind, (" " + path) if path else ""))
            out.flush()

        def on_log(line):
            self.stderr.write("firmware: %s\n" % line)
            self.stderr.flush()

        def on_event(text):
            out.write(text + "\n")
            out.flush()

        in_fd = stdin.fileno()
        in_buf = b""
        in_open = True
        quitting = False  # "quit" read: stop after the presses and waits before it
        err_fd = self.fw.stderr_fd()
        while True:
            if not self.fw.running():
                self._firmware_lines(on_frame, on_log, on_event)
                return "crashed"  # it never stops by itself: sim_main loops forever
            if quitting and self.keys.idle() and now_ms() >= self.keys.last_end:
                return "done"
            fds = [err_fd] + ([in_fd] if in_open and not quitting else [])
            ready, _, _ = select.select(fds, [], [], self._timeout(0.2))
            self.keys.flush()
            if err_fd in ready:
                self._firmware_lines(on_frame, on_log, on_event)
            if in_fd in ready:
                data = os.read(in_fd, 4096)
                if not data:
                    in_open = False  # EOF: keep serving the serial port until stopped
                in_buf += data
                *lines, in_buf = in_buf.split(b"\n")
                for raw in lines:
                    try:
                        cmd = parse_script_line(raw.decode("utf-8", "replace"))
                    except ValueError as e:
                        self.stderr.write("knockbox: %s\n" % e)
                        continue
                    if cmd is None:
                        continue
                    verb, name, ms = cmd
                    if verb == "quit":
                        quitting = True
                        break
                    if verb == "wait":
                        self.keys.wait_ms(ms)
                    else:
                        self.keys.press(name, ms)

    def loop_tty(self, in_fd, view):
        view.port = self.fw.port
        view.info = "flash image: %s" % os.path.join(self.sim_dir, "flash.img")
        view.draw()

        def on_frame(n, kind, frame, path):
            view.frame = frame
            view.info = "refresh %d (%s)%s" % (n, kind, ("   saved " + path) if path else "")

        def on_log(line):
            view.status = "firmware: " + line

        def on_event(text):
            view.status = text + ("   (press a key to wake it)" if text == "power off" else "")

        err_fd = self.fw.stderr_fd()
        while True:
            if not self.fw.running():
                self._firmware_lines(on_frame, on_log, on_event)
                return "crashed"
            ready, _, _ = select.select([err_fd, in_fd], [], [], self._timeout(0.25))
            changed = bool(self.keys.flush())
            if err_fd in ready:
                self._firmware_lines(on_frame, on_log, on_event)
                changed = True
            if in_fd in ready:
                for key, hold in parse_tty_keys(os.read(in_fd, 1024)):
                    if key == "quit":
                        return "done"
                    if key == "redraw":
                        view.resized = True
                    else:
                        self.keys.press(key, hold)
                changed = True
            if changed or view.resized:
                held = " ".join(sorted(n.upper() if len(n) == 1 else n for n in self.keys.pressed))
                if held:
                    view.status = "down: " + held
                elif view.status.startswith("down: "):
                    view.status = ""
                view.draw()
