"""One event loop for both front ends of `knockbox simulate`.

Session.run() waits on the firmware's stderr and the front end's input (and the front end's
next deadline), turns frame lines into frames (and screenshots), and hands everything to the
front end:

    TerminalFront   keys typed in a terminal, the screen drawn by a TerminalView; q quits now
    ScriptFront     --no-tty: one command a line on stdin, the port and each frame printed on
                    stdout (its line, then the words on its screen: screen_rows()); "quit", or the end of stdin, quits once the board has played the
                    keys written before it
"""

from __future__ import annotations

import collections
import os
import select
from typing import TYPE_CHECKING, TextIO

from knockbox import bitmap
from knockbox.textsafe import visible
from knockbox.simulate.firmware import parse_line

from knockbox.simulate.keys import TerminalKeys, now_ms, parse_script_line, parse_tty_keys

if TYPE_CHECKING:
    from knockbox.simulate.keys import KeyFile
    from collections.abc import Iterable
    from collections.abc import Sequence
    from knockbox.bitmap import Bitmap
    from knockbox.simulate.firmware import Firmware
    from knockbox.simulate.view import TerminalView

POLL_S = 0.25  # look at the firmware at least this often
QUIT_SETTLE_MS = 300  # after the board played the last key, let its screen catch up


class Session:
    def __init__(
        self,
        fw: Firmware,
        keyfile: KeyFile,
        front: ScriptFront | TerminalFront,
        shots: str | None = None,
        scale: int = 1,
        log: TextIO | None = None,
    ) -> None:
        self.fw = fw
        self.keys = keyfile
        self.front = front
        self.shots = shots
        self.scale = scale or 1
        self.log = log  # file for the firmware's log lines
        self.shot_count = 0
        self.texts: list[tuple[int, int, str]] = []  # [(y, x, string)] on the next frame's screen

    def run(self) -> str:
        """Until the front end is done ("done") or the firmware stops by itself ("crashed")."""
        self.front.started(self.fw.port)
        err_fd = self.fw.stderr_fd()
        while True:
            if not self.fw.running():
                self._firmware_lines()
                return "crashed"  # it never stops by itself: sim_main loops forever
            now = now_ms()
            due = self.front.tick(now)
            if self.front.finished(now):
                return "done"
            in_fd = self.front.input_fd()
            fds = [err_fd] + ([in_fd] if in_fd is not None else [])
            wait = POLL_S if due is None else max(0.0, min(POLL_S, (due - now) / 1000.0))
            ready, _, _ = select.select(fds, [], [], wait)
            changed = False
            if err_fd in ready:
                changed = self._firmware_lines()
            if in_fd is not None and in_fd in ready:
                if self.front.read(os.read(in_fd, 4096)) == "quit":
                    return "done"
                changed = True
            self.front.turn(changed)

    def _firmware_lines(self) -> bool:
        lines = self.fw.read_stderr()
        for line in lines:
            words = parse_line(line)
            if words[0] == "frame":
                self._frame(words[1], words[2])
                self.texts = []
            elif words[0] == "text":
                self.texts.append(words[1:])
            elif words[0] == "event":
                self.front.on_event(words[1])
            else:
                if self.log is not None:
                    self.log.write(line + "\n")
                    self.log.flush()
                self.front.on_log(line)
        return bool(lines)

    def _frame(self, n: int, kind: str) -> None:
        self.keys.firmware_up()  # the board is up: it is playing the key file
        try:
            frame = self.fw.read_frame()
        except (OSError, bitmap.BitmapError) as e:
            self.front.on_log("cannot read frame.pbm: %s" % e)
            return
        path = None
        if self.shots:
            self.shot_count += 1
            path = os.path.join(self.shots, "frame-%04d.png" % self.shot_count)
            bitmap.save_png(frame, path, self.scale)
        self.front.on_frame(n, kind, frame, path, screen_rows(self.texts))


ROW_PX = 6  # strings whose tops are this close are on one row
COL_PX = 6  # device pixels to a character of the rows


def screen_rows(texts: Iterable[tuple[int, int, str]]) -> list[str]:
    """The screen's strings [(y, x, string)] as lines of text, top to bottom, each string about
    where it stands across the screen (a character for COL_PX pixels), at least a space
    apart."""
    rows: list = []
    for y, x, s in sorted(texts):
        if rows and y - rows[-1][0] < ROW_PX:
            rows[-1][1].append((x, s))
        else:
            rows.append((y, [(x, s)]))
    out = []
    for _y, row in rows:
        line = ""
        for x, s in sorted(row):
            col = max(0, x // COL_PX)
            line += " " * (col - len(line)) if col > len(line) else (" " if line else "")
            line += s
        out.append(line.rstrip())
    return out


class ScriptFront:
    """--no-tty: commands from a stream (parse_script_line), output as lines.

    The commands go to the key file as the board gets near them (AHEAD_MS of its time ahead),
    not all at once: a long script costs the device's heap nothing."""

    AHEAD_MS = 2000

    def __init__(
        self,
        keyfile: KeyFile,
        stdin: TextIO,
        stdout: TextIO,
        stderr: TextIO,
        sim_dir: str,
    ) -> None:
        self.keys = keyfile
        self.in_fd = stdin.fileno()
        self.out = stdout
        self.err = stderr
        self.sim_dir = sim_dir
        self.buf = b""
        self.open = True  # False after EOF or "quit": nothing more is read
        self.todo: collections.deque = collections.deque()  # commands read and not written yet
        self.quitting = False  # "quit" reached: stop once the keys before it are played
        self.last_frame = 0.0  # when the last frame came (ms)

    def _say(self, text: str, stream: TextIO | None = None) -> None:
        stream = stream or self.out
        stream.write(text + "\n")
        stream.flush()

    def started(self, port: str) -> None:
        self._say("serial port: %s (knockbox sync --port %s)" % (port, port))
        self._say("sim dir: %s" % self.sim_dir)

    def input_fd(self) -> int | None:
        return self.in_fd if self.open else None

    def read(self, data: bytes) -> None:
        if not data:
            self.open = False
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        if not self.open:
            lines += [self.buf, b"quit"]  # a last line without its newline; the end is a quit
            self.buf = b""
        for raw in lines:
            try:
                cmd = parse_script_line(raw.decode("utf-8", "replace"))
            except ValueError as e:
                self._say("knockbox: %s" % e, self.err)
                continue
            if cmd is not None:
                self.todo.append(cmd)
                if cmd[0] == "quit":
                    self.open = False  # what follows "quit" is not read
                    break
        return None

    def tick(self, now: float) -> float | None:
        """Write the commands the board will soon get to; when to look again."""
        while self.todo and not self.quitting and self.keys.ahead(now) < self.AHEAD_MS:
            verb, name, ms = self.todo.popleft()
            if verb == "quit":
                self.quitting = True
            elif verb == "wait":
                self.keys.wait(ms, now)
            else:
                self.keys.press(name, ms, now)
        if self.todo and self.keys.done_at is not None:
            return self.keys.done_at - self.AHEAD_MS
        if self.quitting and self.keys.done_at is not None:
            return self.keys.done_at + QUIT_SETTLE_MS
        return None

    def finished(self, now: float) -> bool:
        # the keys are played, and the screen has been still for a moment (the last one's
        # refresh is out)
        return (
            self.quitting
            and self.keys.played(now - QUIT_SETTLE_MS)
            and now - self.last_frame >= QUIT_SETTLE_MS
        )

    def turn(self, changed: bool) -> None:
        pass

    def on_frame(
        self, n: int, kind: str, frame: Bitmap, path: str | None, rows: Sequence[str] = ()
    ) -> None:
        """The frame's line, then the screen's words, a line for each row: "  | Ann  Bob"."""
        self.last_frame = now_ms()
        self._say("frame %d %s%s" % (n, kind, (" " + path) if path else ""))
        for row in rows:
            self._say("  | " + visible(row))

    def on_log(self, line: str) -> None:
        self._say("firmware: %s" % line, self.err)

    def on_event(self, text: str) -> None:
        self._say(text)


class TerminalFront:
    """Keys typed in the terminal (TerminalKeys), the screen on a TerminalView."""

    def __init__(self, keyfile: KeyFile, view: TerminalView, in_fd: int, sim_dir: str) -> None:
        self.keys = TerminalKeys(keyfile)
        self.view = view
        self.in_fd = in_fd
        self.sim_dir = sim_dir

    def started(self, port: str) -> None:
        self.view.port = port
        self.view.info = "flash image: %s" % os.path.join(self.sim_dir, "flash.img")
        self.view.draw()

    def input_fd(self) -> int:
        return self.in_fd

    def read(self, data: bytes) -> str | None:
        buttons = []
        for key, hold in parse_tty_keys(data):
            if key == "quit":
                return "quit"
            if key == "redraw":
                self.view.resized = True
            else:
                buttons.append((key, hold))
        self.keys.typed(buttons)
        return None

    def tick(self, now: float) -> float | None:
        held = self.keys.held()
        due = self.keys.tick(now)
        if held != self.keys.held():
            self.turn(True)
        return due

    def finished(self, now: float) -> bool:
        return False

    def turn(self, changed: bool) -> None:
        if not (changed or self.view.resized):
            return
        held = self.keys.held()
        if held:
            self.view.status = "down: " + held
        elif self.view.status.startswith("down: "):
            self.view.status = ""
        self.view.draw()

    def on_frame(
        self, n: int, kind: str, frame: Bitmap, path: str | None, rows: Sequence[str] = ()
    ) -> None:
        self.view.frame = frame
        self.view.info = "refresh %d (%s)%s" % (n, kind, ("   saved " + path) if path else "")

    def on_log(self, line: str) -> None:
        self.view.status = "firmware: " + line

    def on_event(self, text: str) -> None:
        self.view.status = text + ("   (press a key to wake it)" if text == "power off" else "")
