# What the device and the laptop must agree on, defined once for both ends (docs/PROTOCOL.md):
# - the serial protocol: its version, its operations (the device's link answers each with its
#   _op_<name> handler, firmware/knockfw/link.py; the laptop's knockbox.link.serialio.Connection sends
#   each with its method of that name) and its numbers;
# - the boards: the names /data/board.json holds (written by `knockbox deploy`), the first the
#   default; the board file of a name is knockfw.board_<name, "-" as "_">, and firmware/manifest.py
#   gives each name its own files.
# This module is on the device, inside the rules core's 12 KB. No I/O here.
from micropython import const

PROTO = const(1)  # the protocol version in the hello reply; the laptop refuses others
ID_MAX = const(0x3FFFFFFF)  # request ids are integers 0..ID_MAX
EVENTS_MAX = const(200)  # events in one page at most: the events request's default limit
OPS = ("hello", "events", "settings", "faults", "erase", "bye")

BOARDS = ("badger2040", "pico-epd")
