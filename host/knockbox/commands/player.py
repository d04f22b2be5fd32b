"""`knockbox player rename OLD NEW [--merge]`: put a player's name right in every game.

OLD becomes NEW in every game of the history, and the history remembers it: a game that comes
later with the old name (a sync from a device that still has it on its roster, an import) is
stored under the new one. When NEW is a player already (e.g. "ann" and "Ann", or "Bob" and
"Bobby" for one person) --merge makes the two one player; without it nothing is changed and the
command says so. A game in which both names play cannot be merged (one game cannot have one
player twice). Names are trimmed and compared in one Unicode form, without invisible
characters; the new name has at most 24 characters, and only what the device can draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from knockbox.commands.common import add_db_option, open_history

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "rename a player in every game, or merge two names of one player (--merge)"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True


def arguments(p: Parser) -> None:
    import argparse

    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    r = sub.add_parser(
        "rename",
        help="OLD becomes NEW in every game (--merge: NEW is a player already)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("old", metavar="OLD", help="the name as the history has it")
    r.add_argument("new", metavar="NEW", help="the name it becomes")
    r.add_argument(
        "--merge", action="store_true", help="NEW is a player already: make the two one player"
    )
    add_db_option(r)
    r.set_defaults(usage_of=r)  # a mistyped option shows this usage (knockbox.cli.parse)


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox import players
    from knockbox.plural import count

    h = open_history(args)
    new = players.clean(args.new)
    with h.transaction():
        merged = new in h.players.names()
        n = h.players.rename(args.old, args.new, args.merge)
        twins = players.twins([new], h.players.names())
    out.write(
        "%r is now %r in %s%s\n"
        % (players.clean(args.old), new, count(n, "game"), " (merged)" if merged else "")
    )
    for line in players.twin_lines(twins):
        err.write("note: %s\n" % line)
    return 0
