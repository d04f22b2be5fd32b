"""The `knockbox` command: one entry point, a subcommand per job."""
import argparse
import sys

from knockbox.errors import UserError


def _replay(args):
    from knockbox import replay

    return replay.run(args, sys.stdin, sys.stdout)


def build_parser():
    p = argparse.ArgumentParser(
        prog="knockbox",
        description="Knockbox: the scorekeeper for three-player gin rummy (laptop tool).")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    r = sub.add_parser("replay", help="print the standings of a game record as JSON",
                       description="Replay a game record (knockbox-game/1) and print standings JSON.")
    r.add_argument("game", metavar="GAME.json", help="game record file, or - for standard input")
    r.add_argument("--engine", choices=("cpython", "micropython"), default="cpython",
                   help="run the rules core under CPython (default) or the MicroPython unix port")
    r.set_defaults(func=_replay)
    return p


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except UserError as e:
        sys.stderr.write("knockbox: %s\n" % e)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("knockbox: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
