# What the two RP2040 boards share: buttons read at boot (so the press that woke the board is
# not lost), the e-ink panel on an SPI bus, the data folder, USB sensing, the LED and the sleep
# between polls. The board files (board_badger.py, board_pico_epd.py) name the pins and pass them
# in; this module names none. It imports only built-in modules: boot.py reaches it (through the
# board file's early()) before anything else is loaded.
#
# Light sleep and the SPI clock (MicroPython v1.28, ports/rp2): main() calls
# set_sys_clock_khz(), which leaves clk_peri at 48 MHz (the USB PLL), and machine.SPI computes
# its divider from that. machine.lightsleep() ends with runtime_init_clocks_optional_usb()
# (clocks_extra.c), which sets clk_peri = clk_sys = 125 MHz but leaves the SPI divider alone:
# every transfer after a light sleep would run 125/48 = 2.6x too fast (Badger: 12 -> 31 MHz).
# So every light sleep here is followed by spi.init(baudrate=...), which recomputes the divider
# from the clock as it is then (machine_spi.c: spi_set_baudrate()).
import os
import sys
import time

import machine

from knockfw import board as _board

_EARLY_GAP_MS = 5  # second look at the buttons, as Pimoroni's wakeup module (gpio_get_all twice)
_early = None  # early_buttons(): the button held when boot.py ran, "" if none (None: not run)
_latched: tuple = ()  # early_buttons(): (Buttons latching edges since boot.py, their pins)


def early_buttons(pins, names, pull, pressed):
    """boot.py, through the board file's early(): set up the buttons, note the one held now
    (looked at twice, 5 ms apart; Board() hands it to the app as wake_button()), and start
    latching every press from here on (knockfw.buttons' IRQs), so that a press made while
    the app is still being imported counts too (Board().latched_buttons() hands them over)."""
    global _early, _latched
    P = machine.Pin
    held = ""
    for attempt in range(2):
        for n in names:
            if P(pins[n], P.IN, pull).value() == pressed:
                held = n
                break
        if held or attempt:
            break
        time.sleep_ms(_EARLY_GAP_MS)
    _early = held
    from knockfw.buttons import Buttons

    pins_on = dict((n, P(pins[n], P.IN, pull)) for n in names)
    _latched = (Buttons(pins_on, active_low=not pressed), pins_on)
    return held or None


class Rp2Board(_board.Board):
    name = "rp2"
    active_low = False
    data_dir = "/data"

    def _buttons_from(self, pins, names, pull, pressed):
        """Set up the button pins and note the waking press: the one boot.py saw held (if it
        ran), else the one held right now."""
        global _early, _latched
        P = machine.Pin
        self._pressed = pressed
        self._names = names
        late = _latched                 # boot.py set them up and latches their edges
        _latched = ()
        self._latched = late[0] if late else None
        if late:
            self._buttons = late[1]
        else:
            self._buttons = {}
            for n in names:
                self._buttons[n] = P(pins[n], P.IN, pull)
        if _early is not None:
            self._woke = _early or None
            _early = None
        else:
            self._woke = self._held()

    def _held(self):
        """The first button (in button order) that reads pressed now, or None."""
        for n in self._names:
            if self._buttons[n].value() == self._pressed:
                return n
        return None

    def _panel_from(self, pins, driver, spi_id, hz):
        """The e-ink driver on its SPI bus, plus the LED, USB sense and the serial streams."""
        P = machine.Pin
        self._led = P(pins["led"], P.OUT, value=0)
        self._vbus = P(pins["vbus"], P.IN)
        self._spi_hz = hz
        # every SPI pin named: without miso= machine.SPI takes the bus's default MISO pin
        # (SPI1: GP8, the Pico-ePaper's DC) and gives it to the SPI (ports/rp2 machine_spi.c);
        # the panels send nothing back, so miso is a pin the board leaves unconnected
        self._spi = machine.SPI(spi_id, baudrate=hz, polarity=0, phase=0,
                                sck=P(pins["sck"]), mosi=P(pins["mosi"]),
                                miso=P(pins["miso"]))
        self.display = driver(self._spi,
                              P(pins["cs"], P.OUT, value=1),
                              P(pins["dc"], P.OUT, value=0),
                              P(pins["rst"], P.OUT, value=1),
                              P(pins["busy"], P.IN, P.PULL_UP))
        self.serial_in = sys.stdin.buffer
        self.serial_out = sys.stdout.buffer

    def buttons_pins(self):
        """name -> machine.Pin for "a" "b" "c" "up" "down"."""
        return self._buttons

    def latched_buttons(self):
        """The knockfw.buttons.Buttons that boot.py started (their IRQs have latched every
        press since), or None; once."""
        b = self._latched
        self._latched = None
        return b

    def wake_button(self):
        """The button that woke the board (held at power-up, or the press that ended a sleep
        in power_off()), or None. Once: it is forgotten when read."""
        w = self._woke
        self._woke = None
        return w

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

    def lightsleep(self, ms):
        """machine.lightsleep, then the SPI divider recomputed for the clock it leaves behind
        (see the header). The watchdog is fed first (the Pico build's power_off() sleeps in
        slices for hours)."""
        _board.feed()
        machine.lightsleep(ms)
        self._spi.init(baudrate=self._spi_hz)

    def watch(self, on):
        """on: arm the watchdog (knockfw.board.feed() feeds it); off: stop it. MicroPython's
        WDT cannot stop, so this clears CTRL.ENABLE itself (RP2040 datasheet 4.7: WATCHDOG_BASE
        0x40058000, CTRL bit 30; 2.1.2: + 0x3000, the register's atomic clear alias)."""
        if on:
            _board._wdt = machine.WDT(timeout=8000)     # (the RP2040's longest: 8,388 ms)
        else:
            _board._wdt = None
            machine.mem32[0x4005B000] = 1 << 30

    def restart(self):
        machine.reset()

    def idle_sleep(self, ms):
        """Sleep between polls. On battery: light sleep (clocks stopped, RAM kept); on USB a
        plain sleep so the serial link keeps running."""
        if self.on_usb():
            time.sleep_ms(ms)
        else:
            self.lightsleep(ms)

