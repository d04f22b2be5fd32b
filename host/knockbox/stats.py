"""Player statistics over games of the history: the one home of what `knockbox stats`, `knockbox
report` and `knockbox book` count (the commands only choose the games and print).

compute(rows) -> [{player, games, wins, hands, hands_won, gins, undercuts, points, avg_points,
net, net_by_day}], sorted by name, over History.games(seats=True) rows: it adds up the counts each
game's seats got when the game was stored (knockbox.derived), replaying nothing. Players are
matched by name.
What each count means: GLOSSARY below (`knockbox stats --help` prints it).
"""

from __future__ import annotations
from typing import Any

GLOSSARY = """Counted per player:
  games      games played (refused 'invalid' games are left out)
  wins       finished games the player won (both partners for a partnership win, method 2)
  hands      hands played (void hands included; a hand the player sat out is not counted:
             method 1's idle player, method 2's partner sitting out)
  hands_won  hands whose winners include the player (in method 2 both partners of a winning
             partnership, the one sitting out too)
  gins       hands where the player went gin
  undercuts  hands the player played and won by undercutting the knocker
  avg_points points scored per hand played (hands sat out count neither points nor hands)
  net        settlement points won (+) or lost (-) over finished games
  net_by_day running net after each day (by the date the game was first synced)
  rating     skill rating over all the player's finished games, whatever the selection:
             openskill's skill estimate mu, 25 before any game, higher is stronger; a game
             won never lowers it, a game lost never raises it (knockbox.ratings,
             docs/RATINGS.md)
  +/-        the rating's uncertainty (2 sigma: the skill is within this of the rating 19
             times in 20; "uncertainty" in the JSON), smaller the more games are rated
  rated      the number of games the rating is made from
"""
COLUMNS = (
    "player",
    "games",
    "wins",
    "hands",
    "hands_won",
    "gins",
    "undercuts",
    "avg_points",
    "net",
)
COUNTS = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "points", "net")


def compute(rows: list[Any]) -> list[dict[str, Any] | Any]:
    """[{player, games, wins, hands, ...}] sorted by name, over History.games(seats=True) rows:
    the sums of the per-seat counts stored with each game (knockbox.derived)."""
    players: dict = {}
    for row in rows:
        if row["status"] == "invalid":
            continue
        day = row["synced"][:10]
        for c in row["seats"]:
            p = players.get(c["player"])
            if p is None:
                p = players[c["player"]] = dict(
                    {k: 0 for k in COUNTS}, player=c["player"], _days={}
                )
            p["games"] += 1
            p["wins"] += c["won"]
            for k in ("hands", "hands_won", "gins", "undercuts", "points"):
                p[k] += c[k]
            if c["net"] is not None:
                p["net"] += c["net"]
                p["_days"][day] = p["_days"].get(day, 0) + c["net"]
    out = []
    for name in sorted(players):
        p = players.pop(name)
        p["avg_points"] = round(p["points"] / p["hands"], 2) if p["hands"] else 0.0
        run, series = 0, []
        for day in sorted(p["_days"]):
            run += p["_days"][day]
            series.append([day, run])
        del p["_days"]
        p["net_by_day"] = series
        out.append(p)
    return out
