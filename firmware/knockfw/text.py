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
# Strings are measured and drawn per code point in native code (@micropython.viper, _draw below),
# so a glyph is never cut: fit() shortens by whole glyphs and marks the cut with an ellipsis.
# In bytecode each glyph cost a lookup, a blit through framebuf's generic per-pixel path and the
# objects a blit call needs, which made a scoreboard slow to draw on an RP2040; here a glyph is
# a few microseconds (bench/bench_fonts.py measures the drawing). On the Pico this module is compiled with mpy-cross -march=armv6m
# (firmware/manifest.py); the unix port compiles it for its own CPU. (Its Python functions stay
# bytecode: one module, one import at boot.)
#
# The panel (fb) is a framebuf.FrameBuffer in MONO_VLSB, as the e-ink drivers' (and the
# simulator's) are, that also has `buf`, `width` and `height`: byte (y // 8) * width + x, bit
# y % 8. A glyph's column byte goes into it whole, shifted across two pages. Only a glyph's ink is
# written: 1 sets the bits (black), 0 clears them (white on black); pixels outside the panel are
# skipped.
import micropython

if __debug__:  # (CPython's const(): MicroPython's compiler knows it, and -O3 drops this import)
    from micropython import const

# UTF-8's first bytes (RFC 3629): below 0x80 a character of its own, 0xC0-0xDF the first of two,
# 0xE0-0xEF of three, 0xF0-0xF7 of four (beyond U+FFFF, where no face has a glyph)
_ASCII_END = const(0x80)
_LEAD3 = const(0xE0)
_LEAD4 = const(0xF0)
_BEYOND = const(0x10000)  # the code point a 4-byte character counts as: in no face's runs


def width(s, font):
    """Width in pixels of s drawn in font."""
    return _draw(None, 0, 0, s, len(s), 0, 0, font, -1)


def draw(fb, s, x, y, font, color=1):
    """Draw s with its top-left corner at (x, y); only ink pixels are written.

    color 1 draws black ink, 0 white ink (for text on a black bar). Returns the width drawn.
    Pixels outside the panel are left out."""
    return _draw(fb.buf, fb.width, fb.height, s, len(s), x, y, font, color) - x


def clear(fb):
    """Blank the whole panel (in native code: quicker than framebuf's fill() on an RP2040)."""
    _fill(fb.buf, len(fb.buf) >> 2, 0)


def fit(s, font, max_w):
    """s if it fits in max_w pixels, else its longest head that fits with an ellipsis after it.

    The cut is always between code points (whole glyphs) and always visible: the result ends
    in "…" (or "." where the font has no "…"). Returns "" if not even the ellipsis fits."""
    if width(s, font) <= max_w:
        return s
    ell = "\u2026" if font[2] else "."  # "…" where the face has it
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


@micropython.viper
def _fill(panel_obj, words: int, value: int):
    """Set the first `words` 32-bit words of the panel's buffer to value (0 or -1)."""
    p = ptr32(panel_obj)
    i = 0
    while i < words:
        p[i] = value
        i += 1


@micropython.viper
def _draw(panel_obj, pw: int, ph: int, s_obj, n: int, x: int, y: int, font_obj, ink: int) -> int:
    """Draw the first n code points of str s with the cell's top-left corner at (x, y) on a
    pw x ph panel; returns the x after the last glyph. ink -1 draws nothing (the width).
    s arrives as the str object itself (its UTF-8 bytes through the buffer protocol) with its
    length in code points, so it is decoded here and never read past its end."""
    p = ptr8(panel_obj if ink >= 0 else font_obj)
    s = ptr8(s_obj)
    f = ptr8(font_obj)
    pages = (f[0] + 7) >> 3  # bytes per glyph column
    table = f[4] | (f[5] << 8)
    last = ph >> 3  # pages of a MONO_VLSB panel
    i = 0
    k = 0
    while k < n:
        b = s[i]
        if b < _ASCII_END:
            c = b
            i += 1
        elif b < _LEAD3:
            c = ((b & 0x1F) << 6) | (s[i + 1] & 0x3F)
            i += 2
        elif b < _LEAD4:
            c = ((b & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F)
            i += 3
        else:
            c = _BEYOND
            i += 4
        # the glyph's number: the runs of code points before c's, and c's place in its run
        r = 6
        g = 0
        while True:
            m = f[r + 2]
            if m == 0:
                g = f[3]  # in no run: the placeholder
                break
            d = c - (f[r] | (f[r + 1] << 8))
            if d >= 0 and d < m:
                g += d
                break
            g += m
            r += 3
        r = table + (g << 1)
        g = f[r] | (f[r + 1] << 8)  # the glyph,
        end = f[r + 2] | (f[r + 3] << 8)  # and where the next one starts
        px = x + (f[g] >> 6)
        x += f[g] & 63
        g += 1
        while g < end and ink >= 0:
            if px >= 0 and px < pw:
                q = 0
                while q < pages:
                    v = f[g + q]
                    top = y + (q << 3)  # panel row of this byte's bit 0
                    if v:
                        # MONO_VLSB: the byte lands on one page, or straddles two
                        page = top >> 3  # floor, also for rows above the panel
                        sh = top & 7
                        if page >= 0 and page < last:
                            a = page * pw + px
                            m = (v << sh) & 0xFF
                            if ink:
                                p[a] = p[a] | m
                            else:
                                p[a] = p[a] & (m ^ 0xFF)
                        if sh and page + 1 >= 0 and page + 1 < last:
                            a = (page + 1) * pw + px
                            m = v >> (8 - sh)
                            if ink:
                                p[a] = p[a] | m
                            else:
                                p[a] = p[a] & (m ^ 0xFF)
                    q += 1
            g += pages
            px += 1
        k += 1
    return x
