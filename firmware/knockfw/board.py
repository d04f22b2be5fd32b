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


def w_board(m):
    """True if m, a board's name as its firmware gives it (sys.implementation._machine), names a
    W board: a word before " with" that is "W" or ends in "W" after a digit or a small letter
    ("Raspberry Pi Pico W", "Pimoroni Badger2040W 2MB", "PicoW"). knockbox.deploy.w_board is the
    laptop's copy (tests/test_w_boards.py keeps them the same)."""
    for w in m.split(" with ")[0].split():
        if w == "W" or w[-1] == "W" and (w[-2].isdigit() or w[-2].islower()):
            return True
    return False


def refused():
    """The name the firmware gives this board if it is a W board (w_board()), else None. Their
    GPIO 23-25 and 29 belong to the radio (VBUS sense, the LED; RPI_PICO_W's GP24 interrupt
    acknowledges every pin's edges): not supported (`knockbox deploy` refuses them by the same
    name, hardware/README.md). A W board flashed with plain Pico firmware names itself a Pico:
    the board file's probe finds it (its probe_w(), from boot.py on)."""
    m = sys.implementation._machine
    return m if w_board(m) else None


def load():
    """The board, made once (current). A W board is refused (the app does not start): by its
    name, or by what its board file's probe found (knockfw.rp2board._w)."""
    global current
    if RP2:
        w = refused()
        if not w:
            b = module(chosen()).Board()
            from knockfw.rp2board import _w as w
        if w:
            raise RuntimeError("Knockbox does not support W boards: this is a " + w)
        current = b
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
