"""`knockbox simulate`: the real firmware on this computer (knockbox.simulate does the work)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from knockbox.cli import Parser

MAX_SCALE = 8  # screenshot pixels per device pixel at most: 2368x1024, bigger than any screen

HELP = "run the real firmware on this computer (screen in the terminal)"
DESCRIPTION = (
    "Run the firmware under the MicroPython unix port: the e-ink screen is drawn in "
    "the terminal, keys are the buttons, the flash image persists in DIR, and a "
    "pseudo-terminal serial port is opened for `knockbox sync --port`."
)


def arguments(p: Parser) -> None:
    p.add_argument(
        "--dir",
        metavar="DIR",
        help="simulated device folder (flash image); default: the user's data folder",
    )
    p.add_argument("--screenshot", metavar="DIR", help="save each refresh as DIR/frame-NNNN.png")
    p.add_argument(
        "--scale",
        type=int,
        default=2,
        metavar="N",
        help="screenshot pixels per device pixel, 1..%d (default 2)" % MAX_SCALE,
    )
    p.add_argument("--reset", action="store_true", help="wipe the simulated device first")
    p.add_argument(
        "--battery",
        action="store_true",
        help="run as on battery: switch off after the idle time (the device's sleep setting, "
        "30 s by default) until the next key; without it the device is a board on USB, "
        "powered by its USB, and never switches itself off",
    )
    p.add_argument(
        "--no-tty",
        action="store_true",
        help="headless: print the serial port and frames, read keys from stdin lines "
        "(a b c up down; A or 'a long' = long press; 'wait MS'; quit)",
    )
    p.add_argument("--script", help=argparse.SUPPRESS)  # tests: another entry point


def check(args: argparse.Namespace) -> None:
    """The options a user can get wrong, checked before anything starts (UserError): --scale in
    range, and --screenshot a folder that is there or can be made."""
    import os

    from knockbox.usererror import UserError
    from knockbox.textsafe import visible

    if not 1 <= args.scale <= MAX_SCALE:
        raise UserError(
            "--scale: %d is not in 1..%d (screenshot pixels per pixel of the device's screen)"
            % (args.scale, MAX_SCALE)
        )
    if args.screenshot is None:
        return
    path = os.path.abspath(args.screenshot)
    if os.path.exists(path) and not os.path.isdir(path):
        raise UserError(
            "--screenshot: %s is a file: give a folder for the screenshots" % visible(path)
        )
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UserError(
            "--screenshot: cannot make the folder %s: %s" % (visible(path), e.strerror or e)
        ) from None


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import os

    from knockbox.build import engines
    from knockbox.usererror import UserError

    check(args)

    if not hasattr(os, "openpty"):  # its serial port is a pseudo-terminal (knockbox.link.ptyrelay)
        raise UserError(
            "simulate runs on Linux and macOS only; on this computer use a Pico "
            "(`knockbox deploy`, then `knockbox sync`)"
        )
    engines.tool("micropython")  # before the build: say how to get it
    from knockbox import simulate

    return simulate.run(args)
