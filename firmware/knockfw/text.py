# Text for the e-ink screens: draw strings in the fonts of knockfw.fonts (font_to_py's
# conversion of DejaVu Sans) into any framebuf.FrameBuffer (1-bit, 1 = black).
#
# A font is a Face (below; the faces large, medium, small are generated in knockfw/fonts.py):
# font.get_ch(ch) returns (bitmap, height, width) where bitmap is a memoryview into the face's `bytes`
# constant, one glyph cell of `height` rows by `width` (the advance) columns, mapped vertically
# (column by column, least significant bit on top). Cells already include the side bearings, so
# a string is just its cells side by side: no kerning, and every pixel lies inside the box
# (x, y, width(s), height(font)). Characters a font lacks come back as its placeholder glyph
# (a box in medium/small, "?" in large): get_ch never fails.
#
# Strings are measured and drawn per code point by knockfw.glyphs (native code), so a glyph is
# never cut: fit() shortens by whole glyphs and marks the cut with an ellipsis.
#
# The panel (fb) is a framebuf.FrameBuffer that also has `buf`, `width` and `height`, and is
# MONO_VLSB like the e-ink drivers unless it says `vlsb = False` (MONO_HLSB, the simulator).
from knockfw import glyphs

_ELLIPSIS = "\u2026"  # "…"; faces without it get "." instead
_NONE = "\x00"  # never in a face: get_ch gives the placeholder for it


class Face:
    # One face of knockfw/fonts.py, in font_to_py's vertical, sparse layout. _font: each glyph as
    # its width (16-bit little-endian) then its columns, each (height + 7) // 8 bytes top to
    # bottom, bit 0 on top, at offsets that are multiples of 8; _sparse: 4 bytes a glyph (code
    # point, offset // 8, 16-bit little-endian), sorted by code point; a code point not there
    # gets the glyph at 0, the placeholder. get_ch() is font_to_py's own lookup.
    def __init__(self, height, baseline, max_width, font, sparse):
        self._height = height
        self._baseline = baseline
        self._max_width = max_width
        self._font = font
        self._sparse = sparse

    def height(self):
        return self._height

    def baseline(self):
        return self._baseline

    def max_width(self):
        return self._max_width

    def get_ch(self, ch):
        lst = memoryview(self._sparse)
        val = ord(ch)
        doff = 0
        while True:     # binary search of the index
            m = (len(lst) & ~7) >> 1
            v = lst[m] | (lst[m + 1] << 8)
            if v == val:
                doff = (lst[m + 2] | (lst[m + 3] << 8)) << 3
                break
            if not m:
                break
            lst = lst[m:] if v < val else lst[:m]
        f = memoryview(self._font)
        width = f[doff] | (f[doff + 1] << 8)
        end = doff + 2 + ((self._height - 1) // 8 + 1) * width
        return f[doff + 2:end], self._height, width


def height(font):
    """Height in pixels of every line in this font (the cell height)."""
    return font.height()


def baseline(font):
    """Rows from the top of the cell to the baseline."""
    return font.baseline()


def width(s, font):
    """Width in pixels of s drawn in font."""
    sp = font._sparse
    return glyphs.width(s, len(s), font._font, sp, len(sp) >> 2)


def draw(fb, s, x, y, font, color=1):
    """Draw s with its top-left corner at (x, y); only ink pixels are written.

    color 1 draws black ink, 0 white ink (for text on a black bar). Returns the width drawn.
    Pixels outside the panel are left out."""
    sp = font._sparse
    return glyphs.draw(fb.buf, fb.width, fb.height, getattr(fb, "vlsb", True), s, len(s), x, y,
                       font._font, sp, len(sp) >> 2, font.height(), color) - x


def clear(fb):
    """Blank the whole panel (framebuf's fill() takes ~4 ms on an RP2040, this ~0.4 ms)."""
    glyphs.fill(fb.buf, len(fb.buf) >> 2, 0)


def has(font, ch):
    """True if font has its own glyph for ch (not the placeholder)."""
    g = font.get_ch(ch)
    p = font.get_ch(_NONE)
    return g[2] != p[2] or bytes(g[0]) != bytes(p[0])


def fit(s, font, max_w):
    """s if it fits in max_w pixels, else its longest head that fits with an ellipsis after it.

    The cut is always between code points (whole glyphs) and always visible: the result ends
    in "…" (or "." where the font has no "…"). Returns "" if not even the ellipsis fits."""
    if width(s, font) <= max_w:
        return s
    ell = _ELLIPSIS if has(font, _ELLIPSIS) else "."
    room = max_w - width(ell, font)
    if room < 0:
        return ""
    used = 0
    n = 0
    for ch in s:
        w = width(ch, font)
        if used + w > room:
            break
        used += w
        n += 1
    return s[:n].rstrip() + ell
