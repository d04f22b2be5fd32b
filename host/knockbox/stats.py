"""`knockbox stats`: per player, over the games in the history.

Players are matched by name. Counted per player:
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
import json
import sys

from knockbox import history as H
from knockcore.game import from_record


def compute(rows):
    players = {}
    for row in rows:
        if row["status"] == "invalid":
            continue
        st = H.standings(row)
        names = row["players"]
        for seat, name in enumerate(names):
            p = players.setdefault(name, {"player": name, "games": 0, "wins": 0, "hands": 0,
                                          "hands_won": 0, "gins": 0, "undercuts": 0,
                                          "points": 0, "net": 0, "_days": {}})
            p["games"] += 1
            if st["over"] and seat in st["winners"]:
                p["wins"] += 1
            hands = row["record"]["hands"]
            for i, (x, h) in enumerate(zip(st["hands"], hands)):
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


def _played(row, h, i, seat):
    """Whether seat played hand i: it has a count, or (a void hand, no counts) the rules core
    says it was dealt in."""
    counts = h.get("counts")
    if counts is not None:
        return counts[seat] is not None
    g = row.get("_game")
    if g is None:
        g = row["_game"] = from_record(row["record"])
    return seat in g.active_at(i)


def cmd_stats(args, out=None):
    out = out or sys.stdout
    h = H.open_history(args)
    stats = compute(h.games(since=date_arg(args.since)))
    if args.json:
        json.dump(stats, out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    if not stats:
        out.write("no games yet\n")
        return 0
    cols = ("player", "games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points",
            "net")
    table = [tuple(c.replace("_", " ") for c in cols)]
    for p in stats:
        table.append(tuple(str(p[c]) for c in cols))
    H.write_table(out, table, right=range(1, len(cols)))
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
        H.write_table(out, table, right=range(1, len(stats) + 1))
    return 0


def register(sub):
    import argparse

    s = sub.add_parser("stats", help="per-player statistics over the history",
                       description=__doc__.split("\n", 1)[1],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    H.add_db_option(s)
    s.add_argument("--since", metavar="DATE",
                   help="only games first synced on or after DATE (YYYY-MM-DD)")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=cmd_stats)


def date_arg(s):
    """A DATE option (YYYY-MM-DD) as an ISO string, None if not given; UserError if bad."""
    import datetime

    from knockbox.errors import UserError

    if s is None:
        return None
    try:
        return datetime.date.fromisoformat(s).isoformat()
    except ValueError:
        raise UserError("%r is not a date like 2025-01-31" % (s,))
