"""`knockbox stats`: per player, over the games in the history (counted by knockbox.stats).

Which games: the ids given, evening N (--evening N; alone: the latest evening), those first
synced on or after --since DATE, or by default all of them. Players are matched by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from knockbox import stats as S
from knockbox.commands.common import (
    add_db_option,
    add_selection,
    date_arg,
    open_history,
    select,
    write_json,
    write_table,
)
from knockbox.textsafe import visible

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser
    from knockbox.records import Record

HELP = "per-player statistics over the history"
ROWS = 40  # rows of the net-over-time table at most (a row per day, month or year)
DESCRIPTION = (
    __doc__.split("\n", 2)[2] + S.GLOSSARY + "The table shows net_by_day after "
    "each day, or each month or year when there are more than %d days.\n" % ROWS
)
RAW_DESCRIPTION = True
COLUMNS = S.COLUMNS + ("rating", "uncertainty", "rated")
HEADS = {"uncertainty": "+/-"}  # a column's head where it is not the key's words


def arguments(p: Parser) -> None:
    add_selection(p, "all of them")
    add_db_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox import ratings

    h = open_history(args)
    stats = S.compute(select(h, args, lambda h, **parts: (h.games(**parts), None), seats=True)[0])
    ratings.attach(h, stats)
    if args.json:
        write_json(out, stats)
        return 0
    if not stats:
        if args.since:  # (the history has games: none of them since then)
            out.write("no games first synced on or after %s\n" % date_arg(args.since))
        else:
            out.write("no games yet\n")
        return 0
    table = [tuple(HEADS.get(c, c.replace("_", " ")) for c in COLUMNS)]
    for p in stats:
        table.append(
            tuple(
                "%.2f" % p[c]
                if c in ("rating", "uncertainty")
                else visible(p[c])
                if c == "player"
                else str(p[c])
                for c in COLUMNS
            )
        )
    write_table(out, table, right=range(1, len(COLUMNS)))
    net_over_time(out, stats)
    return 0


def net_over_time(out: TextIO, stats: list[Record]) -> None:
    """The running net per player after each day, or month, or year: the finest of them that
    fits in ROWS rows (the JSON has every day)."""
    days = sorted({d for p in stats for d, _ in p["net_by_day"]})
    if not days:
        return
    width, unit = 4, "year"
    for w, u in ((10, "day"), (7, "month")):
        if len({d[:w] for d in days}) <= ROWS:
            width, unit = w, u
            break
    periods = sorted({d[:width] for d in days})
    out.write("\nnet over time (running total after each %s)\n" % unit)
    after = []  # per player: {period: running net at its end}
    for p in stats:
        at = {}
        for day, run in p["net_by_day"]:
            at[day[:width]] = run
        after.append(at)
    table = [(unit,) + tuple(visible(p["player"]) for p in stats)]
    last = [""] * len(stats)
    for period in periods:
        for i, at in enumerate(after):
            if period in at:
                last[i] = str(at[period])
        table.append((period,) + tuple(last))
    write_table(out, table, right=range(1, len(stats) + 1))
