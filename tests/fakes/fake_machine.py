# A stand-in for the `machine` module (rp2 names only as used by the board files), for running
# board files under the unix port: tests put it in sys.modules["machine"] before importing them.
levels = {}  # gpio -> level an input reads (default: its pull's level, else 0)
pins = []  # every Pin made, in order
calls = []  # ("lightsleep", ms), ("deepsleep",), ("spi", id, kwargs)


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

    def irq(self, handler=None, trigger=0):
        self.handler = handler
        self.trigger = trigger


class SPI:
    def __init__(self, spi_id, **kw):
        self.id = spi_id
        self.kw = kw
        self.written = 0
        calls.append(("spi", spi_id, kw))

    def write(self, buf):
        self.written += len(buf)


def lightsleep(ms=None):
    calls.append(("lightsleep", ms))


def deepsleep(ms=None):
    calls.append(("deepsleep", ms))


def pin(gpio):
    """The last Pin made for this GPIO."""
    found = None
    for p in pins:
        if p.gpio == gpio:
            found = p
    return found
