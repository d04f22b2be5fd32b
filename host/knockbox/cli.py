"""The `knockbox` command: the command table, one module per command in knockbox/commands/.

A command module has HELP (its line in `knockbox --help`), DESCRIPTION (`knockbox CMD --help`;
RAW_DESCRIPTION = True keeps its line breaks), arguments(parser) and run(args, out, err) -> exit
code. A knockbox.usererror.UserError from any command is printed as `knockbox: message` with exit
code 1 (an SQLite error reading the history too: knockbox.history.unreadable says it); Ctrl-C
is `knockbox: interrupted`, exit code 130; a reader that stops early (`| head`) ends it quietly,
exit code 141. Add a command: write its module and add a line here.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sqlite3
import sys

from knockbox.usererror import UserError
from knockbox.textsafe import Output

# name -> module, in the order `knockbox --help` lists them
COMMANDS = {
    "replay": "knockbox.commands.replay",
    "simulate": "knockbox.commands.simulate",
    "deploy": "knockbox.commands.deploy",
    "sync": "knockbox.commands.sync",
    "push": "knockbox.commands.push",
    "history": "knockbox.commands.history",
    "show": "knockbox.commands.show",
    "stats": "knockbox.commands.stats",
    "export": "knockbox.commands.export",
    "import": "knockbox.commands.import_",
    "settle": "knockbox.commands.settle",
    "report": "knockbox.commands.report",
    "book": "knockbox.commands.book",
    "player": "knockbox.commands.player",
    "delete": "knockbox.commands.delete",
}


class Parser(argparse.ArgumentParser):
    """The top-level parser, which knows each command's parser (for its usage)."""

    commands: dict = {}


def build_parser() -> Parser:
    from knockbox.build.manifest import package_version

    p = Parser(
        prog="knockbox",
        description="Knockbox: the scorekeeper for three-player gin rummy (laptop tool).",
    )
    # the package's version (pyproject.toml's), the one deploy builds into the firmware
    p.add_argument("--version", action="version", version="knockbox " + package_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p.commands = {}  # name -> its parser, for its usage
    for name, module in COMMANDS.items():
        cmd = importlib.import_module(module)
        raw = getattr(cmd, "RAW_DESCRIPTION", False)
        c = p.commands[name] = sub.add_parser(
            name,
            help=cmd.HELP,
            description=cmd.DESCRIPTION or cmd.HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter if raw else argparse.HelpFormatter,
        )
        cmd.arguments(c)
        c.set_defaults(run=cmd.run)
    return p


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments of a command line. `knockbox` alone prints the help (exit 0); an option the
    command does not know is refused with that command's usage, not the top level's (exit 2); a
    command with actions of its own (`player rename`) names the action's parser as usage_of."""
    p = build_parser()
    if not argv:
        p.print_help()
        raise SystemExit(0)
    args, unknown = p.parse_known_args(argv)
    if unknown:
        parser = getattr(args, "usage_of", None) or p.commands[args.command]
        parser.error("unrecognized arguments: %s" % " ".join(unknown))
    return args


def main(argv: list[str] | None = None) -> int:
    so, se = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Output(so), Output(se)  # argparse's messages too
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = so, se


def _main(argv: list[str] | None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        code = args.run(args, sys.stdout, sys.stderr) or 0
        sys.stdout.flush()  # here, where a reader gone is caught, not at exit
        return code
    except UserError as e:
        sys.stderr.write("knockbox: %s\n" % e)
        return 1
    except sqlite3.DatabaseError as e:  # the history file damaged, or locked for too long
        from knockbox.history import unreadable

        sys.stderr.write("knockbox: %s\n" % unreadable(e))
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("knockbox: interrupted\n")
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The output's reader stopped early (`knockbox history | head`): end quietly, as a program
    that SIGPIPE ended would (exit 141), without a traceback or a second error while Python
    flushes stdout at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141


if __name__ == "__main__":
    sys.exit(main())
