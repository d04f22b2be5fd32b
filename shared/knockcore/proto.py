# What the device and the laptop must agree on, defined once for both ends (docs/PROTOCOL.md):
# - the serial protocol: its version, its operations (the device's link answers each with its
#   _op_<name> handler, firmware/knockfw/link.py; the laptop's knockbox.link.serialio.Connection sends
#   each with its method of that name) and its numbers;
# - the limits of the settings the laptop pushes (the device's check_settings in
#   firmware/knockfw/app.py; knockbox push and import);
# - the boards: the names /data/board.json holds (written by `knockbox deploy`), the first the
#   default; the board file of a name is knockfw.board_<name, "-" as "_">, and firmware/manifest.py
#   gives each name its own files.
# This module is on the device, inside the rules core's 12 KB. No I/O here.
from micropython import const

PROTO = const(1)  # the protocol version in the hello reply; the laptop refuses others
ID_MAX = const(0x3FFFFFFF)  # request ids are integers 0..ID_MAX
EVENTS_MAX = const(200)  # events in one page at most: the events request's default limit
OPS = ("hello", "events", "settings", "faults", "erase", "bye")

NAME_MAX = const(24)  # a player's name: 1..NAME_MAX characters
ROSTER_MIN = const(3)  # the roster lists ROSTER_MIN..ROSTER_MAX names
ROSTER_MAX = const(16)
SLEEP_MIN = const(30)  # sleep_s: the idle seconds before the device switches off
SLEEP_MAX = const(86400)
STAKE_MAX = const(100000)  # stake: money per point in hundredths, 0 (off)..STAKE_MAX

BOARDS = ("badger2040", "pico-epd")
