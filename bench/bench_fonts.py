#!/usr/bin/env python3
"""Fonts, text and strings on the MicroPython unix port: .mpy sizes, heap, drawing time.

    .venv/bin/python bench/bench_fonts.py

Regenerates the fonts with tools/fonts/gen_fonts.py into a temporary tree (so it measures what
the generator makes now, and says whether the committed files are stale), compiles the fonts,
text.py and strings.py with mpy-cross -O3, and under `micropython -X heapsize=192k` (64-bit unix
port: object headers are twice the Pico's, bytes data the same) prints:
- each module's .mpy size and the heap it holds once imported (gc.mem_alloc after gc.collect);
- the time to draw a scoreboard's worth of text (40 medium characters in names and labels plus
  12 large digits) into a 296x128 MONO_VLSB FrameBuffer (the display's layout), and the heap that allocates.
"""

import os
import shutil
import tempfile

import _paths  # the checkout's folders on sys.path (bench/_paths.py)
import gen_fonts
from kit import mp
from knockbox.build import mpy

FW = os.path.join(_paths.ROOT, "firmware", "knockfw")
MODULES = ("knockfw.fonts", "knockfw.text", "knockfw.strings", "knockfw.settings")

HEAP = """
import gc
import knockfw
gc.collect()
a = gc.mem_alloc()
import %s
gc.collect()
print(gc.mem_alloc() - a)
"""

DRAW = """
import gc, time, framebuf
from knockfw import text
from knockfw.fonts import large, medium
class FB(framebuf.FrameBuffer):    # the panel's layout, as knockfw.epd.EPD (text.draw wants buf)
    def __init__(self):
        self.buf = bytearray(296 * 128 // 8)
        self.width, self.height = 296, 128
        super().__init__(self.buf, 296, 128, framebuf.MONO_VLSB)
fb = FB()
NAMES = ("Александра", "Bob", "Ёжик Иван")     # 22 medium characters
LABELS = ("Сдаёт", "Отдыхает", "Hand 12")       # 20 medium characters
SCORES = ("-196", "612", "1024")                # 11 large characters
def box(s, x, y, w, font):     # fitted and centred, as the scoreboard's columns are
    s = text.fit(s, font, w)
    text.draw(fb, s, x + (w - text.width(s, font)) // 2, y, font)
def board():
    fb.fill(0)
    for i in range(3):
        x = i * 99
        box(NAMES[i], x, 0, 96, medium)
        box(SCORES[i], x, 20, 96, large)
        text.draw(fb, LABELS[i], x, 60, medium)
board()
N = 50
gc.collect()
gc.disable()
a = gc.mem_alloc()
board()
alloc = gc.mem_alloc() - a
gc.enable()
t0 = time.ticks_us()
for _ in range(N):
    board()
dt = time.ticks_diff(time.ticks_us(), t0)
t0 = time.ticks_us()
for _ in range(N):
    for s in NAMES + LABELS:
        text.draw(fb, s, 0, 0, medium)
    for s in SCORES:
        text.draw(fb, s, 0, 0, large)
raw = time.ticks_diff(time.ticks_us(), t0)
print(dt // N, raw // N, alloc)
"""


def main():
    stale = gen_fonts.stale()
    tmp = tempfile.mkdtemp(prefix="bench_fonts_")
    try:
        src = os.path.join(tmp, "src")
        shutil.copytree(
            FW, os.path.join(src, "knockfw"), ignore=shutil.ignore_patterns("__pycache__")
        )
        gen_fonts.generate(os.path.join(src, "knockfw"))
        # the manifest's sim build of the fonts, text and strings, from the regenerated copy
        sizes = mpy.build_into(
            os.path.join(tmp, "mpy"), "sim", modules=MODULES, sources={"knockfw": src}
        )
        lib = mpy.lib(os.path.join(tmp, "mpy"))
        print(
            "fonts: committed files %s"
            % ("STALE: " + " ".join(stale) if stale else "match the generator")
        )
        for name in ("large", "medium", "small"):
            with open(os.path.join(src, "knockfw", "fonts.py"), encoding="utf-8") as f:
                env = {}
                exec(f.read(), env)  # the regenerated module: plain bytes, nothing imported
            h, base, cells, none = gen_fonts.decode(env[name])
            print(
                "font %-7s cell %2d px, baseline %2d, max width %2d, %3d glyphs, digit '0' %d px,"
                " %d bytes"
                % (
                    name,
                    h,
                    base,
                    max(w for w, _c in cells.values()),
                    len(cells),
                    cells[ord("0")][0],
                    len(env[name]),
                )
            )
        print("%-22s %8s %10s" % ("module", ".mpy B", "heap B"))
        total = 0
        for mod in MODULES:
            size = sizes[mod.replace(".", "/") + ".mpy"]
            r = mp.run(HEAP % mod, paths=[lib])
            if r.returncode:
                raise SystemExit(r.stdout + r.stderr)
            heap = int(r.stdout.split()[-1])
            print("%-22s %8d %10d" % (mod, size, heap))
            if mod == "knockfw.fonts":
                total += size
        print("%-22s %8d" % ("fonts total", total))
        r = mp.run(DRAW, paths=[lib])
        if r.returncode:
            raise SystemExit(r.stdout + r.stderr)
        board_us, raw_us, alloc = (int(v) for v in r.stdout.split())
        print(
            "scoreboard text (42 medium + 11 large glyphs, fit+align+draw): %d us, allocates %d B"
            % (board_us, alloc)
        )
        print("same strings, plain draw(): %d us" % raw_us)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
