"""A device's journal events as games, for knockbox.history: the events of one game replayed by
the rules core as the device applied them (replay_events), the games a device gave one number
(split), where a game has been (states), and the numbers an event carries that SQLite can hold
(event_gid, evening_next)."""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING

from knockbox.bounds import GAME_EVENTS_MAX, HANDS_MAX
from knockbox.players import from_device
from knockcore import events
from knockcore.errors import GameError
from knockfw.settings import NAME_MAX

if TYPE_CHECKING:
    from knockcore.game import Game
    from knockbox.records import Record

MAX_INT = (1 << 63) - 1  # SQLite's largest integer: game ids, epochs, seqs, gids


def evening_next(ev: dict[str, Any]) -> int | None:
    """G of an evening record (knockcore.events.evening_next) that SQLite can hold, else None."""
    g = events.evening_next(ev)
    return g if g is not None and g <= MAX_INT else None


def replay_events(evs: list[Any]) -> Any:
    """(record, status, winners, error) of one game from its events [(seq, event)], each applied
    by knockcore.events.apply as on the device; a game the rules core refuses keeps the hands up
    to the refused event and status 'invalid', and so does a game beyond the bounds
    (knockbox.bounds: more than HANDS_MAX hands or GAME_EVENTS_MAX records). The players' names
    are the history's before the rules core sees them (knockbox.players.from_device: a name the
    device left empty, too long or twice is a game all the same)."""
    g, error, rec0 = None, None, None
    for i, (seq, ev) in enumerate(evs):
        try:
            if g is None and isinstance(ev, dict) and ev.get("t") == events.GAME:
                ev = dict(ev, rec=_named(ev.get("rec")))
                rec0 = ev.get("rec")
            if i == GAME_EVENTS_MAX:
                error = "record %d: a game has at most %d records" % (seq, GAME_EVENTS_MAX)
                break
            if g is not None and len(g.hands) >= HANDS_MAX and ev.get("t") == "hand":
                error = "record %d: a game has at most %d hands" % (seq, HANDS_MAX)
                break
            g = events.apply(g, ev)
        except (GameError, TypeError, AttributeError) as e:
            error = "record %d: %s" % (
                seq,
                e if isinstance(e, GameError) else "malformed (%r)" % (e,),
            )
            break
    if g is None:
        return _clean(rec0), "invalid", [], error or "no game record"
    rec = g.record()
    if error:
        return rec, "invalid", [], error
    return rec, _status(g), list(g.winners) if g.over else [], None


def split(evs: list[Any]) -> list[list[Any]]:
    """The events [(seq, event)] of one game number as the games the device gave that number,
    in journal order: each "game" record after the first starts another game (a device that
    reused the number: docs/PROTOCOL.md)."""
    out: list[list] = [[]]
    started = False
    for se in evs:
        if isinstance(se[1], dict) and se[1].get("t") == events.GAME:
            if started:
                out.append([])
            started = True
        out[-1].append(se)
    return out


def states(evs: list[Record]) -> set[tuple[str, str]]:
    """{(the hands as JSON text, status)} that one game went through, after each of its events
    [(seq, event)] (up to the first the rules core refuses): where the device's copy of a game
    once was."""
    out = set()
    g = None
    for _, ev in evs:
        try:
            if g is None and isinstance(ev, dict) and ev.get("t") == events.GAME:
                ev = dict(ev, rec=_named(ev.get("rec")))
            g = events.apply(g, ev)
        except (GameError, TypeError, AttributeError):
            break
        out.add(state(g.record()["hands"], _status(g)))
    return out


def state(hands: list[Record], status: str) -> tuple[str, str]:
    """A game's place as states() gives it."""
    return json.dumps(hands, sort_keys=True), status


def _status(g: Game) -> str:
    return "over" if g.over else ("abandoned" if g.closed else "playing")


def event_gid(ev: dict[str, Any]) -> int | None:
    """The game number an event belongs to, None if it has none we can use (1..MAX_INT)."""
    g = events.game_of(ev)
    return g if g is not None and 1 <= g <= MAX_INT else None


def identity(rec: Record) -> list[Any]:
    """What makes a game that game: its start record (an edit or undo never changes it)."""
    return [rec.get(k) for k in ("method", "players", "start", "rules")]


def same_game(a: Record, b: Record) -> bool:
    """Whether records a and b are copies of one device game (under one key): the same start
    but for the players' names (a rename here or on another laptop changes them), when their
    names are the same too, or their first hands are, or one has no hand yet."""
    if [a.get(k) for k in _START] != [b.get(k) for k in _START]:
        return False
    if a.get("players") == b.get("players"):
        return True
    ha, hb = a.get("hands") or [], b.get("hands") or []
    return not ha or not hb or ha[0] == hb[0]


_START = ("method", "start", "rules")


def _named(rec: Any) -> Any:
    """A game event's start record with its players' names as the history keeps them."""
    names = rec.get("players") if isinstance(rec, dict) else None
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return dict(rec, players=from_device(names))
    return rec


def _clean(rec0: Any) -> Record | None:
    """The parts of a start record the rules core refused that are safe to store and show."""
    rec: dict[str, object] = {"hands": []}
    if not isinstance(rec0, dict):
        return rec
    m, p = rec0.get("method"), rec0.get("players")
    if type(m) is int and 0 <= m <= MAX_INT:
        rec["method"] = m
    if isinstance(p, list) and len(p) <= 3 and all(isinstance(x, str) for x in p):
        rec["players"] = [x if len(x) <= NAME_MAX else x[: NAME_MAX - 1] + "…" for x in p]
    for k in ("start", "rules"):
        if isinstance(rec0.get(k), dict):
            rec[k] = rec0[k]
    return rec
