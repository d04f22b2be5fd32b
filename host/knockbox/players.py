"""Players' names as the history keeps them: trimmed, in one Unicode form (NFC: "José" typed
with one code point or with a combining accent is one name), at most NAME_MAX characters (the
device's roster limit), and names that differ only in case pointed out to the user, with the
command that makes them one player (`knockbox player rename OLD NEW --merge`). Renames and merges
are the history's (knockbox.history_players)."""

import unicodedata

from knockbox.textsafe import visible
from knockcore.proto import NAME_MAX


def clean(name):
    """A name as the history keeps it: trimmed and NFC (non-strings as they are)."""
    if not isinstance(name, str):
        return name
    return unicodedata.normalize("NFC", name.strip())


def check(name, what="name"):
    """A name typed or imported, cleaned; ValueError if it is empty, too long or not text."""
    if not isinstance(name, str) or not clean(name):
        raise ValueError("%s: a player's name must be a non-empty text" % what)
    name = text(clean(name), what)
    if len(name) > NAME_MAX:
        raise ValueError(
            "%s %r is %d characters: the device allows %d"
            % (what, shown(name), len(name), NAME_MAX)
        )
    return name


def text(name, what="name"):
    """name, or ValueError if no text can hold it: bytes of a command line that are not UTF-8
    reach Python as lone surrogates ("\\udcff"), which neither SQLite nor the terminal takes."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("%s %r is not UTF-8 text" % (what, shown(name))) from None
    return name


def shown(name, width=40):
    """A name cut short for a message (a name that is too long may be very long)."""
    return name if len(name) <= width else name[: width - 3] + "..."


def case_twins(new, known):
    """[(name, other)]: each name of new that differs only in case from another name of known
    (both iterables of names; the pair once, whichever way round it is met), sorted."""
    by_fold: dict[str, set[str]] = {}
    for n in known:
        by_fold.setdefault(n.casefold(), set()).add(n)
    pairs: dict[frozenset[str], tuple[str, str]] = {}
    for n in sorted(set(new)):
        for other in sorted(by_fold.get(n.casefold(), ())):
            if other != n:
                pairs.setdefault(frozenset((n, other)), (n, other))
    return sorted(pairs.values())


def twin_lines(pairs):
    """The lines that point out names differing only in case and say how to make them one."""
    return [
        "%r and %r differ only in case, so they are two players; if they are one: "
        "`knockbox player rename %s %s --merge`" % (a, b, visible(arg(a)), visible(arg(b)))
        for a, b in pairs
    ]


def arg(name):
    """A name as typed in a shell command (quoted if it needs it)."""
    import shlex

    return shlex.quote(name)
