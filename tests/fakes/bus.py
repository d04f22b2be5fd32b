# Fake SPI and pins that feed a controller model: bytes written while DC is low are commands,
# while DC is high data. Runs under MicroPython and CPython.


class FakePin:
    """An output or input pin; `on_change(value)` is called when an output changes."""

    def __init__(self, value=0, on_change=None):
        self._v = value
        self.on_change = on_change
        self.writes = 0

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        self.writes += 1
        if v != self._v:
            self._v = v
            if self.on_change:
                self.on_change(v)
        return None

    def __call__(self, v=None):
        return self.value(v)


class BusyPin:
    """The controller's BUSY output: reads `busy_level` while the model is busy; every read
    counts as one poll (models go idle after a number of polls). The controller drives it: its
    pull (init()) changes nothing. With model=None, no panel is there: the pin reads its pull."""

    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, model, busy_level):
        self.model = model
        self.busy_level = busy_level
        self.reads = 0
        self.pull = BusyPin.PULL_UP  # as the boards set it

    def init(self, mode=-1, pull=-1):
        if pull != -1:
            self.pull = pull

    def value(self, v=None):
        self.reads += 1
        if self.model is None:
            return 1 if self.pull == BusyPin.PULL_UP else 0
        if self.model.poll_busy():
            return self.busy_level
        return 1 - self.busy_level

    def __call__(self, v=None):
        return self.value(v)


class FakeSPI:
    def __init__(self, model, cs, dc):
        self.model = model
        self.cs = cs
        self.dc = dc
        self.bytes_written = 0
        self.writes = 0

    def write(self, buf):
        self.writes += 1
        self.bytes_written += len(buf)
        if self.cs.value() != 0:
            self.model.error("SPI write with CS high")
            return
        if self.dc.value() == 0:
            for b in bytes(buf):
                self.model.command(b)
        else:
            self.model.data(buf)


class NullSPI:
    """Counts bytes only (benchmarks)."""

    def __init__(self):
        self.bytes_written = 0

    def write(self, buf):
        self.bytes_written += len(buf)


def wire(model):
    """Pins and SPI wired to `model`: returns (spi, cs, dc, rst, busy)."""
    cs = FakePin(1)
    dc = FakePin(0)
    rst = FakePin(1, model.on_reset_pin)
    busy = BusyPin(model, model.BUSY_LEVEL)
    spi = FakeSPI(model, cs, dc)
    return spi, cs, dc, rst, busy
