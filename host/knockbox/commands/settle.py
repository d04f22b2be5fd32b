"""`knockbox settle`: add up the games of one evening and say who pays whom.

Which games: the ids given; else evening N with --evening N; else those first synced on or after
--since DATE; else (and with --evening alone) the latest evening, as the device's Evening screen
and `knockbox report` take it (the one whose first game is the latest): an evening that runs past
midnight is one evening. Evenings are numbered 1, 2, ... as they reach the history, as `knockbox
history` shows them, and keep their numbers (older games imported later get new ones); a new
evening starts when "New evening" is chosen on the device.

Only finished games count; unfinished ones are named and left out. Each player's net (the
rules' settlement points, by name across games) is summed, and the debts are paid off with the
fewest payments: players whose balances fall into groups that each add up to zero settle
within their group. This is the rules core's ledger (knockcore.evening), the one the device's
Evening screen uses. With --per-point AMOUNT (in whole hundredths: 0.05, 0.1, 1) the points are
also shown as money: each payment and each player's net, to the cent, as the device shows them
(at most %d a point). The settlement itself is knockbox.settle's, as in `knockbox report`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from knockbox import settle as S
from knockbox.commands.common import (
    add_db_option,
    add_selection,
    open_history,
    select,
    write_json,
    write_table,
)
from knockbox.usererror import UserError
from knockbox.bounds import listed
from knockbox.plural import count
from knockbox.textsafe import visible

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "who pays whom over the games of one evening"
DESCRIPTION = __doc__.split("\n", 1)[1] % S.PER_POINT_MAX
RAW_DESCRIPTION = True


def arguments(p: Parser) -> None:
    add_selection(p, "the latest evening's")
    p.add_argument("--per-point", metavar="AMOUNT", help=S.STAKE_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(p)


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    stake = S.parse_stake(args.per_point) if args.per_point is not None else None
    rows, number = select(
        open_history(args), args, lambda h, **parts: h.latest_evening(**parts), seats=True
    )
    res = S.tally(rows)
    res["evening"] = number
    if stake is not None:
        S.add_money(res, stake)
    if args.json:
        write_json(out, res, sort_keys=True)
        return 0
    if not res["games"]:
        msg = "no finished games to settle"
        if res["skipped"]:
            msg += " (unfinished: %s)" % listed("%d" % i for i, _ in res["skipped"])
        raise UserError(msg)
    out.write(
        "%sgames %s\n"
        % ("evening %d: " % number if number else "", ", ".join(str(i) for i in res["games"]))
    )
    for i, status in res["skipped"]:
        out.write("left out: game %d (%s)\n" % (i, status))
    money = stake is not None
    table = [("player", "games", "wins", "points") + (("money",) if money else ())]
    for p in res["players"]:
        table.append(
            (p["player"], str(p["games"]), str(p["wins"]), "%+d" % p["net"])
            + ((p["money"],) if money else ())
        )
    out.write("\n")
    write_table(out, table, right=(1, 2, 3, 4))
    out.write("\n")
    if not res["payments"]:
        out.write("all square: nobody pays\n")
    for p in res["payments"]:
        out.write(
            "%s pays %s %s%s\n"
            % (visible(p[0]), visible(p[1]), count(p[2], "point"), " = %s" % p[3] if money else "")
        )
    return 0
