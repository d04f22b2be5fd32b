"""Framebuffer -> controller transfer per refresh, per driver (knockfw/uc8151.py, ssd1680.py).

    .venv/bin/python bench/bench_display.py            # unix port, then the emulated Pico
    .venv/bin/python bench/bench_display.py --no-emu   # unix port only

1. Unix port (CPU of the drivers' Python and native code on x86-64, an SPI that only counts).
2. Emulated Pico (../shared/rp2040-emu, or $RP2040_EMU: stock MicroPython v1.28 RPI_PICO on
   rp2040js): the drivers as `knockbox deploy` compiles them (epdconv and epdinvert native), on
   the real machine.SPI and pins of each build, timed in emulated RP2040 time (ticks_us): one
   refresh's conversion + transfer (driver refresh() up to the refresh command: waveform,
   commands, the frame converted and clocked out on the wire at the emulated SPI rate), and
   the conversion alone (UC8151: epdconv.columns for the whole frame; SSD1680: epdinvert.invert
   twice). Flash timing is not modelled; SPI wire time is.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import _paths  # the checkout's folders on sys.path (bench/_paths.py)
import budgets

ROOT = _paths.ROOT
BAUD = {"UC8151": 12_000_000, "SSD1680": 10_000_000}
N = 200

UNIX_SCRIPT = r"""
import gc, time, json
from fakes.bus import FakePin, NullSPI
from knockfw.uc8151 import UC8151
from knockfw.ssd1680 import SSD1680
out = []
for cls, idle in ((UC8151, 1), (SSD1680, 0)):
    spi = NullSPI()
    gc.collect()
    before = gc.mem_alloc()
    d = cls(spi, FakePin(1), FakePin(0), FakePin(1), FakePin(idle))
    d.init()  # reset (fake pins: no waiting) and setup: the buffers the driver keeps
    heap = gc.mem_alloc() - before
    d.fill(0)
    d.text("Knock 17", 10, 10, 1)
    for mode in ("full", "partial", "quick"):
        full, quick = mode == "full", mode == "quick"
        d.refresh(full, quick)  # warm: a waveform upload happens once per mode change
        spi.bytes_written = 0
        gc.collect()
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        for _ in range(%(n)d):
            d.refresh(full, quick)
        dt = time.ticks_diff(time.ticks_us(), t0) / %(n)d
        out.append([cls.__name__, mode, dt, spi.bytes_written // %(n)d,
                    (gc.mem_alloc() - a0) // %(n)d, heap])
print(json.dumps(out))
"""

# On the emulated Pico: the Badger's UC8151 on SPI0 and the Waveshare SSD1680 on SPI1, each with
# its build's pins (firmware/knockfw/board_*.py), BUSY idle (-i 13=0 for the SSD1680).
PICO_SCRIPT = r"""
import gc, time, json, machine
from machine import Pin, SPI
from knockfw import epdconv, epdinvert
from knockfw.uc8151 import UC8151
from knockfw.ssd1680 import SSD1680
P = Pin
res = {}
def build(cls, spi_id, hz, sck, mosi, cs, dc, rst, busy):
    spi = SPI(spi_id, baudrate=hz, polarity=0, phase=0, sck=P(sck), mosi=P(mosi))
    gc.collect()
    f0 = gc.mem_free()
    d = cls(spi, P(cs, P.OUT, value=1), P(dc, P.OUT, value=0), P(rst, P.OUT, value=1),
            P(busy, P.IN, P.PULL_UP))
    d.init()
    gc.collect()
    return d, f0 - gc.mem_free(), spi
for name, args in (("UC8151", (UC8151, 0, 12_000_000, 18, 19, 17, 20, 21, 26)),
                   ("SSD1680", (SSD1680, 1, 10_000_000, 10, 11, 9, 8, 12, 13))):
    d, heap, spi = build(*args)
    d.fill(0)
    d.text("Knock 17", 10, 10, 1)
    r = {"heap": heap, "spi": str(spi)}
    for mode in ("full", "partial", "quick"):
        full, quick = mode == "full", mode == "quick"
        d.refresh(full, quick)  # warm
        t0 = time.ticks_us()
        for _ in range(%(n)d):
            d.refresh(full, quick)
        r[mode] = time.ticks_diff(time.ticks_us(), t0) / %(n)d / 1000
    t0 = time.ticks_us()
    for _ in range(%(n)d):
        if name == "UC8151":
            for x in range(0, 296, 74):
                epdconv.columns(d._chunk, d.buf, d._rev, x, 74)
        else:
            epdinvert.invert(d.buf, 1184)
            epdinvert.invert(d.buf, 1184)
    r["convert"] = time.ticks_diff(time.ticks_us(), t0) / %(n)d / 1000
    res[name] = r
    del d
    gc.collect()
print("RESULT " + json.dumps(res))
"""


def unix():
    env = dict(
        os.environ,
        MICROPYPATH=":".join(
            [
                os.path.join(ROOT, "firmware"),
                os.path.join(ROOT, "shared"),
                os.path.join(ROOT, "tests"),
            ]
        ),
    )
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    p = subprocess.run(
        [exe, "-X", "heapsize=%dk" % budgets.HEAP_KB, "-c", UNIX_SCRIPT % {"n": N}],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if p.returncode != 0:
        raise SystemExit("unix port run failed:\n" + p.stdout + p.stderr)
    print("Unix port (x86-64 CPU; SPI counts bytes only), per refresh:")
    for cls, mode, us, nbytes, alloc, heap in json.loads(p.stdout.strip().splitlines()[-1]):
        print(
            "  %-8s %-7s %7.1f us CPU, %5d bytes, on a Pico's wire %4.1f ms, alloc %d B"
            % (cls, mode, us, nbytes, nbytes * 8 * 1000 / BAUD[cls], alloc)
        )
        if mode == "quick":
            print("  %-8s driver heap (framebuffer + buffers it keeps): %d bytes" % (cls, heap))


def emulated():
    import emu_device
    from knockbox.build import mpy

    if not emu_device.HAVE_EMU:
        print("Emulated Pico: skipped (%s)" % emu_device.MISSING)
        return
    emupico = emu_device.load_emupico()  # its setup.sh run first
    files = mpy.build(
        "device",
        modules=[
            "knockfw.epd",
            "knockfw.uc8151",
            "knockfw.ssd1680",
            "knockfw.epdconv",
            "knockfw.epdinvert",
            "knockfw.board",
        ],
    )
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    with tempfile.TemporaryDirectory(prefix="knockbox-bench-display-") as tmp:
        for dest, data in files.items():
            path = os.path.join(tmp, "files", dest)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        script = os.path.join(tmp, "bench.py")
        with open(script, "w") as f:
            f.write(PICO_SCRIPT % {"n": 10})
        pico = emupico.Pico(os.path.join(tmp, "pico"))
        pico.start("--fresh", "-i", "13=0", "--timeout", "120", capture_output=True)
        try:
            cmd = [mpremote, "connect", pico.tty, "resume", "fs", "mkdir", ":knockfw"]
            for dest in sorted(files):
                cmd += ["+", "fs", "cp", os.path.join(tmp, "files", dest), ":" + dest]
            subprocess.run(cmd, check=True, capture_output=True, timeout=300)
            t0 = time.time()
            p = subprocess.run(
                [mpremote, "connect", pico.tty, "resume", "run", script],
                capture_output=True,
                text=True,
                timeout=600,
            )
            wall = time.time() - t0
        finally:
            pico.stop(capture_output=True)
    lines = [x for x in p.stdout.splitlines() if x.startswith("RESULT ")]
    if p.returncode != 0 or not lines:
        raise SystemExit("emulated run failed:\n" + p.stdout + p.stderr)
    res = json.loads(lines[-1][7:])
    print(
        "Emulated Pico (MicroPython v1.28 on rp2040js, emulated RP2040 time; %.0f s wall):" % wall
    )
    for name in ("UC8151", "SSD1680"):
        r = res[name]
        print(
            "  %-8s conversion %.2f ms; conversion + transfer per refresh: full %.1f ms, "
            "partial %.1f ms, quick %.1f ms  (%s; driver heap %d bytes)"
            % (name, r["convert"], r["full"], r["partial"], r["quick"], r["spi"], r["heap"])
        )


if __name__ == "__main__":
    unix()
    if "--no-emu" not in sys.argv:
        emulated()
