"""`knockbox delete GAME... [--yes] | --undo [GAME...]`: take games out or bring them back.

The games (ids from `knockbox history`) are shown and, on a terminal, you are asked first; --yes
deletes without asking (needed when the input is not a terminal). A game synced from a device is
remembered as deleted: a later sync leaves it out, whatever the device still has. A deleted
game's id is never given to another game. --undo brings the games of the latest delete back
under their ids (with GAME...: those deleted games); a device's game comes back as the device
has it now (a sync while it was deleted counts). Importing a deleted game brings it back too.
Games an import added are taken back whole by `knockbox import --undo`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

import sys

from knockbox.commands.common import add_db_option, game_id, open_history
from knockbox.usererror import UserError
from knockbox.plural import count
from knockbox.textsafe import visible

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "delete games from the history (asks first, or --yes)"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True


def arguments(p: Parser) -> None:
    p.add_argument("games", nargs="*", metavar="GAME", help="game ids (from `knockbox history`)")
    p.add_argument("--yes", action="store_true", help="delete without asking")
    p.add_argument(
        "--undo",
        action="store_true",
        help="bring back the games of the latest delete (with GAME...: those deleted games)",
    )
    add_db_option(p)


def run(args: Namespace, out: TextIO, err: TextIO, stdin: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    ids = list(dict.fromkeys(game_id(g) for g in args.games))
    h = open_history(args)
    if args.undo:
        with h.transaction():
            back = h.undelete(ids)
        out.write("%s back: %s\n" % (count(len(back), "game"), ", ".join(str(i) for i in back)))
        return 0
    if not ids:
        raise UserError("give the GAME(s) to delete (or --undo)")
    rows = h.games(ids)
    if not args.yes:
        if not (hasattr(stdin, "isatty") and stdin.isatty()):
            raise UserError("nothing deleted: give --yes to delete without a question")
        for r in rows:
            err.write(
                "game %d: %s; %d hand%s; %s; synced %s\n"
                % (
                    r["id"],
                    visible(", ".join(r["players"])),
                    r["hands"],
                    "" if r["hands"] == 1 else "s",
                    r["status"],
                    r["synced"][:16],
                )
            )
        err.write("Delete %s? [y/N] " % ("it" if len(rows) == 1 else "these %d games" % len(rows)))
        err.flush()
        if stdin.readline().strip().lower() not in ("y", "yes"):
            out.write("nothing deleted\n")
            return 1
    with h.transaction():
        h.delete(ids)
    out.write("%s deleted\n" % count(len(rows), "game"))
    return 0
