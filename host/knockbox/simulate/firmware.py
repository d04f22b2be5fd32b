"""The simulated device's process: its folder, its build, and the firmware running in it.

SIM_DIR holds flash.img (the littlefs image: the games persist), keys (the key protocol, see
keys.py), frame.pbm (written by the board on each refresh), firmware.log, simulator.lock (held
while a simulator runs there; it says its serial port: knockbox.link.ports) and build/ (the core and
the firmware compiled by mpy-cross -O3 from firmware/manifest.py's "sim" build, as on the Pico).
The firmware runs as `micropython -X heapsize=192k build/sim_main.py` with KNOCKBOX_SIM_DIR set
(and KNOCKBOX_SIM_BATTERY: 1 on battery, where the auto-off switches it off; 0 on USB),
its stdin/stdout on a SerialBridge (the USB serial port), and its stderr read by the caller:
"@frame N full|partial" after each refresh (after "@text Y X STRING" for each string on its
screen), other "@..." lines are board events, the rest logs.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from typing import Any, TYPE_CHECKING

from knockbox.build import engines
from knockbox.usererror import UserError
from knockbox.link.ptyrelay import SerialBridge

if TYPE_CHECKING:
    from knockbox.bitmap import Bitmap
    from knockbox.build.manifest import Manifest

HEAP = "192k"
SIM_FILES = ("flash.img", "keys", "frame.pbm", "frame.pbm.tmp", "firmware.log")
FRAME = "frame.pbm"
_FRAME_RE = re.compile(r"^@frame (\d+) (full|partial)\s*$")
_TEXT_RE = re.compile(r"^@text (-?\d+) (-?\d+) (.*)$")


def reset_dir(sim_dir: str) -> None:
    """Wipe the simulated device (only the files the simulator owns)."""
    for name in SIM_FILES:
        _remove(os.path.join(sim_dir, name))


def forget_frames(sim_dir: str) -> None:
    """No frame of an earlier run may pass for this one's."""
    for name in (FRAME, FRAME + ".tmp"):
        _remove(os.path.join(sim_dir, name))


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def build(sim_dir: str, script: str | None = None) -> tuple[str, str]:
    """Compile the device's "sim" build into sim_dir/build (only changed files are rewritten);
    returns (the MICROPYPATH folder, the entry script to run). `script` (tests) is another entry
    point, run from the build folder too: MicroPython imports from beside the script first."""
    from knockbox.build import manifest
    from knockbox.build import mpy

    root = os.path.join(sim_dir, "build")
    m = manifest.load()
    stamp = _stamp(m)
    files = [e.dest for e in m.entries("sim")]
    whole = all(os.path.exists(os.path.join(root, *d.split("/"))) for d in files)
    if not whole or _read(os.path.join(root, ".built")) != stamp:  # compile what changed
        _remove(os.path.join(root, ".built"))
        mpy.build_into(root, "sim", manifest=m)
        with open(os.path.join(root, ".built"), "w") as f:
            f.write(stamp)
    entry = os.path.join(root, "sim_main.py")
    if script:
        if not os.path.exists(script):
            raise UserError("the simulator entry point %s is missing" % script)
        entry = os.path.join(root, "_" + os.path.basename(script))  # never the build's own
        shutil.copyfile(script, entry)
    keep = {"lib", ".built", os.path.basename(entry)} | {d.split("/")[0] for d in files}
    for name in os.listdir(root):  # an older layout's folders beside the script would shadow lib
        if name not in keep:
            path = os.path.join(root, name)
            if os.path.isdir(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
    return mpy.lib(root), entry


def _stamp(m: Manifest) -> str:
    """What the build depends on: every source (with its size and time), its options, and the
    compiler."""
    tool = engines.tool("mpy-cross")
    parts = [tool, str(os.stat(tool).st_mtime_ns)]
    for e in m.entries("sim"):
        st = os.stat(e.src)
        parts.append(
            "%s %s %d %d %r %r %r"
            % (e.dest, e.src, st.st_size, st.st_mtime_ns, e.opt, e.march_for("sim"), e.text)
        )
    return "\n".join(parts) + "\n"


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def parse_line(line: str) -> tuple[Any, ...]:
    """A stderr line of the firmware -> ("frame", n, kind) | ("text", y, x, string) (a string on
    the next frame's screen) | ("event", text) | ("log", line)."""
    m = _FRAME_RE.match(line)
    if m:
        return ("frame", int(m.group(1)), m.group(2))
    m = _TEXT_RE.match(line)
    if m:
        return ("text", int(m.group(1)), int(m.group(2)), m.group(3))
    if line.startswith("@"):  # other board events: "@power off", "@power on a"
        return ("event", line[1:])
    return ("log", line)


def _die_with_parent() -> None:
    """(Linux, in the child) SIGTERM when the simulator dies, even killed with SIGKILL: a
    firmware left behind would run on with nobody reading its serial port."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Firmware:
    """The firmware process: stdio on a SerialBridge, stderr read by the caller's loop."""

    def __init__(
        self, sim_dir: str, script: str | None = None, heap: str = HEAP, battery: bool = False
    ) -> None:
        self.sim_dir = sim_dir
        self.battery = battery  # on battery: the auto-off switches it off (else a board on USB)
        self.script = script
        self.heap = heap
        self.proc: subprocess.Popen | None = None
        self.bridge: SerialBridge | None = None
        self._err = b""
        self.tail: list[
            str
        ] = []  # last stderr lines that were not frame events (for crash reports)
        self.serial_tail = b""

    def start(self) -> Firmware:
        # The firmware runs as on the Pico: .mpy files from mpy-cross -O3 (from source, the
        # unix port's compiler would need more than the 192 KB heap the device has).
        lib, entry = build(self.sim_dir, self.script)
        env = engines.micropython_env([lib])
        env["KNOCKBOX_SIM_DIR"] = os.path.abspath(self.sim_dir)
        env["KNOCKBOX_SIM_BATTERY"] = "1" if self.battery else "0"
        argv = [engines.tool("micropython"), "-X", "heapsize=" + self.heap, entry]
        bridge = self.bridge = SerialBridge()
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=bridge.device_fd,
                stdout=bridge.device_fd,
                stderr=subprocess.PIPE,
                env=env,
                cwd=self.sim_dir,
                start_new_session=True,  # our terminal's Ctrl-C is ours, not the firmware's
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )
        except OSError as e:
            bridge.close()
            raise UserError("cannot start micropython: %s" % e) from None
        bridge.start()
        os.set_blocking(self.stderr_fd(), False)
        return self

    @property
    def port(self) -> str:
        if self.bridge is None:
            raise ValueError("the firmware is not started")
        return self.bridge.path

    def stderr_fd(self) -> int:
        if self.proc is None or self.proc.stderr is None:
            raise ValueError("the firmware is not started")
        return self.proc.stderr.fileno()

    def read_stderr(self) -> list[str]:
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
            if not ln.startswith(("@frame ", "@text ")):
                self.tail = (self.tail + [ln])[-40:]
        return out

    def read_frame(self) -> Bitmap:
        from knockbox import bitmap

        return bitmap.read_pbm(os.path.join(self.sim_dir, FRAME))

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
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
            if p.stderr is not None:
                p.stderr.close()
        if self.bridge is not None:
            if self.bridge.relay is not None:
                time.sleep(0.05)  # let the relay take the last bytes
                self.serial_tail = bytes(self.bridge.relay.tail)
            self.bridge.close()
            self.bridge = None

    def crash_report(self) -> str:
        """What the firmware said before it stopped: its stderr, else the end of its serial
        output (the unix port prints tracebacks on stdout, i.e. the serial port)."""
        text = "\n".join(self.tail[-15:])
        if not text.strip() or "Traceback" not in text:
            serial = self.serial_tail.decode("utf-8", "replace").replace("\r", "")
            at = serial.rfind("Traceback")
            if at >= 0:
                text = (text + "\n" + serial[at:]).strip()
        return text
