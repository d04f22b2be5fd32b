# A hand record, validated against the seats in play and packed into one small int, so that a
# 300-hand game costs about a kilobyte of RAM on the Pico.
#   bits 0-1 kind (knock, gin, void), 2-3 seat, then 7 bits per seat's count (127 = none).
from micropython import const
from knockcore.errors import GameError

KNOCK = const(0)
GIN = const(1)
VOID = const(2)
NAMES = ("knock", "gin", "void")
_NONE = const(127)
_MAX_COUNT = const(98)
_HAND_KEYS = ("knock", "gin", "void", "counts", "meta")


def pack(kind, seat, counts):
    v = kind | (seat << 2)
    for i in range(3):
        c = counts[i]
        v |= (_NONE if c is None else c) << (4 + 7 * i)
    return v


def kind(v):
    return v & 3


def seat(v):
    return (v >> 2) & 3


def counts(v):
    out = []
    for i in range(3):
        c = (v >> (4 + 7 * i)) & 127
        out.append(None if c == _NONE else c)
    return out


def to_dict(v):
    k = kind(v)
    if k == VOID:
        return {"void": True}
    return {NAMES[k]: seat(v), "counts": counts(v)}


def parse(h, n, active, players, knock_limit):
    """Check hand number n (1-based) against the seats in play; return it packed."""
    where = "hand %d: " % n
    if not isinstance(h, dict):
        raise GameError(where + "must be an object")
    for key in h:
        if key not in _HAND_KEYS:
            raise GameError(where + "unknown field %r" % (key,))
    found = [k for k in NAMES if k in h]
    if len(found) != 1:
        raise GameError(where + "needs exactly one of knock, gin, void")
    name = found[0]
    if name == "void":
        if h["void"] is not True:
            raise GameError(where + "void must be true")
        if "counts" in h:
            raise GameError(where + "a void hand has no counts")
        return pack(VOID, 0, (None, None, None))
    s = h[name]
    if type(s) is not int or s < 0 or s > 2:
        raise GameError(where + "%s: seat must be 0, 1 or 2" % name)
    if s not in active:
        raise GameError(where + "%s: %s is sitting out" % (name, players[s]))
    cs = h.get("counts")
    if not isinstance(cs, list) or len(cs) != 3:
        raise GameError(where + "counts: need one entry per seat (3)")
    for i in range(3):
        c = cs[i]
        if i not in active:
            if c is not None:
                raise GameError(where + "counts[%d]: %s is sitting out, use null" % (i, players[i]))
        elif c is None:
            raise GameError(where + "counts[%d]: missing count for %s" % (i, players[i]))
        elif type(c) is not int or c < 0 or c > _MAX_COUNT:
            raise GameError(where + "counts[%d]: %r is not a count 0..98" % (i, c))
    if name == "gin" and cs[s] != 0:
        raise GameError(where + "gin: %s's count must be 0, not %d" % (players[s], cs[s]))
    if name == "knock" and cs[s] > knock_limit:
        raise GameError(where + "knock: %s's count %d is above the knock limit %d"
                        % (players[s], cs[s], knock_limit))
    return pack(GIN if name == "gin" else KNOCK, s, cs)
