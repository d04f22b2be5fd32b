# Which board this firmware runs on, and making it (load()): on the Pico the choice is
# /data/board.json ({"board": NAME}, NAME one of knockcore.proto.BOARDS, written by `knockbox
# deploy`); the unix port is the simulator. Board modules are imported only here, so a build never
# loads another's pins; they implement the board contract, knockfw.Board (knockfw/__init__.py),
# and import nothing of this module. boot.py starts the chosen board file through chosen() and
# module() before the app is imported. named() reads a board.json: the firmware's chosen() and
# `knockbox deploy` (host/knockbox/link/deploy.py) both read it with this one function.
import sys

from knockcore.proto import BOARDS
from knockfw import BOARD_FILE

RP2 = sys.platform == "rp2"
current = None  # the board load() made (the fault handler, knockfw.fault, draws on its panel)


def named(text):
    """The board name a board.json's text (bytes or str) gives ("pico_epd" read as "pico-epd");
    the first of BOARDS when the text is no JSON or names no board this firmware knows."""
    try:
        import json

        v = json.loads(text)
        v = str(v.get("board") if isinstance(v, dict) else v).replace("_", "-")
    except ValueError:  # (not JSON; on CPython not UTF-8 too)
        v = None
    return v if v in BOARDS else BOARDS[0]


def chosen():
    """The board /data/board.json names (named()); the first of BOARDS when it is missing."""
    try:
        with open(BOARD_FILE, "rb") as f:
            return named(f.read())
    except OSError:
        return BOARDS[0]


def module(name):
    """The board file (module) for a board name of BOARDS."""
    return __import__("knockfw.board_" + name.replace("-", "_"), None, None, ("Board",))


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
