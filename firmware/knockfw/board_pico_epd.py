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
#     28 |  34      | miso  | SPI1 RX: not connected (the SSD1680 sends nothing back). Named so
#        |          |       | that machine.SPI(1) does not take its default MISO, GP8 (DC)
# The buttons use GPIO 2-6, which the display does not use, on the same header side as GND
# pins 3 and 8. There is no power latch (a battery build uses a switch): power_off() puts the
# panel to sleep and the RP2040 into light sleep in short slices, looking at the buttons between
# them; a press ends it. Not machine.deepsleep(): on rp2 (MicroPython v1.28 modmachine.c) it is
# a dormant sleep with no GPIO wake source, then a reset, and Pin.irq() sets no dormant wake
# either (micropython issue #7035): only RUN or a power cycle would end it.
# The top level imports built-in modules only (boot.py loads this file); the shared base and
# the driver are imported when needed.
import time
from micropython import const
import machine

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
    "miso": 28,
}
BUTTONS = ("a", "b", "c", "up", "down")
_SPI_ID = const(1)
_SPI_HZ = const(10_000_000)
_SLICE_MS = const(25)  # light sleep between two looks at the buttons while off: a 60 ms tap wakes


def early():
    """boot.py: note the button held at power-up (no latch to hold). Returns it. (First the
    Pico W probe, probe_w(), before the sampler takes the ADC.)"""
    from knockfw import rp2board

    return rp2board.early_buttons(PINS, BUTTONS, machine.Pin.PULL_UP, 0, probe=probe_w)


def probe_w():
    """A Pico W behind a plain Pico's name (RPI_PICO firmware reports "Raspberry Pi Pico"):
    Raspberry Pi's own test ("Connecting to the Internet with Raspberry Pi Pico W", which
    hardware am I running on): GPIO 25 as an input and GPIO 29 (ADC 3) read; on a Pico it is
    VSYS / 3 (> 0.5 V), on a Pico W near 0 V (under 200 of 4095: its VSYS divider is switched
    by GPIO 25, the radio's select). GPIO 25 reading high: a Pico W (a Pico's LED pulls it low).
    Only with an ADC that reads: its temperature sensor (ADC 4) between 0.5 and 0.95 V (-40 to
    85 C); otherwise no verdict (the emulated Pico's ADC reads 0). Returns a name or None.
    Before the sampler takes the ADC; self-contained: `knockbox deploy` runs it on the board."""
    import machine

    m = machine.mem32
    machine.ADC(29)  # the ADC on, GPIO 29's pad analog

    def one(ch):
        m[0x4004C000] = 7 | ch << 12  # on, temperature sensor on, one conversion of input ch
        while not m[0x4004C000] & 0x100:
            pass
        return m[0x4004C004]

    one(4)
    if not 620 <= one(4) <= 1180:
        return None
    if machine.Pin(25, machine.Pin.IN).value() or one(3) < 200:
        return "Pico W"
    return None


def off(w=None):
    """knockfw.board.off(): no board, on battery: light sleep in slices until a button is
    pressed (then a fresh start) or USB power comes (then this returns; at once on a W board,
    named by w (knockfw.board.refused()) or found by the probe: its GPIO 24 is the radio's)."""
    from knockfw import rp2board

    if w or rp2board._w:
        return
    if rp2board._dma:
        rp2board.pause()  # (no DMA busy: the chip's clocks gate in the sleeps)
    P = machine.Pin
    vbus = P(PINS["vbus"], P.IN, P.PULL_DOWN)
    keys = [P(PINS[n], P.IN, P.PULL_UP) for n in BUTTONS]
    while not vbus.value():
        machine.lightsleep(_SLICE_MS)
        for k in keys:
            if not k.value():
                machine.reset()


def Board():
    """The Pico build (an rp2board.Rp2Board on the pins above), built when the app starts."""
    from knockfw.rp2board import Rp2Board
    from knockfw.ssd1680 import SSD1680

    class PicoEpd(Rp2Board):
        name = "pico-epd"
        active_low = True  # buttons to GND with pull-ups: pressed reads 0

        def __init__(self):
            P = machine.Pin
            self._buttons_from(PINS, BUTTONS, P.PULL_UP, 0, probe_w)
            self._panel_from(PINS, SSD1680, _SPI_ID, _SPI_HZ)

        def power_off(self):
            """Finish the refresh, panel to deep sleep, LED off; then, on battery, light-sleep
            in slices until a button is pressed or USB power appears. Returns then (at once on
            USB): the press that ended it is wake_button(), for the app to act on."""
            self.display.sleep()
            self.led(False)
            if self.on_usb():
                return
            self.sampling(False)  # the ADC's current saved while off: the pins are read here
            try:
                while not self.on_usb():
                    self.lightsleep(_SLICE_MS)
                    held = self._held()
                    if held:
                        self._woke = held
                        self.woke_at = time.ticks_ms()
                        return
            finally:
                self.sampling(True)

    return PicoEpd()
