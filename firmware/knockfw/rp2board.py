# What the two RP2040 boards share: buttons read at boot (so the press that woke the board is
# not lost), the e-ink panel on an SPI bus, the data folder, USB sensing, the LED and the sleep
# between polls. The board files (board_badger.py, board_pico_epd.py) name the pins and pass them
# in; this module names none.
import os
import sys
import time

import machine


class Rp2Board:
    name = "rp2"
    active_low = False
    data_dir = "/data"

    def _buttons_from(self, pins, names, pull, pressed):
        """Set up the button pins and note which one is held right now (the waking press)."""
        P = machine.Pin
        self._buttons = {}
        for n in names:
            self._buttons[n] = P(pins[n], P.IN, pull)
        self._woke = None
        for n in names:
            if self._buttons[n].value() == pressed:
                self._woke = n
                break

    def _panel_from(self, pins, driver, spi_id, hz):
        """The e-ink driver on its SPI bus, plus the LED, USB sense and the serial streams."""
        P = machine.Pin
        self._led = P(pins["led"], P.OUT, value=0)
        self._vbus = P(pins["vbus"], P.IN)
        spi = machine.SPI(spi_id, baudrate=hz, polarity=0, phase=0,
                          sck=P(pins["sck"]), mosi=P(pins["mosi"]))
        self.display = driver(spi,
                              P(pins["cs"], P.OUT, value=1),
                              P(pins["dc"], P.OUT, value=0),
                              P(pins["rst"], P.OUT, value=1),
                              P(pins["busy"], P.IN, P.PULL_UP))
        self.serial_in = sys.stdin.buffer
        self.serial_out = sys.stdout.buffer

    def buttons_pins(self):
        """name -> machine.Pin for "a" "b" "c" "up" "down"."""
        return self._buttons

    def wake_button(self):
        """The button held when the board started (read before anything slow), or None."""
        return self._woke

    def mount(self):
        # The rp2 firmware mounts littlefs at / on boot; make sure the data folder exists.
        try:
            os.mkdir(self.data_dir)
        except OSError:
            pass  # exists already

    def on_usb(self):
        return self._vbus.value() == 1

    def led(self, on):
        self._led.value(1 if on else 0)

    def idle_sleep(self, ms):
        """Sleep between polls. On battery: light sleep (clocks stopped, RAM kept); on USB a
        plain sleep so the serial link keeps running."""
        if self.on_usb():
            time.sleep_ms(ms)
        else:
            machine.lightsleep(ms)
