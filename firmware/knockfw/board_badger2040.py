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
#     27 | vref_en | powers the 1.24 V reference (high: on)
#     28 | vref    | the 1.24 V reference (ADC2)
#     29 | vbat    | battery voltage (ADC3, through a divider: a third of it)
# (GPIO 27-29 as Pimoroni's badger2040 module names them: PIN_VREF_POWER, PIN_1V2_REF,
# PIN_BATTERY; pimoroni-pico micropython/modules/badger2040.)
# The five buttons are wired through diodes to the power latch: pressing one powers the board
# even when en_3v3 is low. So on battery the latch must go high before the press ends: the
# Badger's own boot.py (boot_badger.py) drives it in its first statements, lights the LED and
# reads the buttons from the SIO's GPIO_IN (their pads' inputs turned on first: silicon resets
# them on, rp2040js off), as Pimoroni's firmware does in C before main
# (badger2040 firmware/modules/wakeup: GPIO 10 and 25 driven high, then gpio_get_all() twice 5
# ms apart); then early() here (bench/bench_pico.py measures when the latch comes: docs/
# EMULATOR.md). The app's loop re-asserts the latch every turn (idle_sleep), as Pimoroni's
# launcher calls keepalive() every loop: a press held through an auto-off, or USB unplugged
# after one, leaves the board running instead of dying mid-game.
#
# The battery (measure()): as Pimoroni's badger_os.py get_battery_level() (badger2040
# firmware/PIMORONI_BADGER2040/lib/badger_os.py): GPIO 27 high powers the 1.24 V reference,
# read on GPIO 28 against the 3V3 rail, which gives the rail (supply = 1.24 V * 4095 / reading);
# GPIO 29 reads a third of the battery against the same rail. Read with the button sampler
# stopped (the ADC is its metronome: knockfw.rp2board), at boot and every _BAT_MS. On battery,
# a supply under _LOW_MV is low (hardware/POWER.md says why 2.8 V): the app then writes nothing
# more, shows "battery low" and switches off (knockfw.app).
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
    "vref_en": 27,
    "vref": 28,
    "vbat": 29,
}
BUTTONS = ("a", "b", "c", "up", "down")
_SPI_ID = const(0)
_SPI_HZ = const(12_000_000)
_OFF_MS = const(100)  # after releasing the latch: still running only on USB or a held button
_LOW_MV = const(2800)  # on battery, a supply (the 3V3 rail) below this is low (hardware/POWER.md)
_BAT_MS = const(60000)  # the battery read again after this long


def early(seen=None, at=None):
    """boot.py: hold the power on, then note the button that woke the board (seen: the SIO's
    GPIO_IN as boot.py read it at ticks_ms at). Returns it."""
    P = machine.Pin
    P(PINS["en_3v3"], P.OUT, value=1)
    from knockfw import rp2board

    return rp2board.early_buttons(PINS, BUTTONS, P.PULL_DOWN, 1, seen, at, probe_w)


def probe_w():
    """A Badger 2040 W: its real-time clock (PCF85063A) answers at I2C0 address 0x51 on GPIO 4
    (SDA) and 5 (SCL), Pimoroni's wakeup module's WAKEUP_RTC_* (a plain Badger has nothing
    there, unless a Qw/ST device at 0x51 is plugged in). Returns a name or None. The pins are
    inputs again afterwards."""
    import machine

    P = machine.Pin
    try:
        machine.I2C(0, scl=P(5), sda=P(4), freq=100000, timeout=2000).readfrom(0x51, 1)
        w = "Badger 2040 W"
    except OSError:
        w = None
    P(4, P.IN)
    P(5, P.IN)
    return w


def _adc(gpio):
    """The sum of 4 conversions of the ADC input of GPIO 26-29 (0-4095 each, of the 3V3 rail),
    with the sampler stopped (rp2board.pause(): the ADC is its metronome; resume() sets its
    FIFO up again)."""
    m = machine.mem32
    a = 0x4004C000  # the ADC: CS, RESULT at 4, FCS at 8
    m[a + 8] = 0  # the FIFO (and the sampler's DREQ) off
    m[a] = 1  # on, so that machine.ADC() only sets the pad up (no reset of the ADC)
    machine.ADC(gpio)  # the pad: digital input and pulls off
    v = 0
    for _ in range(4):
        m[a] = 5 | (gpio - 26) << 12  # on, the input, one conversion
        while not m[a] & 0x100:  # READY
            pass
        v += m[a + 4]
    m[a] = 0
    return v


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
            self._buttons_from(PINS, BUTTONS, P.PULL_DOWN, 1, probe_w)
            self._panel_from(PINS, UC8151, _SPI_ID, _SPI_HZ)
            self.measure()  # (before the app reads or writes anything)

        def idle_sleep(self, ms):
            self._latch.value(1)  # keep alive: see the header
            if time.ticks_diff(time.ticks_ms(), self._bat_t) >= _BAT_MS:
                self.measure()
            Rp2Board.idle_sleep(self, ms)

        def measure(self):
            """Read the battery and the supply (see the header): battery, a dict of the
            reading (None: the ADC gave none), and low."""
            self._bat_t = time.ticks_ms()
            P = machine.Pin
            self.sampling(False)
            try:
                en = P(PINS["vref_en"], P.OUT, value=1)
                ref = _adc(PINS["vref"])
                bat = _adc(PINS["vbat"])
                en.value(0)
            finally:
                self.sampling(True, False)
            self.battery = None
            if ref > 400:  # (4 conversions: no reference under 0.1 V on a working ADC)
                sup = 20311200 // ref  # 1240 mV * 4095 * 4 / ref
                usb = self.on_usb()
                self.battery = {
                    "vbat_mv": 3 * bat * sup // 16380,
                    "supply_mv": sup,
                    "usb": usb,
                    "low_mv": _LOW_MV,
                }
                self.low = not usb and sup < _LOW_MV

        def power_off(self):
            """Finish the refresh, then release the power latch. On battery the board goes
            dark (the panel keeps its image) and a button press starts it again from boot:
            the panel's controller is left as the refresh left it, powered, not powered off
            nor in deep sleep (Pimoroni's uc8151 since pimoroni-pico 2b25e79: the rail's fall
            then drains through the controller, not the panel; hardware/README.md). On USB
            power, or while a button is held, the board keeps running: the panel goes to
            deep sleep, and the next idle_sleep() takes the latch again. The latch drops even
            if the panel fails (a fault while knockfw.fault switches off)."""
            try:
                d = self.display
                if self.on_usb():
                    d.sleep()
                else:
                    d.finish()
                self.led(False)
            finally:
                self._latch.value(0)
            time.sleep_ms(_OFF_MS)

    return Badger()
