"""`knockbox report [GAME... | --evening [N] | --since DATE] -o FILE.html`: one HTML page.

The page is whole in itself (no network requests: it opens from a file or an e-mail): for each
game, a chart of the running totals hand by hand with the target line, the hands table, the
final totals and the net; for all of them, the net per player (bars), the settlement (the
fewest payments, as `knockbox settle` and the device's Evening screen give them) and the
statistics of `knockbox stats`. With no selection: the latest evening. Evenings are numbered 1,
2, ... as they reach the history, as `knockbox history` shows them, and keep their numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

import os

from knockbox.commands.common import (
    add_db_option,
    add_selection,
    default_lang,
    open_history,
    open_in_browser,
    select,
)
from knockbox.files import write_whole
from knockbox.plural import count
from knockfw.settings import LANGS

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "write an HTML report with charts of an evening's games"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True


def arguments(p: Parser) -> None:
    add_selection(p, "the latest evening")
    add_db_option(p)
    p.add_argument(
        "-o", "--output", metavar="FILE.html", required=True, help="where to write the page"
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        help="language of the page (default: from the locale, else en)",
    )
    from knockbox.settle import STAKE_HELP

    p.add_argument("--per-point", metavar="AMOUNT", help="show money too: " + STAKE_HELP)
    p.add_argument("--open", action="store_true", help="open the page in the web browser")


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox import report, settle

    stake = settle.parse_stake(args.per_point) if args.per_point is not None else None
    h = open_history(args)
    rows, number = select(h, args, lambda h, **parts: h.evening(**parts)[::-1], detail=True)
    html = report.page(
        rows, lang=args.lang or default_lang(), evening=number, since=args.since, stake=stake
    )
    path = os.path.abspath(args.output)
    write_whole(path, [html], args.output)
    err.write("report of %s written to %s\n" % (count(len(rows), "game"), args.output))
    if args.open:
        open_in_browser(path, err)
    return 0
