"""The `knockbox` command: one entry point, a subcommand per job."""
import argparse
import sys

from knockbox.errors import UserError


def _replay(args):
    from knockbox import replay

    return replay.run(args, sys.stdin, sys.stdout)


def _add_simulate(sub):
    s = sub.add_parser(
        "simulate", help="run the real firmware on this computer (screen in the terminal)",
        description="Run the firmware under the MicroPython unix port: the e-ink screen is drawn "
                    "in the terminal, keys are the buttons, the flash image persists in DIR, and "
                    "a pseudo-terminal serial port is opened for `knockbox sync --port`.")
    s.add_argument("--dir", metavar="DIR",
                   help="simulated device folder (flash image); default: the user's data folder")
    s.add_argument("--screenshot", metavar="DIR", help="save each refresh as DIR/frame-NNNN.png")
    s.add_argument("--scale", type=int, default=2, metavar="N",
                   help="screenshot pixels per device pixel (default 2)")
    s.add_argument("--reset", action="store_true", help="wipe the simulated device first")
    s.add_argument("--no-tty", action="store_true",
                   help="headless: print the serial port and frames, read keys from stdin lines "
                        "(a b c up down; A or 'a long' = long press; 'wait MS'; quit)")
    s.add_argument("--script", help=argparse.SUPPRESS)  # tests: another entry point

    def run(args):
        from knockbox import simulate

        return simulate.run(args)

    s.set_defaults(func=run)


def _add_deploy(sub):
    d = sub.add_parser(
        "deploy", help="compile the firmware and copy it to a MicroPython board",
        description="Compile the rules core and the firmware with mpy-cross, copy what changed "
                    "to the board with mpremote, and restart the app.")
    d.add_argument("--port", metavar="P", help="serial port (default: find the board by USB id)")
    d.add_argument("--board", choices=("badger", "pico-epd"),
                   help="hardware build, saved on the device (default: keep, else badger)")
    d.add_argument("--dry-run", action="store_true",
                   help="compile and show what would be copied; change nothing")
    d.add_argument("--force", action="store_true", help="copy every file, changed or not")

    def run(args):
        from knockbox import deploy

        return deploy.run(args, sys.stdout)

    d.set_defaults(func=run)


def _add_history(sub):
    """sync, push, history, show, stats, export, settle: each module registers its own."""
    from knockbox import export, history, session, stats, sync

    for m in (sync, history, stats, export, session):
        m.register(sub)


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
    _add_simulate(sub)
    _add_deploy(sub)
    _add_history(sub)
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
