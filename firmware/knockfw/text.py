# Text for the e-ink screens: draw strings in the fonts of knockfw.fonts (font_to_py's
# conversion of DejaVu Sans) into any framebuf.FrameBuffer (1-bit, 1 = black).
#
# A font (a face: large, medium, small, generated in knockfw/fonts.py by
# tools/fonts/gen_fonts.py) is one bytes object; little-endian 16-bit numbers:
#   [0] the cell's height in rows, [1] its baseline (rows above it), [2] 1 if the face has "…",
#   [3] the placeholder's glyph number, [4:6] where the glyph table starts;
#   [6:] the code points it has, as runs (first code point, 16 bits; count, 8 bits), a count of
#   0 after the last: glyph numbers go through the runs in order;
#   the glyph table: each glyph's offset in the face, and after the last one where it ends;
#   a glyph: a byte advance | lead << 6 (its width in pixels; blank columns before its ink),
#   then its ink's columns, (height + 7) // 8 bytes each, top to bottom, least significant bit
#   on top (font_to_py's vertical mapping; the blank columns at its sides are not stored).
# A glyph's cell is (advance, height): a string is just its cells side by side, no kerning, and
# every pixel lies inside the box (x, y, width(s), height). Characters a face lacks are drawn
# as its placeholder (a box in medium/small, "?" in large).
#
# Strings are measured and drawn per code point by knockfw.glyphs (native code), so a glyph is
# never cut: fit() shortens by whole glyphs and marks the cut with an ellipsis.
#
# The panel (fb) is a framebuf.FrameBuffer in MONO_VLSB, as the e-ink drivers' (and the
# simulator's) are, that also has `buf`, `width` and `height`.
from knockfw import glyphs

_ELLIPSIS = "\u2026"  # "…"; faces without it get "." instead


def width(s, font):
    """Width in pixels of s drawn in font."""
    return glyphs.draw(None, 0, 0, s, len(s), 0, 0, font, -1)


def draw(fb, s, x, y, font, color=1):
    """Draw s with its top-left corner at (x, y); only ink pixels are written.

    color 1 draws black ink, 0 white ink (for text on a black bar). Returns the width drawn.
    Pixels outside the panel are left out."""
    return glyphs.draw(fb.buf, fb.width, fb.height, s, len(s), x, y, font, color) - x


def clear(fb):
    """Blank the whole panel (framebuf's fill() takes ~4 ms on an RP2040, this ~0.4 ms)."""
    glyphs.fill(fb.buf, len(fb.buf) >> 2, 0)


def fit(s, font, max_w):
    """s if it fits in max_w pixels, else its longest head that fits with an ellipsis after it.

    The cut is always between code points (whole glyphs) and always visible: the result ends
    in "…" (or "." where the font has no "…"). Returns "" if not even the ellipsis fits."""
    if width(s, font) <= max_w:
        return s
    ell = _ELLIPSIS if font[2] else "."
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
