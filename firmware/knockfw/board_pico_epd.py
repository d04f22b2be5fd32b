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
import sys
import os
import time
from micropython import const
import machine
from knockfw.ssd1680 import SSD1680

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


class Board:
    name = "pico-epd"
    active_low = True  # buttons to GND with pull-ups: pressed reads 0
    data_dir = "/data"

    def __init__(self):
        P = machine.Pin
        self._buttons = {}
        for n in BUTTONS:
            self._buttons[n] = P(PINS[n], P.IN, P.PULL_UP)
        self._woke = None
        for n in BUTTONS:
            if self._buttons[n].value() == 0:
                self._woke = n
                break
        self._led = P(PINS["led"], P.OUT, value=0)
        self._vbus = P(PINS["vbus"], P.IN)
        spi = machine.SPI(_SPI_ID, baudrate=_SPI_HZ, polarity=0, phase=0,
                          sck=P(PINS["sck"]), mosi=P(PINS["mosi"]))
        self.display = SSD1680(spi,
                               P(PINS["cs"], P.OUT, value=1),
                               P(PINS["dc"], P.OUT, value=0),
                               P(PINS["rst"], P.OUT, value=1),
                               P(PINS["busy"], P.IN, P.PULL_UP))
        self.serial_in = sys.stdin.buffer
        self.serial_out = sys.stdout.buffer

    def buttons_pins(self):
        """name -> machine.Pin for "a" "b" "c" "up" "down" (pull-ups; pressed = 0)."""
        return self._buttons

    def wake_button(self):
        """The button held when the board started, or None."""
        return self._woke

    def mount(self):
        # The rp2 firmware mounts littlefs at / on boot; make sure the data folder exists.
        try:
            os.mkdir(self.data_dir)
        except OSError:
            pass

    def on_usb(self):
        return self._vbus.value() == 1

    def led(self, on):
        self._led.value(1 if on else 0)

    def idle_sleep(self, ms):
        """Sleep between polls: light sleep on battery, a plain sleep on USB (keeps serial)."""
        if self.on_usb():
            time.sleep_ms(ms)
        else:
            machine.lightsleep(ms)

    def power_off(self):
        """No latch on this build: finish the refresh, put the panel in deep sleep, LED off,
        then deep-sleep the RP2040 (on battery) until reset; on USB this returns."""
        self.display.sleep()
        self.led(False)
        if not self.on_usb():
            for pin in self._buttons.values():  # a press wakes it (then it boots afresh)
                pin.irq(trigger=machine.Pin.IRQ_FALLING, handler=_wake)
            machine.deepsleep()
