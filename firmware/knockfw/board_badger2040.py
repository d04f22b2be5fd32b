# Board: Pimoroni Badger 2040 (RP2040, 2.9" 296x128 UC8151 e-ink, five buttons, battery
# connector with a power latch). Stock MicroPython RPI_PICO firmware; no Pimoroni libraries.
# This file is the only place that names the Badger's pins (hardware/PINS.md is generated from
# PINS below by hardware/tools/gen_pins.py).
#
# Wiring (fixed on the board; checked against Pimoroni's badger2040 library):
#   GPIO | name    | what
#   -----+---------+------------------------------------------------------------------
#     10 | en_3v3  | 3V3 enable / power latch: drive high to stay on from the battery;
#        |         | low switches the board off (a button press powers it up again)
#     11 | down    | button Down  (active high, pull-down)
#     12 | a       | button A     (active high, pull-down)
#     13 | b       | button B     (active high, pull-down)
#     14 | c       | button C     (active high, pull-down)
#     15 | up      | button Up    (active high, pull-down)
#     16 | miso    | SPI0 RX: not connected (the UC8151 sends nothing back; named so that
#        |         | machine.SPI takes no other pin for it)
#     17 | cs      | e-ink chip select (SPI0)
#     18 | sck     | e-ink clock (SPI0 SCK)
#     19 | mosi    | e-ink data (SPI0 TX)
#     20 | dc      | e-ink data/command
#     21 | rst     | e-ink reset
#     24 | vbus    | VBUS detect: high while USB power is present
#     25 | led     | white activity LED
#     26 | busy    | e-ink BUSY_N (low while busy)
#     29 | vbat    | battery voltage (ADC3, through a divider)
# The five buttons are wired through diodes to the power latch: pressing one powers the board
# even when en_3v3 is low. So on battery the latch must go high before the press ends: boot.py
# loads this file and calls early() first thing, long before the app is imported
# (bench/bench_pico.py measures the latch), as Pimoroni's firmware does in C before main (badger2040 firmware/modules/wakeup:
# GPIO 10 driven high, then the buttons sampled twice 5 ms apart). The app's loop re-asserts the
# latch every turn (idle_sleep), as Pimoroni's launcher calls keepalive() every loop: a press
# held through an auto-off, or USB unplugged after one, leaves the board running instead of
# dying mid-game.
# The top level imports built-in modules only (on the Pico's littlefs every module file costs
# lookups, and boot.py has 100 ms): the shared base and the driver are imported when needed.
import time
from micropython import const
import machine

PINS = {
    "en_3v3": 10,
    "down": 11,
    "a": 12,
    "b": 13,
    "c": 14,
    "up": 15,
    "miso": 16,
    "cs": 17,
    "sck": 18,
    "mosi": 19,
    "dc": 20,
    "rst": 21,
    "vbus": 24,
    "led": 25,
    "busy": 26,
    "vbat": 29,
}
BUTTONS = ("a", "b", "c", "up", "down")
_SPI_ID = const(0)
_SPI_HZ = const(12_000_000)
_OFF_MS = const(100)  # after releasing the latch: still running only on USB or a held button


def early():
    """boot.py: hold the power on, then note the button that woke the board. Returns it."""
    P = machine.Pin
    P(PINS["en_3v3"], P.OUT, value=1)
    from knockfw import rp2board

    return rp2board.early_buttons(PINS, BUTTONS, P.PULL_DOWN, 1)


def off(w=None):
    """knockfw.board.off(): no board: the latch released, dark until a press on battery (USB
    keeps it running: VBUS is not read, a W board's GPIO 24 is the radio's). w: the name of a W
    board (knockfw.board.refused()), the same here."""
    machine.Pin(PINS["en_3v3"], machine.Pin.OUT, value=0)
    time.sleep_ms(_OFF_MS)


def Board():
    """The Badger (an rp2board.Rp2Board on the pins above), built when the app starts."""
    from knockfw.rp2board import Rp2Board
    from knockfw.uc8151 import UC8151

    class Badger(Rp2Board):
        name = "badger2040"
        active_low = False  # buttons: pressed reads 1

        def __init__(self):
            P = machine.Pin
            self._latch = P(PINS["en_3v3"], P.OUT, value=1)  # high since boot.py, normally
            self._buttons_from(PINS, BUTTONS, P.PULL_DOWN, 1)
            self._panel_from(PINS, UC8151, _SPI_ID, _SPI_HZ)

        def idle_sleep(self, ms):
            self._latch.value(1)  # keep alive: see the header
            Rp2Board.idle_sleep(self, ms)

        def power_off(self):
            """Finish the refresh, then release the power latch. On battery the board goes
            dark (the panel keeps its image) and a button press starts it again from boot. On
            USB power, or while a button is held, the board keeps running: this returns, and
            the next idle_sleep() takes the latch again. The latch drops even if the panel
            fails (a fault while knockfw.fault switches off)."""
            try:
                self.display.sleep()
                self.led(False)
            finally:
                self._latch.value(0)
            time.sleep_ms(_OFF_MS)

    return Badger()
