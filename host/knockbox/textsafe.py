"""Text from outside (players' names, a file's contents, what a device or a board says, a lock
file's holder) made safe where it is shown, so that it can neither drive the terminal nor turn
the text around it:

  visible(s)     control characters (C0, DEL, C1: ESC and its sequences, BEL, CR, ...), the
                 bidirectional controls (LRM, RLM, ALM, LRE...RLO, LRI...PDI) and the line and
                 paragraph separators written as visible escapes: "\\x1b", "\\u202e" (for a
                 terminal, and for a chart, whose fonts draw no control character)
  Output(stream) what the `knockbox` command writes on stdout and stderr (knockbox.cli wraps
                 both): every write goes through visible(), but for its line breaks, so that no
                 message can forget it. Output.raw is the stream itself, for the few writers
                 that drive the terminal on purpose: the progress line's carriage return
                 (knockbox.progress) and the simulator's screen (knockbox.simulate.view)
  json_safe(t)   JSON text (json.dumps with ensure_ascii=False) whose unsafe characters are
                 written as JSON's own escapes ("\\u0085"): the same data to a JSON reader, and
                 nothing for Output to escape (json.dumps already escapes C0 controls in strings;
                 what is left can only stand inside a string; its line breaks are its own)

The pages' side of it is in knockbox.templating (a name in a <bdi>) and the CSV's in
knockbox.commands.export.
"""

from __future__ import annotations

import re
from typing import Any, TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from collections.abc import Iterable

_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
UNSAFE = re.compile("[\x00-\x1f%s]" % _OTHERS)
_BUT_LINES = re.compile("[\x00-\x09\x0b-\x1f%s]" % _OTHERS)  # what Output escapes
_IN_JSON = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f%s]" % _OTHERS)  # not JSON's white space


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def visible(s: str) -> str:
    """s with its unsafe characters (UNSAFE) written as visible escapes."""
    return UNSAFE.sub(_escape, s)


def json_safe(text: str) -> str:
    """JSON text with its unsafe characters as JSON escapes (\\u0085): the same values."""
    return _IN_JSON.sub(lambda m: "\\u%04x" % ord(m.group()), text)


class Output:
    """A text stream that writes every unsafe character but the line break as a visible escape
    (visible()); everything else (flush, isatty, fileno, encoding...) is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, s: str) -> int:
        return self.raw.write(_BUT_LINES.sub(_escape, s))

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def raw(stream: TextIO) -> TextIO:
    """The stream under an Output (the stream itself otherwise): for the writers that drive the
    terminal on purpose."""
    return getattr(stream, "raw", stream) if isinstance(stream, Output) else stream
