"""`knockbox history`: the games in the history (synced from a device or imported), one line each;
in English or Russian (--lang, default from the locale)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from knockbox.commands.common import (
    EVENINGS_HELP,
    add_db_option,
    add_lang_option,
    lang_of,
    open_history,
    status_text,
    winner_names,
    write_json,
    write_table,
)

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "list the games in the history (synced or imported)"
DESCRIPTION = (
    "List the games in the history: id, when first synced, device, evening, method, "
    "players, hands, winner, status. " + EVENINGS_HELP
)


def arguments(p: Parser) -> None:
    add_db_option(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_lang_option(p, "the output and the rules core's messages")


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    rows = open_history(args).games()
    if args.json:
        write_json(
            out,
            [
                {
                    "id": r["id"],
                    "synced": r["synced"],
                    "updated": r["updated"],
                    "device": r["device_id"],
                    "epoch": r["epoch"],
                    "evening": r["evening"],
                    "gid": None if r["replaced"] else r["gid"],
                    "replaced": r["replaced"],
                    "method": r["method"],
                    "players": r["players"],
                    "hands": r["hands"],
                    "status": r["status"],
                    "winners": [r["players"][s] for s in r["winners"]],
                    "error": r["error"],
                }
                for r in rows
            ],
        )
        return 0
    from knockbox.cliwords import HEADS, LANGS

    lang = lang_of(args)
    w = LANGS[lang]
    if not rows:
        out.write(w["no_games"] + "\n")
        return 0
    table = [HEADS[lang]]
    for r in rows:
        table.append(
            (
                str(r["id"]),
                r["synced"][:16],
                "%s/%d" % (r["device_id"][:8], r["epoch"]),
                "-" if r["evening"] is None else str(r["evening"]),
                str(r["method"]),
                ", ".join(r["players"]),
                str(r["hands"]),
                winner_names(r),
                status_text(r, lang),
            )
        )
    write_table(out, table, right=(0, 3, 4, 6))
    return 0
