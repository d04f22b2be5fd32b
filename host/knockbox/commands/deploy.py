"""`knockbox deploy`: compile the device's files (firmware/manifest.py) and copy what changed to a
MicroPython board (knockbox.link.deploy does the work)."""

from __future__ import annotations
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser

HELP = "compile the firmware and copy it to a MicroPython board"
DESCRIPTION = (
    "Compile the rules core and the firmware with mpy-cross, copy what changed to the "
    "board with mpremote, and restart the app."
)


def arguments(p: Parser) -> None:
    from knockbox.link.deploy import CHOICES

    p.add_argument(
        "--port",
        metavar="P",
        help="serial port, as the OS names it: /dev/ttyACM0, "
        "COM3 (default: the board found by USB id)",
    )
    p.add_argument(
        "--board",
        choices=tuple(CHOICES),
        help="hardware build, saved on the device (default: keep, else badger)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="compile and show what would be copied; change nothing",
    )
    p.add_argument("--force", action="store_true", help="copy every file, changed or not")


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox.link import deploy

    return deploy.run(args, out)
