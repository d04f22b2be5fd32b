"""`knockbox stats`: per player, over the games in the history.

Which games: the ids given, evening N (--evening N; alone: the latest evening), those first
synced on or after --since DATE, or by default all of them. Players are matched by name.
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
from knockbox.commands.common import (add_db_option, add_selection, open_history, select,
                                      standings, write_json, write_table)

HELP = "per-player statistics over the history"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True
COLUMNS = ("player", "games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points",
           "net")


def arguments(p):
    add_selection(p, "all of them")
    add_db_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def compute(rows):
    """[{player, games, wins, hands, ...}] sorted by name, over History.games() rows."""
    players = {}
    for row in rows:
        if row["status"] == "invalid":
            continue
        st = standings(row)
        for seat, name in enumerate(row["players"]):
            p = players.setdefault(name, {"player": name, "games": 0, "wins": 0, "hands": 0,
                                          "hands_won": 0, "gins": 0, "undercuts": 0,
                                          "points": 0, "net": 0, "_days": {}})
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


def run(args, out, err):
    stats = compute(select(open_history(args), args, lambda h: (h.games(), None))[0])
    if args.json:
        write_json(out, stats)
        return 0
    if not stats:
        out.write("no games yet\n")
        return 0
    table = [tuple(c.replace("_", " ") for c in COLUMNS)]
    for p in stats:
        table.append(tuple(str(p[c]) for c in COLUMNS))
    write_table(out, table, right=range(1, len(COLUMNS)))
    days = sorted({d for p in stats for d, _ in p["net_by_day"]})
    if days:
        out.write("\nnet over time (running total after each day)\n")
        table = [("day",) + tuple(p["player"] for p in stats)]
        for d in days:
            row = [d]
            for p in stats:
                v = [n for day, n in p["net_by_day"] if day <= d]
                row.append(str(v[-1]) if v else "")
            table.append(tuple(row))
        write_table(out, table, right=range(1, len(stats) + 1))
    return 0
