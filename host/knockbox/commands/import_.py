"""`knockbox import FILE... [--db FILE]`: game records into the history, all or nothing.

A FILE holds a JSON list of game records (knockbox-game/1), as `knockbox export --json` writes
them, or one record; - reads standard input. A record may carry "meta": {"synced": "YYYY-MM-DD" or
"YYYY-MM-DD HH:MM[:SS]" (when it was played; default: now), "evening": LABEL}: the games with the
same evening label form one evening, and without a label the games of one date do. Every record
is checked by the rules core; a bad one is named and nothing is imported. Importing the same file
again adds nothing; a record with the device, epoch and gid that export writes is that device's
game (a later copy of a game updates it). For a new laptop, a backup, two laptops' histories
merged, and old paper score sheets typed in.
"""
from knockbox.commands.common import add_db_option, open_history
from knockbox.plural import count

HELP = "add game records (a JSON export, or typed-in games) to the history"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True


def arguments(p):
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON file of game records (- for "
                   "standard input)")
    add_db_option(p)


def run(args, out, err, stdin=None):
    import sys

    from knockbox import importing

    games = importing.check(args.files, stdin or sys.stdin)     # before a history is made
    n = importing.run(open_history(args, create=True), args.files, games=games)
    line = "%s imported" % count(n["new"], "game")
    more = []
    if n["updated"]:
        more.append("%d updated (they went on since)" % n["updated"])
    if n["same"]:
        more.append("%d already in the history" % n["same"])
    if n["apart"]:
        more.append("%d kept apart (another game had their device's number)" % n["apart"])
    out.write(line + ("; " + ", ".join(more) if more else "") + "\n")
    return 0
