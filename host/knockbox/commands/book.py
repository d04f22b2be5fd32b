"""`knockbox book -o DIR`: the group's book, the whole history as a folder of static pages.

DIR/index.html lists the evenings (date, games, each player's net) and the players' ratings;
each evening has its page (what `knockbox report --evening N` shows) and each player one: the
statistics of `knockbox stats`, the rating, the net and the rating over time as charts, head to
head against each other player, and by method. The pages open from disk in any browser: no
network, no scripts, every link relative (copy the folder anywhere, or put it on a web server).

Building again into the same folder after a sync makes only what changed: the evenings whose
games changed, the pages of their players, and the index (DIR/knockbox-book.json records what
each page was made from). Other files in DIR are left alone, whatever the manifest says; a
folder that is not empty and holds no book is refused, and a build that was stopped keeps the
pages it made: the next one makes only the rest. One build per folder at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

import os

from knockbox.bounds import listed
from knockbox.commands.common import add_db_option, default_lang, open_history, open_in_browser
from knockbox.plural import count
from knockfw.settings import LANGS

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "write the group's book: a folder of pages of every evening and player"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True


def arguments(p: Parser) -> None:
    p.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        required=True,
        help="the book's folder (made if missing; brought up to date if a book)",
    )
    add_db_option(p)
    p.add_argument(
        "--lang",
        choices=LANGS,
        help="language of the pages (default: from the locale, else en)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes making evening pages at once (a first build; after a sync "
        "the new evening's page is made by one while the rest of the book is; "
        "default: the number of CPUs, %(default)s here)",
    )
    p.add_argument("--open", action="store_true", help="open the index in the web browser")


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox import book
    from knockbox.usererror import UserError

    folder = os.path.abspath(args.output)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UserError("%s is not a folder" % args.output)
    if args.jobs < 1:
        raise UserError("--jobs: %d is not a number of processes (1 or more)" % args.jobs)
    from knockbox.progress import Progress

    progress = Progress(err, "book")
    try:
        done = book.build(
            open_history(args),
            folder,
            lang=args.lang or default_lang(),
            jobs=args.jobs,
            progress=progress,
        )
    finally:
        progress.end()
    if done["foreign"]:
        from knockbox.textsafe import visible

        err.write(
            "%s named files that are not pages of the book; left alone: %s\n"
            % (book.MANIFEST, listed(visible(p) for p in done["foreign"]))
        )
    if done["anew"]:
        err.write(
            "%s was made by another knockbox or in another language: every page was "
            "made again\n" % args.output
        )
    err.write(
        "book of %s and %s in %s: %s written, %d unchanged%s\n"
        % (
            count(done["evenings"], "evening"),
            count(done["players"], "player"),
            args.output,
            count(done["written"], "page"),
            done["kept"],
            ", %d removed" % done["removed"] if done["removed"] else "",
        )
    )
    if args.open:
        open_in_browser(os.path.join(folder, "index.html"), err)
    return 0
