"""Time of one framebuffer -> controller transfer per driver (unix port, fake SPI).

    .venv/bin/micropython -X heapsize=192k bench/bench_display.py      (MICROPYPATH=firmware:tests)
or  .venv/bin/python bench/bench_display.py                              (runs the above)

What it measures: show() up to the start of the refresh (mode setup, all commands and data
written to an SPI that only counts bytes; the BUSY pin reads idle), i.e. the CPU cost of a
transfer without the SPI clock time. On a Pico add the SPI time: bytes * 8 / baudrate
(UC8151 at 12 MHz, SSD1680 at 10 MHz), printed too. There is no per-pixel rotation: the
framebuffer's memory is sent as 16 slices (see knockfw/epd.py).
"""
import sys

if sys.implementation.name != "micropython":
    import os
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    env = dict(os.environ, MICROPYPATH=":".join([os.path.join(root, "firmware"),
                                                os.path.join(root, "shared"),
                                                os.path.join(root, "tests")]))
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    sys.exit(subprocess.call([exe, "-X", "heapsize=192k", __file__], env=env))

import gc
import time
from fakes.bus import FakePin, NullSPI
from knockfw.uc8151 import UC8151
from knockfw.ssd1680 import SSD1680

N = 200
BAUD = {"UC8151": 12_000_000, "SSD1680": 10_000_000}


def bench(cls, idle_level):
    spi = NullSPI()
    gc.collect()
    before = gc.mem_alloc()
    d = cls(spi, FakePin(1), FakePin(0), FakePin(1), FakePin(idle_level))
    d.awake = True  # skip init's reset delays: time the transfer only
    d.setup = lambda: None
    d._fast = False
    d._lut_loaded = False
    if cls is SSD1680:
        d._prev = bytearray(len(d.buf))
    d.fill(0)
    d.text("Knock 17", 10, 10, 1)
    driver_bytes = gc.mem_alloc() - before
    for full in (True, False):
        d.refresh(full)  # warm: mode switch and LUT upload happen once
        d._steps = []
        spi.bytes_written = 0
        gc.collect()
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        for _ in range(N):
            d.refresh(full)
            d._steps = []
        dt = time.ticks_diff(time.ticks_us(), t0) / N
        per = spi.bytes_written // N
        alloc = (gc.mem_alloc() - a0) // N
        print("%-8s %-7s transfer %7.1f us CPU (unix port), %5d bytes/refresh, SPI time on a "
              "Pico %5.1f ms, alloc %d B/refresh" % (cls.__name__, "full" if full else "partial",
                                                    dt, per, per * 8 * 1000 / BAUD[cls.__name__],
                                                    alloc))
    print("%-8s driver object incl. framebuffer%s: %d bytes of heap" % (
        cls.__name__, " and previous-image copy" if cls is SSD1680 else "", driver_bytes))


bench(UC8151, 1)
bench(SSD1680, 0)
