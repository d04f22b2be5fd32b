"""The reference for knockfw.text in CPython: the faces of knockfw/fonts.py read back by the
generator's own decoder (tools/fonts/gen_fonts.py, which checks that it gives font_to_py's cells)
with font_to_py's accessors, and the strings filled with sample arguments: for
test_text_render.py, test_text_strings.py and test_fonts.py."""

import re

import gen_fonts  # tools/fonts/gen_fonts.py (on sys.path: bench/_paths.py)
from kit import mp
from knockfw import fonts

ROOT = mp.ROOT


class Face:
    """A face of knockfw/fonts.py (its bytes: data) with font_to_py's accessors: height(),
    baseline(), get_ch(ch) -> (columns, height, advance) of the full cell, the placeholder's for
    a character the face lacks; codes: its code points."""

    def __init__(self, name):
        self.__name__ = name
        self.data = getattr(fonts, name)
        self._height, self._baseline, self.cells, none = gen_fonts.decode(self.data)
        self.none = self.cells[none]
        self.codes = sorted(self.cells)

    def height(self):
        return self._height

    def baseline(self):
        return self._baseline

    def get_ch(self, ch):
        w, cols = self.cells.get(ord(ch), self.none)
        return cols, self._height, w


large, medium, small = Face("large"), Face("medium"), Face("small")
FONTS = {"large": large, "medium": medium, "small": small}


def glyph(font, ch):
    buf, h, w = font.get_ch(ch)
    pages = (h + 7) // 8  # vertical mapping: column by column, bit 0 on top
    return (
        w,
        h,
        [(x, y) for y in range(h) for x in range(w) if buf[x * pages + y // 8] & (1 << (y % 8))],
    )


def ref_width(s, font):
    return sum(font.get_ch(ch)[2] for ch in s)


def has_glyph(font, ch):
    return glyph(font, ch) != glyph(font, "\x00")


SAMPLE = {"s": "Ёжик", "d": 999}


def filled(template):
    return re.sub(r"%([sd])", lambda m: str(SAMPLE[m.group(1)]), template)
