# Board: Raspberry Pi Pico (H) + Waveshare Pico-ePaper-2.9 (SSD1680, 296x128) + five push
# buttons to GND. Stock MicroPython RPI_PICO firmware. This file is the only place that names
# this build's pins (hardware/PINS.md is generated from PINS below by hardware/tools/gen_pins.py).
#
# Wiring:
#   GPIO | Pico pin | name  | what
#   -----+----------+-------+-----------------------------------------------------------
#      2 |   4      | a     | button A  -> GND (pin 3)   (active low, internal pull-up)
#      3 |   5      | b     | button B  -> GND (pin 3)
#      4 |   6      | c     | button C  -> GND (pin 8)
#      5 |   7      | up    | button Up -> GND (pin 8)
#      6 |   9      | down  | button Down -> GND (pin 8)
#      8 |  11      | dc    | e-ink data/command        (on the Waveshare header)
#      9 |  12      | cs    | e-ink chip select         (SPI1 CSn)
#     10 |  14      | sck   | e-ink clock               (SPI1 SCK)
#     11 |  15      | mosi  | e-ink data                (SPI1 TX)
#     12 |  16      | rst   | e-ink reset
#     13 |  17      | busy  | e-ink BUSY (high while busy)
#     24 |   -      | vbus  | VBUS sense (internal): high while USB power is present
#     25 |   -      | led   | on-board LED
# The buttons use GPIO 2-6, which the display does not use, on the same header side as GND
# pins 3 and 8. There is no power latch: power_off() puts the panel to sleep and the RP2040
# into the deepest sleep MicroPython offers; a battery build uses a switch.
import time
from micropython import const
import machine
from knockfw.ssd1680 import SSD1680
from knockfw.rp2board import Rp2Board

PINS = {
    "a": 2,
    "b": 3,
    "c": 4,
    "up": 5,
    "down": 6,
    "dc": 8,
    "cs": 9,
    "sck": 10,
    "mosi": 11,
    "rst": 12,
    "busy": 13,
    "vbus": 24,
    "led": 25,
}
BUTTONS = ("a", "b", "c", "up", "down")
_SPI_ID = const(1)
_SPI_HZ = const(10_000_000)


def _wake(pin):
    pass


class Board(Rp2Board):
    name = "pico-epd"
    active_low = True  # buttons to GND with pull-ups: pressed reads 0

    def __init__(self):
        P = machine.Pin
        self._buttons_from(PINS, BUTTONS, P.PULL_UP, 0)
        self._panel_from(PINS, SSD1680, _SPI_ID, _SPI_HZ)

    def power_off(self):
        """No latch on this build: finish the refresh, put the panel in deep sleep, LED off,
        then deep-sleep the RP2040 (on battery) until reset; on USB this returns."""
        self.display.sleep()
        self.led(False)
        if not self.on_usb():
            for pin in self._buttons.values():  # a press wakes it (then it boots afresh)
                pin.irq(trigger=machine.Pin.IRQ_FALLING, handler=_wake)
            machine.deepsleep()
