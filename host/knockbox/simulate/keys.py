"""Key plans: what the front end writes to the simulated board's key file, and how script lines
and terminal keys become those lines.

The key protocol (front end -> firmware; the channel: knockbox/simulate/__init__.py). The
front end empties SIM_DIR/keys before the firmware starts and only appends to it; the board reads
the lines in order from the start of the file and plays them in the FIRMWARE's own time, so a
press lasts its length for the firmware however late either process runs:

    press NAME MS   NAME down, then up MS ms later; the next line starts GAP_MS after the release
    down NAME       NAME down now (after what is queued before it): a hold of unknown length
    up NAME         NAME up
    wait MS         the next line starts MS ms later

NAME is one of BUTTONS.
"""

from __future__ import annotations

import re
import time
from typing import Any

BUTTONS = ("a", "b", "c", "up", "down")
REPEATERS = ("up", "down")  # a terminal key the terminal keeps repeating holds these down
TAP_MS = 120  # a key press: the button is down this long
LONG_MS = 800  # Shift / capital letter: a long press (the firmware's long is 600 ms)
GAP_MS = 100  # the board starts the line after a press this long after its release
MAX_MS = 600000  # longest hold or wait a script may ask for


def now_ms() -> float:
    return time.monotonic() * 1000.0


class KeyFile:
    """The front end's half of the key protocol: appends lines to the key file.

    It also keeps a model of when the board will have played everything written so far
    (`done_at`, wall-clock ms): the board's queue starts when it comes up (`firmware_up`, at the
    first frame) and a line written while the queue is idle starts when it is written.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines = 0  # lines written
        # when the board will have played them all (None: not up yet)
        self.done_at: float | None = None
        self._queued_ms = 0.0  # length of what was written before the board came up
        self.held: set[str] = set()  # buttons written down and not up yet
        with open(path, "w"):
            pass  # start empty: the board reads from the start, old lines must not replay

    def press(self, name: str, ms: int = TAP_MS, at: float | None = None) -> None:
        self._write("press %s %d" % (_button(name), _ms(ms)), ms + GAP_MS, at)

    def down(self, name: str, at: float | None = None) -> None:
        self._write("down %s" % _button(name), 0, at)
        self.held.add(name)

    def up(self, name: str, at: float | None = None) -> None:
        self._write("up %s" % _button(name), GAP_MS, at)
        self.held.discard(name)

    def wait(self, ms: int, at: float | None = None) -> None:
        self._write("wait %d" % _ms(ms), ms, at)

    def firmware_up(self, at: float | None = None) -> None:
        """The board is running (its first frame): the queue written so far starts about now."""
        if self.done_at is None:
            self.done_at = (now_ms() if at is None else at) + self._queued_ms

    def ahead(self, at: float | None = None) -> float | int:
        """How much of the board's time (ms) the lines written so far still take from now."""
        if self.done_at is None:
            return self._queued_ms
        return max(0.0, self.done_at - (now_ms() if at is None else at))

    def played(self, at: float | None = None) -> bool:
        """True once the board should have played every line written (by the model above)."""
        if self.done_at is None:
            return False
        return (now_ms() if at is None else at) >= self.done_at

    def _write(self, line: str, length_ms: float, at: float | None) -> None:
        with open(self.path, "a") as f:
            f.write(line + "\n")
        self.lines += 1
        if self.done_at is None:
            self._queued_ms += length_ms
        else:
            now = now_ms() if at is None else at
            self.done_at = max(self.done_at, now) + length_ms


def _button(name: str) -> str:
    if name not in BUTTONS:
        raise ValueError("unknown button %r" % (name,))
    return name


def _ms(v: int) -> int:
    if not isinstance(v, int) or v < 0 or v > MAX_MS:
        raise ValueError("milliseconds out of range: %r" % (v,))
    return v


# ---- scripts (--no-tty): one command a line ---------------------------------------------------


def parse_script_line(line: str) -> tuple[str, str, int] | tuple[str, None, int] | None:
    """A headless command: "a" (press), "A" or "a long" (long press), "up", "down",
    "NAME hold MS", "wait MS", "quit". Returns (verb, name, ms) with verb "press", "wait" or
    "quit", None for a blank line or a comment; raises ValueError for anything else."""
    words = line.split()
    if not words or words[0].startswith("#"):
        return None
    w = words[0]
    if w.lower() in ("q", "quit", "exit"):
        return ("quit", None, 0)
    if w.lower() == "wait":
        return ("wait", None, _script_ms(words, 1))
    name = {"k": "up", "j": "down"}.get(w.lower(), w.lower())
    if name not in BUTTONS:
        raise ValueError("unknown key %r (a b c up down, capital or 'long' = long press)" % w)
    hold = LONG_MS if (len(w) == 1 and w.isupper()) else TAP_MS
    if len(words) > 1:
        if words[1] == "long":
            hold = LONG_MS
        elif words[1] == "hold":
            hold = _script_ms(words, 2)
        else:
            raise ValueError("say '%s', '%s long' or '%s hold MS'" % (name, name, name))
    return ("press", name, hold)


def _script_ms(words: list[str], i: int) -> int:
    try:
        v = int(words[i])
    except (IndexError, ValueError):
        raise ValueError("expected a number of milliseconds") from None
    if v < 0 or v > MAX_MS:
        raise ValueError("milliseconds out of range")
    return v


# ---- the terminal: bytes -> keys --------------------------------------------------------------

# Terminal keys -> (button, hold_ms); special values "quit", "redraw".
_TTY_KEYS = {
    b"a": ("a", TAP_MS),
    b"b": ("b", TAP_MS),
    b"c": ("c", TAP_MS),
    b"A": ("a", LONG_MS),
    b"B": ("b", LONG_MS),
    b"C": ("c", LONG_MS),
    b"k": ("up", TAP_MS),
    b"j": ("down", TAP_MS),
    b"K": ("up", LONG_MS),  # a capital: Up or Down held (+5 / -5 on the counts screen)
    b"J": ("down", LONG_MS),
    b"q": ("quit", 0),
    b"Q": ("quit", 0),
    b"\x03": ("quit", 0),
    b"\x04": ("quit", 0),
    b"\x0c": ("redraw", 0),
}
_ESC_KEYS = {b"A": "up", b"B": "down"}  # ESC [ A / ESC O A, also ESC [ 1 ; 2 A (Shift)
_ESC_RE = re.compile(rb"\x1b[\[O][0-9;]*([A-Za-z~])")


def parse_tty_keys(data: bytes) -> list[Any | tuple[str, int]]:
    """Bytes read from the terminal -> list of (button or "quit"/"redraw", hold_ms)."""
    out = []
    i = 0
    while i < len(data):
        ch = data[i : i + 1]
        if ch == b"\x1b":
            m = _ESC_RE.match(data, i)
            if m:
                key = _ESC_KEYS.get(m.group(1))
                if key:
                    out.append((key, TAP_MS))
                i = m.end()
            else:
                i += 1
            continue
        if ch in _TTY_KEYS:
            out.append(_TTY_KEYS[ch])
        i += 1
    return out


REPEAT_MS = 100  # the same arrow again sooner than this (in a later read): the terminal repeats it
RELEASE_MS = 200  # a held arrow whose repeats stopped this long ago was let go


class TerminalKeys:
    """Keys typed in a terminal, in the order typed, as key-file lines.

    A letter is a press (a capital one a long press), every one of them, typed ahead or not.
    An arrow (or k/j) waits REPEAT_MS to be told apart from a held key: if the same arrow comes
    again within that time, in a later read of the terminal, the terminal is repeating a held
    key, and the button goes `down` until the repeats stop for RELEASE_MS (`up`); otherwise it
    is a press. Arrows that arrive together in one read were typed ahead: each is a press.
    Any other key ends a waiting or held arrow first, so the lines keep the typing order.
    """

    def __init__(self, keyfile: KeyFile) -> None:
        self.keys = keyfile
        # (arrow, arrival ms, read number): a press or the start of a hold
        self.waiting: tuple[str, float, int] | None = None
        self.holding: list[Any] | None = None  # [arrow, last repeat ms]
        self._reads = 0

    def typed(self, keys: list[tuple[str, int]], now: float | None = None) -> None:
        """One read's keys: [(button, hold_ms)] as parse_tty_keys gives them (no quit/redraw)."""
        now = now_ms() if now is None else now
        self._reads += 1
        for name, hold in keys:
            if name in REPEATERS:
                self._arrow(name, now)
            else:
                self._settle(now, force=True)
                self.keys.press(name, hold, now)

    def _arrow(self, name: str, now: float) -> None:
        if self.holding and self.holding[0] == name:
            self.holding[1] = now
            return
        w = self.waiting
        if w and w[0] == name and w[2] != self._reads and now - w[1] < REPEAT_MS:
            self.waiting = None
            self.keys.down(name, now)
            self.holding = [name, now]
            return
        self._settle(now, force=True)
        self.waiting = (name, now, self._reads)

    def _settle(self, now: float, force: bool = False) -> None:
        if self.waiting and (force or now - self.waiting[1] >= REPEAT_MS):
            self.keys.press(self.waiting[0], TAP_MS, now)
            self.waiting = None
        if self.holding and (force or now - self.holding[1] >= RELEASE_MS):
            self.keys.up(self.holding[0], now)
            self.holding = None

    def tick(self, now: float | None = None) -> float | None:
        """Write what is due by now; return when to look again (ms), or None."""
        now = now_ms() if now is None else now
        self._settle(now)
        due: list[float] = []
        if self.waiting:
            due.append(self.waiting[1] + REPEAT_MS)
        if self.holding:
            due.append(self.holding[1] + RELEASE_MS)
        return min(due) if due else None

    def held(self) -> str | None:
        """The button held down now, or None."""
        return self.holding[0] if self.holding else None
