"""The reference for knockfw.text in CPython, straight from the font modules' get_ch() bitmaps
(font_to_py's own accessor), and the strings filled with sample arguments: for
test_text_render.py and test_text_strings.py."""
import os
import re
import sys

import mp

ROOT = mp.ROOT
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from knockfw.fonts import large, medium, small  # noqa: E402

FONTS = {"large": large, "medium": medium, "small": small}


def glyph(font, ch):
    buf, h, w = font.get_ch(ch)
    pages = (h + 7) // 8        # vertical mapping: column by column, bit 0 on top
    return w, h, [(x, y) for y in range(h) for x in range(w)
                  if buf[x * pages + y // 8] & (1 << (y % 8))]


def ref_width(s, font):
    return sum(font.get_ch(ch)[2] for ch in s)


def has_glyph(font, ch):
    return glyph(font, ch) != glyph(font, "\x00")


SAMPLE = {"s": "Ёжик", "d": 999}


def filled(template):
    return re.sub(r"%([sd])", lambda m: str(SAMPLE[m.group(1)]), template)
