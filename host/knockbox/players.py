"""What a player's name is: one name, one look, on the device and in the history.

A name is kept in one Unicode form (NFC: "Ёжик" typed with one code point or with a combining
diaeresis is one name), without the characters nobody sees (soft hyphen, zero-width space and
joiner, byte order mark, bidirectional controls, variation selectors: removed), trimmed, with
single spaces, of 1 to NAME_MAX characters (the device's roster limit), and of the characters the
device can draw: those both faces it writes names in have (knockfw.fonts, medium and small: the
ASCII printable characters, the Russian letters and a few signs). So the device shows every name
as the history holds it, and two names that print alike are one name, or pointed out.

  clean(name)          the name as compared and looked up (NFC, invisibles removed, trimmed)
  check(name, what)    a name typed (push --roster, player rename NEW) or in a file (import),
                       cleaned; ValueError, one line naming the character, if the device could
                       not show it, it is empty or too long
  from_device(names)   a device game's three names as the history stores them (sync): cleaned,
                       what the device cannot draw folded (é -> e) or "?", held to NAME_MAX, an
                       empty one "Seat B", two seats of one name told apart ("Ann", "Ann 2"): so
                       a synced game always exports as a record `knockbox import` takes back
  twins(new, known)    the pairs of names that differ only in case or look alike (Latin "Ann",
                       Cyrillic "Аnn": Unicode TR39's skeleton over knockbox.confusables), for
                       the notes twin_lines() writes: sync, import, player rename and push say so

Renames and merges are the history's (knockbox.history.players).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, TYPE_CHECKING

from knockbox.confusables import PROTOTYPES
from knockbox.textsafe import visible
from knockfw.settings import NAME_MAX

if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable

SEATS = "ABC"  # a seat's button, for a name the device left empty ("Seat B")
_LONG = 8 * NAME_MAX  # of a device's name, what is looked at (the rest cannot be kept)
# Invisible characters that are not of category Cf (format): combining grapheme joiner, Hangul
# fillers, Mongolian variation selectors, variation selectors (Unicode's default ignorables)
_IGNORED = re.compile(
    "[\u034f\u115f\u1160\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
_SPACES = re.compile(" {2,}")
_drawable: set = set()
_plain: list = []  # a name kept as it is: drawable characters, single spaces inside (a regex)


def drawable() -> set[str]:
    """The characters the device draws names with: those of both faces of knockfw.fonts that
    names are written in (medium and small), read from their tables of code points."""
    if not _drawable:
        from knockfw import fonts

        _drawable.update(_face(fonts.medium) & _face(fonts.small))
        word = "[%s]+" % "".join(re.escape(c) for c in sorted(_drawable - {" "}))
        _plain.append(re.compile("%s(?: %s)*" % (word, word)))
    return _drawable


def plain(name: str) -> bool:
    """Whether name is a name as the history keeps it already (the common case, made quick: a
    sync or an import looks at every name of every game)."""
    drawable()
    return len(name) <= NAME_MAX and _plain[0].fullmatch(name) is not None


def _face(font: bytes) -> set[str]:
    """The characters a face has (knockfw/text.py: runs of (first code point, count) from byte 6
    to a count of 0)."""
    out: set[str] = set()
    r = 6
    while font[r + 2]:
        first = font[r] | font[r + 1] << 8
        out.update(chr(first + i) for i in range(font[r + 2]))
        r += 3
    return out


def clean(name: str) -> str:
    """A name as the history compares it: NFC, without invisible characters, trimmed, single
    spaces (non-strings as they are)."""
    if not isinstance(name, str):
        return name
    name = _IGNORED.sub("", name)
    name = "".join(c for c in name if unicodedata.category(c) != "Cf")
    return _SPACES.sub(" ", unicodedata.normalize("NFC", name).strip())


def check(name: str, what: str = "name") -> str:
    """A name typed or imported, cleaned; ValueError (one line) if it is not text, empty, too
    long, or has a character the device cannot draw."""
    if isinstance(name, str) and plain(name):
        return name
    if not isinstance(name, str) or not clean(name):
        raise ValueError("%s: a player's name must be a non-empty text" % what)
    name = text(clean(name), what)
    have = drawable()
    bad = next((c for c in name if c not in have), None)
    if bad is not None:
        raise ValueError(
            "%s %r has %s, which the device cannot draw" % (what, shown(name), character(bad))
        )
    if len(name) > NAME_MAX:
        raise ValueError(
            "%s %r is %d characters: the device allows %d"
            % (what, shown(name), len(name), NAME_MAX)
        )
    return name


_CONTROLS = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x00": "a NUL"}


def character(c: str) -> str:
    """A character for a message: "'é' (U+00E9 LATIN SMALL LETTER E WITH ACUTE)", "a tab"; a
    control or a mark alone by its code and name only."""
    if c in _CONTROLS:
        return _CONTROLS[c]
    name = unicodedata.name(c, "")
    what = "U+%04X%s" % (ord(c), " " + name if name else "")
    cat = unicodedata.category(c)
    if cat[0] in "CZ" and c != " ":
        return "the control character " + what if cat == "Cc" else what
    if cat[0] == "M":
        return "the combining mark " + what
    return "%r (%s)" % (c, what)


def text(name: str, what: str = "name") -> str:
    """name, or ValueError if no text can hold it: bytes of a command line that are not UTF-8
    reach Python as lone surrogates ("\\udcff"), which neither SQLite nor the terminal takes."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("%s %r is not UTF-8 text" % (what, shown(name))) from None
    return name


def shown(name: str, width: int = 40) -> str:
    """A name cut short for a message (a name that is too long may be very long)."""
    return name if len(name) <= width else name[: width - 3] + "..."


def from_device(names: list[str]) -> list[str]:
    """A device game's names (a list of strings) as the history stores them: each drawn(),
    an empty one "Seat A/B/C", and a name an earlier seat has already told apart by a number
    ("Ann", "Ann 2": the rules core wants three names, and "Ann" and "Ann " were two players
    on the device)."""
    out = [drawn(n) or "Seat " + SEATS[i % 3] for i, n in enumerate(names)]
    if len(set(out)) == len(out):
        return out
    taken, used = set(out), set()
    for i, n in enumerate(out):
        k = 1
        while out[i] in used or (k > 1 and out[i] in taken):
            k += 1
            tail = " %d" % k
            out[i] = n[: NAME_MAX - len(tail)].rstrip() + tail
        used.add(out[i])
    return out


def drawn(name: str) -> str:
    """One device name as the device can draw it: clean(), a character the device lacks folded
    to what it has (é -> e, a no-break space -> a space, a tab -> a space) or "?", a mark on
    such a character left out; NAME_MAX characters at most; may be ""."""
    if plain(name):
        return name
    have = drawable()
    out = []
    for c in clean(name[:_LONG]):
        if c in have:
            out.append(c)
        elif c.isspace():
            out.append(" ")
        elif not unicodedata.combining(c):
            base = "".join(
                x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x)
            )
            out.append(base if base and all(x in have for x in base) else "?")
    return _SPACES.sub(" ", "".join(out)).strip()[:NAME_MAX].rstrip()


def look(name: str) -> str:
    """What a name looks like: its TR39 skeleton (NFD, each character as its prototype in
    knockbox.confusables, NFD again), case folded: "Аnn" (Cyrillic A) and "ann" look like
    "Ann"."""
    nfd = unicodedata.normalize("NFD", name)
    skeleton = unicodedata.normalize("NFD", "".join(PROTOTYPES.get(c, c) for c in nfd))
    return skeleton.casefold()


def twins(new: Iterable[str], known: Iterable[str]) -> list[tuple[str, str]]:
    """[(name, other)]: each name of new that differs only in case from another name of known,
    or looks like it (look()); both iterables of names; each pair once, whichever way round it
    is met; sorted."""
    by_look: dict[str, set[str]] = {}
    for n in known:
        by_look.setdefault(look(n), set()).add(n)
    pairs: dict[frozenset[str], tuple[str, str]] = {}
    for n in sorted(set(new)):
        for other in sorted(by_look.get(look(n), ())):
            if other != n:
                pairs.setdefault(frozenset((n, other)), (n, other))
    return sorted(pairs.values())


def twin_lines(pairs: list[Any], fix: Callable | None = None) -> list[Any]:
    """The lines that point out names that differ only in case or look alike; fix(a, b): what
    makes them one (default: the `knockbox player rename a b --merge` that does)."""
    fix = fix or (
        lambda a, b: "`knockbox player rename %s %s --merge`" % (visible(arg(a)), visible(arg(b)))
    )
    return [
        "%r and %r %s, so they are two players; if they are one: %s"
        % (a, b, _alike(a, b), fix(a, b))
        for a, b in pairs
    ]


def _alike(a: str, b: str) -> str:
    if a.casefold() == b.casefold():
        return "differ only in case"
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    x, y = a[i : i + 1], b[i : i + 1]
    if x and y:
        return "look alike but are spelled with other letters (%s in one, %s in the other)" % (
            character(x),
            character(y),
        )
    return "look alike but are spelled with other letters"


def arg(name: str) -> str:
    """A name as typed in a shell command (quoted if it needs it)."""
    import shlex

    return shlex.quote(name)
