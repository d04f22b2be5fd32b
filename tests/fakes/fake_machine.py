# A stand-in for the `machine` module (rp2 names only as used by the board files), for running
# board files under the unix port: tests put it in sys.modules["machine"] before importing them.
levels = {}  # gpio -> level an input reads (default: its pull's level, else 0)
pins = []  # every Pin made, in order
calls = []  # ("lightsleep", ms), ("deepsleep",), ("spi", id, kwargs)
on_sleep = []  # functions called (with the ms) after each lightsleep: tests press buttons there

# Clocks as MicroPython v1.28 leaves them on an RP2040 (ports/rp2): main() calls
# set_sys_clock_khz(), which puts clk_peri on the 48 MHz USB PLL; machine.lightsleep() ends with
# runtime_init_clocks_optional_usb() (clocks_extra.c), which sets clk_peri = clk_sys (125 MHz).
CLK_SYS = 125_000_000
clk = {"peri": 48_000_000}


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        self.mode = mode
        self.pull = pull
        self.out = value
        self.handler = None
        pins.append(self)

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT:
                return self.out or 0
            if self.gpio in levels:
                return levels[self.gpio]
            return 1 if self.pull == Pin.PULL_UP else 0
        self.out = 1 if v else 0
        return None

    def __call__(self, v=None):
        return self.value(v)

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        self.pull = pull
        if value is not None:
            self.out = value

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard


def spi_divider(freq_in, baudrate):
    """pico-sdk spi_set_baudrate(): the smallest even prescale (2..254) that brings the rate into
    the post-divider's range, then the largest post-divide (1..256) whose output does not exceed
    baudrate. Returns prescale * postdiv."""
    prescale = 2
    while prescale <= 254:
        if freq_in < (prescale + 2) * 256 * baudrate:
            break
        prescale += 2
    postdiv = 256
    while postdiv > 1:
        if freq_in // (prescale * (postdiv - 1)) > baudrate:
            break
        postdiv -= 1
    return prescale * postdiv


class SPI:
    def __init__(self, spi_id, **kw):
        self.id = spi_id
        self.kw = kw
        self.written = 0
        self.divider = spi_divider(clk["peri"], kw["baudrate"])
        calls.append(("spi", spi_id, kw))

    def init(self, baudrate=None, **kw):
        # machine_spi_init(): only a baudrate given recomputes the divider (from clk_peri now)
        if baudrate is not None:
            self.divider = spi_divider(clk["peri"], baudrate)
        calls.append(("spi.init", self.id, baudrate))

    def rate(self):
        """The SCK rate the bus runs at now: clk_peri / the divider set last."""
        return clk["peri"] // self.divider

    def write(self, buf):
        self.written += len(buf)


def lightsleep(ms=None):
    calls.append(("lightsleep", ms))
    clk["peri"] = CLK_SYS
    for f in on_sleep:
        f(ms)


def deepsleep(ms=None):
    calls.append(("deepsleep", ms))


class Reset(BaseException):
    """What reset() raises: the chip starts afresh (tests catch it where the script ends)."""


def reset():
    calls.append(("reset",))
    raise Reset


def pin(gpio):
    """The last Pin made for this GPIO."""
    found = None
    for p in pins:
        if p.gpio == gpio:
            found = p
    return found


class ADC:
    def __init__(self, channel):
        calls.append(("adc", channel))


adc = {}  # ADC input (0-3: GPIO 26-29, 4: the temperature sensor) -> what it converts to (0-4095)
on_adc = []  # functions called with the input at each conversion
i2c = set()  # I2C addresses that answer (a device there)


class I2C:
    def __init__(self, i2c_id, scl=None, sda=None, freq=400000, timeout=50000):
        calls.append(("i2c", i2c_id, scl.gpio, sda.gpio))

    def readfrom(self, addr, n):
        calls.append(("i2c.readfrom", addr))
        if addr not in i2c:
            raise OSError(19)  # MP_ENODEV: nobody acknowledged
        return bytes(n)


class _Mem:
    """machine.mem32 (or mem16): what was written, by address (reads of anything else give 0),
    except in the ranges a model took (fakes.fake_rp2: IO_BANK0's raw interrupt registers).
    longs counts the reads that MicroPython on the RP2040 returns as a long int, on the heap
    (extmod/machine_mem.c: mp_obj_new_int() of the 32-bit word, a small int only if its bits 31
    and 30 are equal)."""

    def __init__(self, size=4, words=None):
        self.size = size
        self.words = {} if words is None else words.words
        self.models = [] if words is None else words.models  # (first address, end, load, store)
        self.longs = 0

    def _model(self, addr):
        for lo, hi, load, store in self.models:
            if lo <= addr < hi:
                return load, store
        return None

    def _word(self, addr):
        m = self._model(addr)
        return (m[0](addr) if m else self.words.get(addr, 0)) & 0xFFFFFFFF

    def __getitem__(self, addr):
        if self.size == 2:
            return self._word(addr & ~3) >> (16 if addr & 2 else 0) & 0xFFFF
        v = self._word(addr)
        if (v >> 31) != (v >> 30 & 1):
            self.longs += 1
        return v

    def __setitem__(self, addr, value):
        assert self.size == 4, "the RP2040's registers: 32-bit writes"
        m = self._model(addr)
        if m:
            m[1](addr, value)
        else:
            self.words[addr] = value


mem32 = _Mem()
mem16 = _Mem(2, mem32)


# The ADC's registers (RP2040 datasheet 4.9.6) as far as a one-shot conversion goes: a write of CS
# with START_ONCE converts input AINSEL (adc[...]) into RESULT and CS reads READY until CS is
# written without it; everything else is kept as written.
_ADC = 0x4004C000
_ready = [False]


def _adc_load(addr):
    v = mem32.words.get(addr, 0)
    return v | 0x100 if addr == _ADC and _ready[0] else v


def _adc_store(addr, value):
    if addr == _ADC and value & 4:
        mem32.words[_ADC + 4] = adc.get(value >> 12 & 7, 0) & 0xFFF
        for f in on_adc:
            f(value >> 12 & 7)
        value &= ~4
        _ready[0] = True
    elif addr == _ADC:
        _ready[0] = False
    mem32.words[addr] = value


def _gpio_in(addr):
    # SIO GPIO_IN: every GPIO's level (a pin made reads as it says; else levels, else 0: the pads
    # come out of reset with their pull-downs)
    v = 0
    for g in range(30):
        p = pin(g)
        v |= (p.value() if p is not None else levels.get(g, 0)) << g
    return v


mem32.models.append((_ADC, _ADC + 0x24, _adc_load, _adc_store))


def _gpio_oe(addr):
    # SIO GPIO_OE: a bit for each pin made an output
    v = 0
    for g in range(30):
        p = pin(g)
        v |= (p is not None and p.mode == Pin.OUT) << g
    return v


mem32.models.append((0xD0000004, 0xD0000008, _gpio_in, None))
mem32.models.append((0xD0000020, 0xD0000024, _gpio_oe, None))
# IO_BANK0 GPIOx_CTRL (2.19.6): FUNCSEL 31 (NULL) as reset leaves it, unless written
mem32.models.append(
    (
        0x40014004,
        0x400140F0,
        lambda a: mem32.words.get(a, 31 if a & 4 else 0),
        lambda a, v: mem32.words.__setitem__(a, v),
    )
)
