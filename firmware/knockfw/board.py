# Picks the board this firmware runs on. On the Pico the choice is /data/board.json
# ({"board": "badger2040"} or {"board": "pico-epd"}, written by `knockbox deploy`); the unix port
# is the simulator. Board modules are imported only here, so a build never loads another's pins.
# boot.py reads the same choice (it loads the chosen board file before the app, and not this
# module: see its header); keep the two in step (tests/test_boards_hardware.py checks it).
import sys

BOARD_FILE = "/data/board.json"
RP2 = sys.platform == "rp2"


def chosen():
    try:
        import json

        with open(BOARD_FILE) as f:
            v = json.load(f)
        return v.get("board", "badger2040") if isinstance(v, dict) else str(v)
    except (OSError, ValueError):
        return "badger2040"


def module(name):
    """The board file (module) for a board name."""
    if name in ("pico-epd", "pico_epd"):
        from knockfw import board_pico_epd

        return board_pico_epd
    from knockfw import board_badger

    return board_badger


def load():
    if RP2:
        return module(chosen()).Board()
    # the simulator's board (host/knockbox/simulate/device/, in the unix port's build only)
    from simboard import Board  # type: ignore[import-not-found]

    return Board()
