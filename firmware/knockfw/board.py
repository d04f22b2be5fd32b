# Picks the board this firmware runs on. On the Pico the choice is /data/board.json
# ({"board": "badger2040"} or {"board": "pico-epd"}, written by `knockbox deploy`); the unix port
# is the simulator. Board modules are imported only here, so a build never loads another's pins.
import sys

BOARD_FILE = "/data/board.json"


def chosen():
    try:
        import json

        with open(BOARD_FILE) as f:
            v = json.load(f)
        return v.get("board", "badger2040") if isinstance(v, dict) else str(v)
    except (OSError, ValueError):
        return "badger2040"


def load():
    if sys.platform == "rp2":
        if chosen() in ("pico-epd", "pico_epd"):
            from knockfw.board_pico_epd import Board
        else:
            from knockfw.board_badger import Board
        return Board()
    from knockfw.board_sim import Board

    return Board()
