# Which board this firmware runs on, and making it (load()): on the Pico the choice is
# /data/board.json ({"board": "badger2040"} or {"board": "pico-epd"}, written by `knockbox
# deploy`); the unix port is the simulator. Board modules are imported only here, so a build never
# loads another's pins; they implement the board contract, knockfw.Board (knockfw/__init__.py),
# and import nothing of this module. boot.py reads the same choice (it loads the chosen board
# file before the app, and not this module: see its header); keep the two in step
# (tests/test_boards_hardware.py checks it).
import sys

BOARD_FILE = "/data/board.json"
RP2 = sys.platform == "rp2"
current = None  # the board load() made (the fault handler, knockfw.fault, draws on its panel)


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


def refused():
    """The name the firmware gives this board if it is a W board (Pico W, Badger 2040 W: "W"
    before " with"), else None. Their GPIO 23-25 and 29 belong to the radio (VBUS sense, the
    LED; RPI_PICO_W's GP24 interrupt acknowledges every pin's edges): not supported (`knockbox
    deploy` refuses them by the same name, hardware/README.md)."""
    m = sys.implementation._machine
    return m if "W" in m.split(" with ")[0].split() else None


def load():
    """The board, made once (current). A W board is refused (the app does not start)."""
    global current
    if RP2:
        w = refused()
        if w:
            raise RuntimeError("Knockbox does not support W boards: this is a " + w)
        current = module(chosen()).Board()
    else:
        # the simulator's board (host/knockbox/simulate/device/, in the unix port's build only)
        from simboard import Board  # type: ignore[import-not-found]

        current = Board()
    return current


def off():
    """knockfw.fault, when no board could be made (the heap too full to import it): on battery
    the board dark all the same, through its board file's off() (the Badger's latch released;
    the Pico build asleep until a press, then a fresh start). Returns on USB power."""
    if RP2:
        module(chosen()).off(refused())
