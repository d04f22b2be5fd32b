"""Player statistics over games of the history: the one home of what `knockbox stats`, `knockbox
report` and `knockbox book` count (the commands only choose the games and print).

compute(rows) -> [{player, games, wins, hands, hands_won, gins, undercuts, points, avg_points,
net, net_by_day}], sorted by name, over History.games() rows. Players are matched by name.
Counted per player:
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
"""
from knockbox.history import standings

COLUMNS = ("player", "games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points",
           "net")
COUNTS = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "points", "net")


def compute(rows):
    """[{player, games, wins, hands, ...}] sorted by name, over History.games() rows."""
    players = {}
    for row in rows:
        if row["status"] == "invalid":
            continue
        st = standings(row)
        for seat, name in enumerate(row["players"]):
            p = players.setdefault(name, dict({k: 0 for k in COUNTS}, player=name, _days={}))
            _count_game(p, row, st, seat)
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


def _count_game(p, row, st, seat):
    p["games"] += 1
    if st["over"] and seat in st["winners"]:
        p["wins"] += 1
    for i, (x, h) in enumerate(zip(st["hands"], row["record"]["hands"])):
        won = seat in x["winners"]
        p["hands_won"] += won
        if not _played(row, h, i, seat):
            continue
        p["hands"] += 1
        p["points"] += x["points"][seat]
        if x["kind"] == "gin" and h.get("gin") == seat:
            p["gins"] += 1
        if x["kind"] == "undercut" and won and h.get("knock") != seat:
            p["undercuts"] += 1
    if st["over"]:
        p["net"] += st["net"][seat]
        day = row["synced"][:10]
        p["_days"][day] = p["_days"].get(day, 0) + st["net"][seat]


def _played(row, h, i, seat):
    """Whether seat played hand i: it has a count, or (a void hand, no counts) the rules core
    says it was dealt in."""
    from knockcore.game import from_record

    counts = h.get("counts")
    if counts is not None:
        return counts[seat] is not None
    g = row.get("_game")
    if g is None:
        g = row["_game"] = from_record(row["record"])
    return seat in g.active_at(i)
