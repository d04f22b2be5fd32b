# A hand record, validated against the seats in play and packed into one small int, so that a
# 300-hand game costs about a kilobyte of RAM on the Pico.
#   bits 0-1 kind (knock, gin, void), 2-3 seat, then 7 bits per seat's count (127 = none).
from micropython import const
from knockcore.errors import GameError

# Names for the core's annotations (knockcore.methodN take the fold's state), seen by mypy only
# (pyproject's always_true): the device compiles the block away (a const 0) and ignores
# annotations, so they cost it no byte (the other modules reach State through hand).
_TYPING = const(0)
if _TYPING:
    from typing import Any  # noqa: F401  (hand.Any, hand.State: the other modules' annotations)

    from knockcore.game import _State as State  # noqa: F401

KNOCK = const(0)
GIN = const(1)
VOID = const(2)
NAMES = ("knock", "gin", "void")
_NONE = const(127)
MAX_COUNT = const(98)  # the highest count a hand may give a player (public: the UI steps up to it)
_HAND_KEYS = ("knock", "gin", "void", "counts", "meta")


def pack(kind: int, seat: int, counts: "list[int | None] | tuple[int | None, ...]") -> int:
    v = kind | (seat << 2)
    for i in range(3):
        c = counts[i]
        v |= (_NONE if c is None else c) << (4 + 7 * i)
    return v


def kind(v: int) -> int:
    return v & 3


def seat(v: int) -> int:
    return (v >> 2) & 3


def counts(v: int) -> "list[int | None]":
    a, b, c = (v >> 4) & 127, (v >> 11) & 127, (v >> 18) & 127
    return [None if a == _NONE else a, None if b == _NONE else b, None if c == _NONE else c]


def to_dict(v: int) -> dict:
    k = kind(v)
    if k == VOID:
        return {"void": True}
    return {NAMES[k]: seat(v), "counts": counts(v)}


def parse(h: object, n: int, active: list[int], players: list[str], knock_limit: int) -> int:
    """Check hand number n (1-based) against the seats in play; return it packed."""
    if not isinstance(h, dict):
        raise GameError("must be an object", hand=n)
    for key in h:
        if key not in _HAND_KEYS:
            raise GameError("unknown field %r", key, hand=n)
    name = None
    for k in NAMES:
        if k in h:
            if name is not None:
                name = ""
                break
            name = k
    if not name:
        raise GameError("needs exactly one of knock, gin, void", hand=n)
    if name == "void":
        if h["void"] is not True:
            raise GameError("void must be true", hand=n)
        if "counts" in h:
            raise GameError("a void hand has no counts", hand=n)
        return pack(VOID, 0, (None, None, None))
    s = h[name]
    if type(s) is not int or s < 0 or s > 2:
        raise GameError("%s: seat must be 0, 1 or 2", name, hand=n)
    if s not in active:
        raise GameError("%s: %s is sitting out", name, players[s], hand=n)
    cs = h.get("counts")
    if not isinstance(cs, list) or len(cs) != 3:
        raise GameError("counts: need one entry per seat (3)", hand=n)
    for i in range(3):
        c = cs[i]
        if i not in active:
            if c is not None:
                raise GameError("counts[%d]: %s is sitting out, use null", i, players[i], hand=n)
        elif c is None:
            raise GameError("counts[%d]: missing count for %s", i, players[i], hand=n)
        elif type(c) is not int or c < 0 or c > MAX_COUNT:
            raise GameError("counts[%d]: %r is not a count 0..98", i, c, hand=n)
    if name == "gin" and cs[s] != 0:
        raise GameError("gin: %s's count must be 0, not %d", players[s], cs[s], hand=n)
    if name == "knock" and cs[s] > knock_limit:
        raise GameError(
            "knock: %s's count %d is above the knock limit %d",
            players[s],
            cs[s],
            knock_limit,
            hand=n,
        )
    # A knock at 0 is gin: no deadwood is gin by definition (docs/RULES.md), so it is scored and
    # kept as gin (it cannot be tied or undercut) and reads back as {"gin": seat}.
    return pack(GIN if name == "gin" or cs[s] == 0 else KNOCK, s, cs)
