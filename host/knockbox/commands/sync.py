"""`knockbox sync`: pull what is new from the device into the history (knockbox.link.sync does the
work; the protocol is docs/PROTOCOL.md)."""

from __future__ import annotations
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "pull new games and hands from the device into the history"
DESCRIPTION = (
    "Pull everything new from the device over USB serial, check every game with the "
    "rules core and store it in the history (one transaction). Run it again after an "
    "interruption: it resumes. Faults the device recorded (it stopped on an error) "
    "are printed once, kept in the history and cleared on the device."
)


def arguments(p: Parser) -> None:
    from knockbox.commands.common import add_db_option, add_port_options

    add_port_options(p)
    add_db_option(p)
    p.add_argument(
        "--erase",
        action="store_true",
        help="after a complete sync, erase the device's games (hold A on it)",
    )


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox.link import faults
    from knockbox.link import sync as S
    from knockbox.commands.common import open_port
    from knockbox.history import History, now

    with open_port(args, err, "sync") as conn:
        try:
            info = conn.hello()
            S.check_hello(info)  # before the history is opened: a stranger leaves no file
            s = S.Sync(conn, History(args.db), err).run(info)
            out.write(s.summary() + "\n")
            battery = S.battery_line(info)
            if battery:
                out.write(battery + "\n")
            for f in faults.pull(conn, s.hist, info["device"], now()):
                out.write(faults.describe(f) + "\n")
            for g in s.invalid:
                err.write(
                    "knockbox: game %d (device game %d) failed the rules check: %s\n"
                    % (g["id"], g["gid"], g["error"])
                )
            if args.erase:
                r = S.erase(conn, s, err)
                out.write("device erased: epoch %d\n" % r["epoch"])
        finally:
            conn.bye()
    return 1 if s.invalid else 0
