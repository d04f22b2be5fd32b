"""`knockbox import FILE... | --undo [--db FILE]`: game records into the history, or back out.

Game records go into the history all or nothing. A FILE holds a JSON list of game records
(knockbox-game/1), as `knockbox export --json` writes them, or one record; - reads standard
input. A record may carry "meta": {"synced": "YYYY-MM-DD" or "YYYY-MM-DD HH:MM[:SS]" (when it
was played; default: now), "evening": LABEL}: the games with the same evening label form one
evening, and without a label the games of one date do. Every record is checked by the rules
core; a bad one is named and nothing is imported. A game is already in the history when it is
the same device's record (device and game number, as export writes them) or has the same date
and time (for a record without one, the same day) and the same hands; games alike but for their
dates or times are different games. A game has at most 1,000 hands. Of two copies of a device's
game (another laptop's export) the newer one counts: the one made from the later record of the
device's journal (meta.seq), else the one changed later (meta.updated), but never one that has
only the first hands of the other, unless the device's journal took them back; each game
updated is named. A deleted game that is imported comes back. Players' names are trimmed,
compared in one Unicode form, at most 24 characters (the device's limit), and renamed as
`knockbox player rename` renamed them; names that differ only in case are pointed out. For a
new laptop, a backup, two laptops' histories merged, and old paper score sheets typed in. A big
file is read a record at a time; on a terminal the import shows its progress; Ctrl-C leaves the
history as it was.

Each import is remembered: --undo takes the latest one back (run it again for the import
before): the games it added go, and the copies of device games it brought (a game a sync also
gave stays as the device has it), and the deleted games it brought back are deleted again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from knockbox.commands.common import add_db_option, open_history
from knockbox.usererror import UserError
from knockbox.bounds import listed
from knockbox.plural import count
from knockbox.textsafe import visible

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "add game records (a JSON export, or typed-in games) to the history (--undo: take out)"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True


def arguments(p: Parser) -> None:
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="JSON file of game records (- for standard input)"
    )
    p.add_argument(
        "--undo", action="store_true", help="take the latest import out of the history again"
    )
    add_db_option(p)


def run(args: Namespace, out: TextIO, err: TextIO, stdin: TextIO | None = None) -> int:
    from knockbox import players
    from knockbox.history import importing

    if args.undo:
        if args.files:
            raise UserError("--undo takes no FILE: it undoes the latest import")
        return undo(args, out)
    if not args.files:
        raise UserError("give the FILE(s) to import (or --undo)")
    n = importing.into(getattr(args, "db", None), args.files, stdin, err)
    out.write("%s imported" % count(n["new"], "game"))
    more = []
    if n["updated"]:
        more.append("%d updated to a newer copy (below)" % n["updated"])
    if n["same"]:
        more.append("%d already in the history" % n["same"])
    if n["apart"]:
        more.append("%d kept apart (another game had their device's number)" % n["apart"])
    out.write(("; " + ", ".join(more) if more else "") + "\n")
    for line in n["changes"]:
        out.write(visible(line) + "\n")
    for line in players.twin_lines(n["twins"]):
        err.write("note: %s\n" % line)
    for line in n["clashes"]:
        err.write("note: %s\n" % visible(line))
    return 0


def undo(args: Namespace, out: TextIO) -> int:
    from knockbox.history import now

    h = open_history(args)
    with h.transaction():
        r = h.imports.undo(now(), h.next_delete)
    what = ["%s taken out" % count(r["removed"], "game")]
    if r["restored"]:
        what.append("%d put back as they were" % r["restored"])
    out.write(
        "import %d of %s (%s) undone: %s\n"
        % (r["batch"], r["at"][:16], listed(visible(f) for f in r["files"]), ", ".join(what))
    )
    return 0
