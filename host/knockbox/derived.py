"""What the history keeps of a game besides its record, worked out once by the rules core when the
game is stored (a sync, an import, the upgrade of an older history file), so that no reader has to
replay a game: its standings, each hand's running totals and active seats, and each seat's counts
(the statistics of knockbox.stats add these up).

derive(rec) -> Derived(standings, play, seats, record), or GameError if the core refuses the
record:
  standings  Game.standings(): the standings contract, with the per-hand list
  play       {"running": [[3 totals] at the start and after each hand], "active": [[seats dealt
             in] for each hand]}
  seats      [{seat, player, won, hands, hands_won, gins, undercuts, points, net}] in seat order:
             hands played (a seat that sat a hand out did not play it, a void hand included),
             hands whose winners include it (a method 2 partner sitting out too), gins, undercuts
             (hands played and won by undercutting the knocker), points scored in hands played;
             won 1 when the game is over and the seat among its winners; net its settlement points
             when the game is over, else None.
  record     the record as the core writes it (Game.record())
"""

from __future__ import annotations

from typing import Any, NamedTuple

from knockcore.errors import GameError
from knockcore.game import Game, from_record


class Derived(NamedTuple):
    """What derive() works out of a game record (see the top)."""

    standings: dict[str, Any]
    play: dict[str, list[list[int]]]
    seats: list[dict[str, Any]]
    record: dict[str, Any]


def derive(rec: Any) -> Derived:
    """One fold of the record by the rules core, every hand checked (see the top)."""
    g = from_record({k: rec[k] for k in rec if k != "hands"} if isinstance(rec, dict) else rec)
    hands = rec.get("hands", [])
    if not isinstance(hands, list):
        raise GameError("game record: hands must be a list")
    running, active = [g.totals[:]], []
    for h in hands:
        active.append(g.active[:])
        g.add(h)
        running.append(g.totals[:])
    st = g.standings()
    return Derived(st, {"running": running, "active": active}, seats(g, st, active), g.record())


def seats(g: Game, st: dict[str, Any], active: list[list[int]]) -> list[dict[str, Any]]:
    """Each seat's counts (see the top)."""
    out = []
    for seat, name in enumerate(g.players):
        c: dict[str, Any] = {
            "seat": seat,
            "player": name,
            "won": int(st["over"] and seat in st["winners"]),
            "hands": 0,
            "hands_won": 0,
            "gins": 0,
            "undercuts": 0,
            "points": 0,
            "net": st["net"][seat] if st["over"] else None,
        }
        for i, (x, act) in enumerate(zip(st["hands"], active)):
            h = g.hand(i)
            won = seat in x["winners"]
            c["hands_won"] += won
            if seat not in act:
                continue
            c["hands"] += 1
            c["points"] += x["points"][seat]
            c["gins"] += x["kind"] == "gin" and h.get("gin") == seat
            c["undercuts"] += x["kind"] == "undercut" and won and h.get("knock") != seat
        out.append(c)
    return out
