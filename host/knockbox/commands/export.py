"""`knockbox export --csv|--json [-o FILE] [GAME...] [--since DATE]`.

JSON: a list of game records (format knockbox-game/1, what `knockbox replay` and `knockbox
import` read) with under "meta" the history's ids, when each game was first synced and its evening
(a label: `knockbox import` puts the games of one label in one evening), and for a device's game
the number of the device's journal record it was last changed by (seq: of two copies of one
game, `knockbox import` takes the later one). CSV: one row per game,
with its evening's number (as `knockbox history` shows it), seats in columns (name, total, final,
net). A text cell a spreadsheet would take for a formula (it starts with = + - @, a tab or a
carriage return: a player named =HYPERLINK(...)) gets a leading apostrophe, as OWASP advises
against CSV injection; control characters (NUL, ESC...) and bidirectional overrides are written
as visible escapes ("\\x00"). The JSON writes them as JSON escapes ("\\u0085"): the same text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

import csv
import io
import json

from knockbox.commands.common import add_db_option, date_arg, game_id, open_history
from knockbox import plural
from knockbox.files import write_whole
from knockbox.history import standings
from knockbox.textsafe import json_safe, visible

if TYPE_CHECKING:
    from argparse import Namespace
    from collections.abc import Iterable, Iterator
    from knockbox.cli import Parser
    from knockbox.records import Record, Row

HELP = "write the history as CSV or JSON"
DESCRIPTION = __doc__.split("\n", 1)[1]
CSV_COLUMNS = (
    [
        "id",
        "synced",
        "updated",
        "evening",
        "device",
        "epoch",
        "gid",
        "method",
        "status",
        "hands",
        "winners",
    ]
    + ["%s%d" % (k, s + 1) for s in range(3) for k in ("player", "total", "final", "net")]
    + ["error"]
)


def arguments(p: Parser) -> None:
    fmt = p.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", action="store_true", help="one row per game")
    fmt.add_argument("--json", action="store_true", help="game records with meta")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    p.add_argument("games", nargs="*", metavar="GAME", help="only these game ids")
    p.add_argument("--since", metavar="DATE", help="only games first synced on/after DATE")
    add_db_option(p)


def meta(r: Row) -> Record:
    """A game's "meta" as export writes it (and `knockbox import` reads it)."""
    m = {
        "id": r["id"],
        "device": r["device_id"],
        "epoch": r["epoch"],
        "gid": None if r["replaced"] else r["gid"],
        "synced": r["synced"],
        "updated": r["updated"],
        "status": r["status"],
    }
    if r["evening_key"] is not None:
        m["evening"] = r["evening_key"]
    if r["error"]:
        m["error"] = r["error"]
    if r["replaced"]:
        m["replaced"] = True
    if r["seq"] is not None:
        m["seq"] = r["seq"]
    return m


def json_lines(rows: Iterable[Row]) -> Iterator[str]:
    """The JSON list of game records, a record at a time (as json.dumps(list, indent=1))."""
    first = True
    for r in rows:
        rec = dict(r["record"], meta=meta(r))
        text = json.dumps([rec], ensure_ascii=False, indent=1)[2:-2]
        yield ("[\n" if first else ",\n") + json_safe(text)
        first = False
    yield "[]\n" if first else "\n]\n"


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads a cell as a formula by


def cell(v: object) -> object:
    """A CSV cell: text with its control characters and bidirectional overrides as visible
    escapes (knockbox.textsafe: no NUL, no ESC in the file), text that would start a formula
    behind an apostrophe; numbers as they are."""
    if not isinstance(v, str):
        return v
    return "'" + visible(v) if v.startswith(FORMULA) else visible(v)


def csv_lines(rows: Iterable[Row]) -> Iterator[str]:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        st = standings(r) if r["status"] != "invalid" else {}
        line = [
            r["id"],
            r["synced"],
            r["updated"],
            r["evening"],
            r["device_id"],
            r["epoch"],
            "" if r["replaced"] else r["gid"],
            r["method"],
            r["status"],
            r["hands"],
            " & ".join(r["players"][s] for s in r["winners"]),
        ]
        for s in range(3):
            line += [
                r["players"][s] if s < len(r["players"]) else "",
                st["totals"][s] if "totals" in st else "",
                st["final"][s] if "final" in st else "",
                st["net"][s] if "net" in st else "",
            ]
        line.append(r["error"] or "")
        w.writerow([cell(v) for v in line])
        yield buf.getvalue()
        buf.seek(0)
        buf.truncate()
    yield buf.getvalue()


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    ids = [game_id(g) for g in args.games]
    h = open_history(args)
    rows = h.each_game(ids or None, since=date_arg(args.since), detail=True)
    count = [0]

    def counted() -> Iterator[Row]:
        for r in rows:
            count[0] += 1
            yield r

    parts = csv_lines(counted()) if args.csv else json_lines(counted())
    if args.output and args.output != "-":
        write_whole(args.output, parts, args.output)
        err.write("%s written to %s\n" % (plural.count(count[0], "game"), args.output))
    else:
        for text in parts:
            out.write(text)
    return 0
