"""Files the laptop tool writes for people (an export, a report, the book's pages): whole or not
at all, so an interrupted or failed write never leaves half a file where a good one was. And the
JSON files it reads: whole (read_json), or a list of records one at a time in bounded memory
(json_records: an import of years of games); a bad one is a UserError naming the file."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from typing import Any, TYPE_CHECKING, TextIO

from knockbox.usererror import UserError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from collections.abc import Iterable

CHUNK = 1 << 16  # characters read at a time
RECORD_MAX = 1 << 20  # characters of one record at most (a game of bounds.HANDS_MAX hands: ~50 k)
_BOM = "\ufeff"  # a byte order mark some editors put first in a UTF-8 file: not part of the JSON
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # a \u escape of half a UTF-16 pair


def write_whole(
    path: str, parts: Iterable[str] | Iterable[bytes], shown: str | None = None
) -> None:
    """Write the text or bytes pieces in parts to path through a temporary file in the same
    folder renamed over it (text as UTF-8, line ends as given). An OSError is a UserError naming
    shown (default: path), and the temporary file is removed."""
    path = os.path.abspath(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".knockbox-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            for part in parts:
                f.write(part.encode("utf-8") if isinstance(part, str) else part)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as e:  # (Ctrl-C too: no temporary file left behind)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        if not isinstance(e, OSError):
            raise
        raise UserError("%s: %s" % (shown or path, e.strerror or e)) from None


def read_json(path: str, stdin: TextIO | None = None) -> Any:
    """The JSON value in file path ("-": stdin), or a UserError that names the file and says
    what is wrong with it (cannot be read, not UTF-8, not JSON)."""
    try:
        if path == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise UserError("%s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise UserError("%s: not UTF-8 text" % path) from None
    try:
        return _text_only(json.loads(text.removeprefix(_BOM)), text, path)
    except json.JSONDecodeError as e:
        raise UserError("%s: not valid JSON (%s)" % (path, e)) from None
    except ValueError:  # (a number of more digits than Python converts)
        raise UserError("%s: not a game record (%s)" % (path, too_long())) from None
    except RecursionError:
        raise UserError("%s: nested too deeply to be a game record" % path) from None


def too_long() -> str:
    """What to say of JSON text holding an integer of more digits than Python converts (its
    decoder raises ValueError, not JSONDecodeError)."""
    return "a number of more than %d digits" % sys.get_int_max_str_digits()


def half_character(value: dict[str, Any], text: str) -> bool:
    """Whether a \\u escape in JSON text stands for half a character (a lone surrogate) in its
    decoded value: no text can hold it, and printing or storing it fails."""
    if _SURROGATE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return True
    return False


def _text_only(value: dict[str, Any], text: str, where: str) -> dict[str, Any]:
    """value, unless half_character(value, text): then UserError."""
    if half_character(value, text):
        raise UserError("%s: not text (a \\u escape of half a character)" % where)
    return value


def json_records(
    path: str, stdin: TextIO | None = None, where: list[int] | None = None
) -> Iterator[Any]:
    """(n, value) for each value of the JSON list in file path ("-": stdin), n = 1, 2, ..., read a
    piece at a time (memory: one record and a piece, whatever the file's size); a file that
    holds one value instead of a list gives (0, that value). where: a list whose first item is set to the number of
    characters read so far (progress). UserError naming the file (and the record) for a file
    that cannot be read, is not UTF-8 or not JSON, or a record too big or nested too deeply."""
    try:
        f = (stdin or sys.stdin) if path == "-" else open(path, encoding="utf-8")
    except OSError as e:
        raise UserError("%s: %s" % (path, e.strerror or e)) from None
    try:
        yield from _Records(f, path, where)
    except OSError as e:
        raise UserError("%s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise UserError("%s: not UTF-8 text" % path) from None
    finally:
        if path != "-":
            f.close()


_AFTER_VALUE = ",]} \t\r\n"


class _Records:
    """json_records' reader: a buffer of what was read and not yet decoded."""

    def __init__(self, f: TextIO, path: str, where: list[int] | None) -> None:
        self.f, self.path, self.where = f, path, where
        self.buf, self.pos, self.eof, self.read = "", 0, False, 0
        self.decoder = json.JSONDecoder()

    def _more(self) -> None:
        # at least as much again as is waiting: a long record is read in O(its length)
        piece = self.f.read(max(CHUNK, len(self.buf) - self.pos))
        self.buf, self.pos, self.eof = self.buf[self.pos :] + piece, 0, not piece
        if not self.read and self.buf.startswith(_BOM):  # (the file's first characters)
            self.pos = 1
        self.read += len(piece)
        if self.where is not None:
            self.where[0] = self.read

    def _next_char(self) -> str:
        """The next character that is not white space (not consumed), "" at the end."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf) or self.eof:
                return self.buf[self.pos : self.pos + 1]
            self._more()

    def _value(self, n: int) -> dict[str, Any]:
        self._next_char()
        while True:
            try:
                v, end = self.decoder.raw_decode(self.buf, self.pos)
                # (a number cut by the piece's end would be read short: what follows it tells)
                if self.eof or end < len(self.buf) and self.buf[end] in _AFTER_VALUE:
                    text, self.pos = self.buf[self.pos : end], end
                    return _text_only(v, text, "%s: record %d" % (self.path, n) if n else self.path)
            except json.JSONDecodeError as e:
                if self.eof:
                    raise UserError(
                        "%s: %snot valid JSON (%s)"
                        % (self.path, "record %d: " % n if n else "", e.msg)
                    ) from None
            except RecursionError:
                raise UserError(
                    "%s: %snested too deeply to be a game record"
                    % (self.path, "record %d: " % n if n else "")
                ) from None
            except ValueError:  # (a number of more digits than Python converts)
                raise UserError(
                    "%s: %snot a game record (%s)"
                    % (self.path, "record %d: " % n if n else "", too_long())
                ) from None
            if len(self.buf) - self.pos > RECORD_MAX:
                raise UserError(
                    "%s: record %d is over %d MB: not a game record"
                    % (self.path, n or 1, RECORD_MAX >> 20)
                )
            self._more()

    def __iter__(self) -> Iterator[Any]:
        c = self._next_char()
        if c != "[":
            yield 0, self._value(0)
            if self._next_char():
                raise UserError("%s: not valid JSON (more after the record)" % self.path)
            return
        self.pos += 1
        n = 0
        if self._next_char() == "]":
            self.pos += 1
        else:
            while True:
                n += 1
                yield n, self._value(n)
                c = self._next_char()
                self.pos += 1
                if c == "]":
                    break
                if c != ",":
                    raise UserError(
                        "%s: not valid JSON (after record %d: %s)"
                        % (self.path, n, "the file ends" if not c else "%r where , or ] goes" % c)
                    )
        if self._next_char():
            raise UserError("%s: not valid JSON (more after the list)" % self.path)
