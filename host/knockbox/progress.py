"""How far a long piece of work is (`book`, `import`, `sync`), on a terminal: one line on stderr
("book: evening pages 120 of 2000", "importing: 1200 games (35%)"), written again in place at
most every INTERVAL seconds (and at once when a new part begins, and at a part's end) and cleared
when the work is done, so that the lines printed after it stand alone. Nothing is written when the
stream is not a terminal (a pipe, a file, a test's StringIO): the output of a script stays as it
was.
The line is rewritten with a carriage return and spaces (no escape sequence: every terminal, the
Windows console too), written past knockbox.textsafe.Output (its text through visible()).

    progress = Progress(sys.stderr, "book")
    progress("evening pages", done, total)      # as often as you like
    progress.show("1200 games (35%)")           # or any line of one's own
    progress.end()
"""

from __future__ import annotations

import time
from typing import TextIO

from knockbox.textsafe import raw, visible

INTERVAL = 0.2


def _tty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    def __init__(self, stream: TextIO | None, what: str) -> None:
        self.stream = raw(stream) if stream is not None and _tty(stream) else None
        self.what, self.last, self.part = what, 0.0, ""
        self.width = 0  # of the line on the terminal (0: none)

    def __call__(self, part: str, done: int, total: int) -> None:
        self.show("%s %d of %d" % (part, done, total), done >= total or part != self.part)
        self.part = part

    def show(self, text: str, now: bool = False) -> None:
        """The line "what: text", unless one was written less than INTERVAL ago (now: at once)."""
        if self.stream is None:
            return
        t = time.monotonic()
        if not now and t - self.last < INTERVAL:
            return
        self.last = t
        self._show("%s: %s" % (self.what, text))

    def end(self) -> None:
        """Clear the line (if one was written)."""
        if self.width:
            self._show("")
            self._show("")  # (width 0 now: back to the line's start)

    def _show(self, line: str) -> None:
        if self.stream is not None:
            self.stream.write("\r" + visible(line).ljust(self.width))
            self.stream.flush()
            self.width = len(line)
