"""The terminal view: the device's screen drawn with block characters, the key help, the serial
port and a status line, on the terminal's alternate screen with the terminal in cbreak mode."""

from __future__ import annotations

import io
import os
import shutil
import signal
from typing import Any, TYPE_CHECKING, TextIO

from knockbox import bitmap
from knockbox.textsafe import raw, visible

if TYPE_CHECKING:
    from knockbox.bitmap import Bitmap

HELP = "a b c: buttons A B C   A B C (Shift): long press   \u2191 \u2193 or k j: Up Down   q: quit"


class TerminalView:
    """Draws the screen, the key help and a status line; owns the terminal's mode.

    Entering cbreak mode keeps what was typed ahead (TCSANOW: the keys typed while the
    simulator starts are read, not flushed); leaving restores the terminal as it was."""

    def __init__(self, out: TextIO, fd: int) -> None:
        self.out = raw(out)  # the screen is drawn with escape sequences; its texts are visible()
        self.fd = fd
        self.frame: Bitmap | None = None
        self.info = ""
        self.status = ""
        self.port = ""
        self.saved: list[Any] | None = None
        self.resized = True

    def __enter__(self) -> TerminalView:
        import termios
        import tty

        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd, termios.TCSANOW)
        self.out.write("\x1b[?1049h\x1b[?25l")  # alternate screen, hide cursor
        self.out.flush()
        signal.signal(signal.SIGWINCH, self._winch)
        return self

    def __exit__(self, *exc: object) -> None:
        import termios

        signal.signal(signal.SIGWINCH, signal.SIG_DFL)
        self.out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        self.out.flush()
        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)

    def _winch(self, *_: object) -> None:
        self.resized = True

    def _size(self) -> tuple[int, int]:
        try:  # the terminal itself (COLUMNS/LINES in the environment may be stale)
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            size = shutil.get_terminal_size((80, 24))
        return size.columns, size.lines

    def _picture(self, cols: int, rows: int) -> tuple[list[str], int, int]:
        """The panel as text lines, and its width in cells."""
        w, h = (self.frame.width, self.frame.height) if self.frame else (296, 128)
        mode = bitmap.pick_mode(cols, rows, w, h, extra_cols=2, extra_rows=5)
        pw, ph = bitmap.cells(mode, w, h)
        if self.frame is not None:
            return bitmap.to_text(self.frame, mode), pw, ph
        body = [" " * pw for _ in range(ph)]
        body[ph // 2] = "starting the firmware...".center(pw)[:pw]
        return body, pw, ph

    def draw(self) -> None:
        cols, rows = self._size()
        body, pw, ph = self._picture(cols, rows)
        vw = min(pw, max(cols - 2, 1))  # picture columns that fit (cropped on the right)
        lines = []
        if pw + 2 > cols or ph + 5 > rows:
            lines.append(("terminal too small: make it at least %dx%d" % (pw + 2, ph + 6))[:cols])
        lines.append("\u250c" + "\u2500" * vw + "\u2510")
        for row in body:  # e-ink: black ink on white paper, whatever the terminal's colours
            lines.append("\u2502\x1b[30;107m" + row[:vw] + "\x1b[0m\u2502")
        lines.append("\u2514" + "\u2500" * vw + "\u2518")
        lines.append(HELP[:cols])
        port = "serial port: %s   (knockbox sync --port %s)" % (self.port, self.port)
        lines += [visible(t)[:cols] for t in (port, self.info, self.status)]
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
