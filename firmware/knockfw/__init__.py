# knockfw: the Knockbox firmware. This package's own module holds what every part of it may rely
# on and imports nothing, so that no module of the firmware imports another that imports it back:
#
# - Board, the board contract: what the app (knockfw.app) asks of the hardware it runs on. The
#   boards: knockfw.rp2board.Rp2Board (what the two RP2040 boards share) under board_badger2040.py
#   and board_pico_epd.py, and the simulator's (host/knockbox/simulate/device/simboard.py). The
#   app calls nothing of a board that Board does not list. Which board this firmware runs on,
#   and making it, is knockfw.board's.
# - The watchdog: a board that has one arms it in watch(True) (the RP2040's machine.WDT, at most
#   8.3 s) and puts it in _wdt here; feed() tells it the firmware is alive, and every wait calls
#   feed() (the app's loop, the light sleeps, the journal's long loops; the panel drivers are
#   given it by the board, and know nothing of the app).
# - The device's files: its data folder and each file in it, named here alone (the firmware's
#   modules import the name; `knockbox deploy`, host/knockbox/link/deploy.py, reads them here).
#
# It is here rather than in a module of its own because every import costs the Pico's boot
# littlefs lookups, and the package's own module is loaded with the first of its modules anyway.

DATA = "/data"  # the user's data folder (littlefs on the Pico; the simulator mounts its flash)
BOARD_FILE = "/data/board.json"  # which board: knockfw.board reads it, `knockbox deploy` writes it
SETTINGS_FILE = "/data/settings.json"  # the settings (knockfw.settings), knockfw.app's
JOURNAL_FILE = "/data/journal.txt"  # the games (knockfw.journal; its .new and .bad beside it)
META_FILE = "/data/meta.json"  # device id, epoch, next game (knockfw.store)
SNAP_FILE = "/data/snap.json"  # the boot checkpoint (knockfw.store); deploy removes it
FAULTS_FILE = "/data/faults.txt"  # the faults' records (knockfw.fault)
IMPORTS = "/knockbox.imports"  # the modules `knockbox deploy` copied, for the boot's imports

_wdt: object = None  # the armed watchdog (its feed()), set by the board's watch()


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
    #                      once (woke_at: the ticks_ms it was first seen down; None: now)
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
    name = "?"  # the board's name: hello's "board", the history's device row
    active_low = False  # the buttons read 0 while pressed
    data_dir = DATA  # made by mount()
    # display: the panel, a knockfw.epd.EPD-like framebuf.FrameBuffer (show, busy, wait, sleep,
    # last_full), set by every board
    serial_in: object = None  # the serial link's streams (USB CDC), None: no link
    serial_out: object = None
    clock = None  # the buttons' clock (a ticks_ms()-like function); None: time.ticks_ms
    woke_at: object = None  # see wake_button()
    battery: "dict | None" = (
        None  # the last battery reading (the serial hello's "battery"), None: none
    )
    low = False  # on battery, the supply too low to write the flash: the app switches off

    mount = buttons_pins = idle_sleep = power_off = restart = _must
    latched_buttons = wake_button = service = watch = watchdog_fired = _nothing

    def on_usb(self):
        return True


def feed():
    """Tell the watchdog the firmware is alive (if one is armed): every wait calls this."""
    if _wdt:
        _wdt.feed()  # type: ignore[attr-defined]
