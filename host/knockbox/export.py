"""`knockbox export --csv|--json [-o FILE] [GAME...] [--since DATE]`.

JSON: a list of game records (format knockbox-game/1, what `knockbox replay` reads) with the
history's ids under "meta". CSV: one row per game, seats in columns (name, total, final, net).
"""
import csv
import io
import json
import sys

from knockbox import history as H
from knockbox.errors import UserError
from knockbox.stats import date_arg

CSV_COLUMNS = (["id", "synced", "updated", "device", "epoch", "gid", "method", "status",
                "hands", "winners"]
               + ["%s%d" % (k, s + 1) for s in range(3)
                  for k in ("player", "total", "final", "net")] + ["error"])


def records(rows):
    out = []
    for r in rows:
        rec = dict(r["record"])
        rec["meta"] = {"id": r["id"], "device": r["device_id"], "epoch": r["epoch"],
                       "gid": None if r["replaced"] else r["gid"], "synced": r["synced"], "updated": r["updated"],
                       "status": r["status"]}
        if r["error"]:
            rec["meta"]["error"] = r["error"]
        if r["replaced"]:
            rec["meta"]["replaced"] = True
        out.append(rec)
    return out


def csv_text(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        st = H.standings(r) if r["status"] != "invalid" else {}
        line = [r["id"], r["synced"], r["updated"], r["device_id"], r["epoch"], "" if r["replaced"] else r["gid"],
                r["method"], r["status"], r["hands"],
                " & ".join(r["players"][s] for s in r["winners"])]
        for s in range(3):
            line += [r["players"][s] if s < len(r["players"]) else "",
                     st["totals"][s] if "totals" in st else "",
                     st["final"][s] if "final" in st else "",
                     st["net"][s] if "net" in st else ""]
        line.append(r["error"] or "")
        w.writerow(line)
    return buf.getvalue()


def cmd_export(args, out=None):
    h = H.open_history(args)
    ids = [H.game_id(g) for g in args.games]
    rows = h.games(ids or None, since=date_arg(args.since))
    if args.csv:
        text = csv_text(rows)
    else:
        text = json.dumps(records(rows), ensure_ascii=False, indent=1) + "\n"
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            raise UserError("%s: %s" % (args.output, e.strerror or e))
        sys.stderr.write("%d games written to %s\n" % (len(rows), args.output))
    else:
        (out or sys.stdout).write(text)
    return 0


def register(sub):
    e = sub.add_parser("export", help="write the history as CSV or JSON",
                       description=__doc__.split("\n", 1)[1])
    fmt = e.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", action="store_true", help="one row per game")
    fmt.add_argument("--json", action="store_true", help="game records with meta")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    e.add_argument("games", nargs="*", metavar="GAME", help="only these game ids")
    e.add_argument("--since", metavar="DATE", help="only games first synced on/after DATE")
    H.add_db_option(e)
    e.set_defaults(func=cmd_export)
