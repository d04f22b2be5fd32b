# The board: what the app asks of the hardware it runs on, in one contract (Board below), and
# which board this firmware runs on. On the Pico the choice is /data/board.json
# ({"board": "badger2040"} or {"board": "pico-epd"}, written by `knockbox deploy`); the unix port
# is the simulator. Board modules are imported only here, so a build never loads another's pins.
# boot.py reads the same choice (it loads the chosen board file before the app, and not this
# module: see its header); keep the two in step (tests/test_boards_hardware.py checks it).
#
# The boards: knockfw.rp2board.Rp2Board (what the two RP2040 boards share) under
# board_badger.py and board_pico_epd.py, and the simulator's (host/knockbox/simulate/device/
# simboard.py). The app calls nothing of a board that Board does not list here.
#
# The watchdog: a board that has one arms it in watch(True) (the RP2040's machine.WDT, at most
# 8.3 s) and puts it in _wdt here; feed() tells it the firmware is alive, and every wait calls
# feed() (the app's loop, the panel's busy waits, the light sleeps, the journal's long loops).
import sys

BOARD_FILE = "/data/board.json"
RP2 = sys.platform == "rp2"
current = None  # the board load() made (the fault handler, knockfw.fault, draws on its panel)
_wdt: object = None     # the armed watchdog (its feed()), set by the board's watch()

def _nothing(self, *args):
    return None


def _must(self, *args):
    raise NotImplementedError


class Board:
    # What the app (knockfw.app) uses of a board: the
    # attributes, and the methods, which a board implements where it has the feature (the
    # default is the behaviour of a board without it). The methods (one shared body each, for
    # the code size):
    #   mount()            make sure data_dir exists (the simulator mounts its flash)     [must]
    #   buttons_pins()     name -> pin (value(), irq()) for "a" "b" "c" "up" "down"       [must]
    #   latched_buttons()  a knockfw.buttons.Buttons already latching presses since boot (the
    #                      app takes it instead of making its own), or None; once
    #   wake_button()      the button that powered the board up or ended its sleep, or None;
    #                      once
    #   service(now)       first in every turn of the loop (the simulator feeds its keys there)
    #   idle_sleep(ms)     sleep between two turns of the loop                              [must]
    #   power_off()        the auto-off: finish the refresh, panel to sleep, the board dark (a
    #                      press starts it again); returns if the board keeps running (USB
    #                      power, a held button)                                            [must]
    #   on_usb()           True while USB power is present (False: on battery)
    #   watch(on)          on: arm the watchdog (then feed() at least every few seconds, or the
    #                      chip restarts); off: stop it (the REPL takes over)
    #   watchdog_fired()   True if this boot follows a reset by the armed watchdog (a fault)
    #   restart()          a fresh start, as from a reset (knockfw.fault)                 [must]
    name = "?"           # the board's name: hello's "board", the history's device row
    active_low = False   # the buttons read 0 while pressed
    data_dir = "/data"   # the user's data folder (journal, settings, faults)
    # display: the panel, a knockfw.epd.EPD-like framebuf.FrameBuffer (show, busy, wait, sleep,
    # last_full), set by every board
    serial_in: object = None     # the serial link's streams (USB CDC), None: no link
    serial_out: object = None
    clock = None         # the buttons' clock (a ticks_ms()-like function); None: time.ticks_ms

    mount = buttons_pins = idle_sleep = power_off = restart = _must
    latched_buttons = wake_button = service = watch = watchdog_fired = _nothing

    def on_usb(self):
        return True


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
        module(chosen()).off()


def feed():
    """Tell the watchdog the firmware is alive (if one is armed): every wait calls this."""
    if _wdt:
        _wdt.feed()  # type: ignore[attr-defined]
