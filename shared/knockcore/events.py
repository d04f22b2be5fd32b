# Game events: how a game is kept as it happens, one change at a time. The device journals them
# (firmware knockfw/store.py) and the laptop replays the same events after a sync
# (host knockbox/history/__init__.py); both go through apply(), so an event means one thing everywhere.
#
#   {"t":"game","g":gid,"rec":REC}       a new game; REC = a game record without "hands"
#   {"t":"hand","g":gid,"h":HAND}        a confirmed hand (HAND as in a game record's "hands")
#   {"t":"undo","g":gid}                 drop the game's last hand
#   {"t":"edit","g":gid,"i":i,"h":HAND}  replace hand i (0-based)
#   {"t":"end","g":gid}                  close an unfinished game: it takes no more input
#
# Events that are not about one game have no "g"; game_of() tells them apart. The device's
# store writes two ({"t":"epoch",...} heads every journal), and one means the same everywhere:
#   {"t":"evening","next":G}             the player started a new evening: its games are those
#                                        from game G on; evening(G) makes it, evening_next reads it
from knockcore.errors import GameError
from knockcore.game import from_record

GAME = "game"
HAND = "hand"
UNDO = "undo"
EDIT = "edit"
END = "end"
EVENING = "evening"


def game_of(ev):
    """The game number an event is about, or None for events about no single game."""
    g = ev.get("g") if isinstance(ev, dict) else None
    return g if type(g) is int else None


def evening(g):
    """The record that starts a new evening at game g."""
    return {"t": EVENING, "next": g}


def evening_next(ev):
    """G of an evening record {"t":"evening","next":G}; None for any other event."""
    if isinstance(ev, dict) and ev.get("t") == EVENING:
        g = ev.get("next")
        if type(g) is int and g >= 0:
            return g
    return None


def apply(game, ev):
    """The game after event ev; game is None before the game's own "game" event.

    Raises GameError when the event does not fit (the rules refuse the hand, nothing to undo,
    the game is closed, a malformed event) and then changes nothing.
    """
    if not isinstance(ev, dict):
        raise GameError("event: must be an object")
    t = ev.get("t")
    try:
        if t == "hand" and game is not None and not game.closed:  # nearly every event
            game.add(ev["h"])
            return game
        if t == "game":
            if game is not None:
                raise GameError("the game starts twice")
            rec = ev["rec"]
            if not isinstance(rec, dict) or rec.get("hands"):
                raise GameError("game: a new game has a start record and no hands")
            return from_record(rec)
        if game is None:
            raise GameError("%s before the game started", t)
        if t != "hand" and t != "undo" and t != "edit" and t != "end":
            raise GameError("unknown event %r", t)
        if game.closed:
            raise GameError("the game is closed")
        if t == "undo":
            if game.undo() is None:
                raise GameError("nothing to undo")
        elif t == "edit":
            game.replace(ev["i"], ev["h"])
        else:
            game.closed = True
        return game
    except KeyError as e:
        raise GameError("%s: missing %s", t, e.args[0] if e.args else "field")
