# Text in native code (@micropython.viper): the per-character work behind knockfw.text.
#
# In bytecode each glyph cost ~250 us on an RP2040 (a lookup, a blit through framebuf's generic
# per-pixel path, the objects a blit call needs), so a scoreboard took ~50 ms to draw; here a
# glyph is a few microseconds. Native code: on the Pico this module is compiled with
# mpy-cross -march=armv6m (firmware/manifest.py); the unix port compiles it for its own CPU.
#
# A font is a face of knockfw/fonts.py in the layout knockfw/text.py describes: a header, runs
# of code points (a code point no run holds gets the placeholder), a glyph table, and each glyph
# as its advance and lead then its ink's columns of (height + 7) // 8 bytes, top to bottom,
# least significant bit on top (so a byte goes into the MONO_VLSB panel whole, shifted across
# two pages).
#
# A string arrives as the str object itself (its UTF-8 bytes through the buffer protocol) with
# its length in code points, so it is decoded here and never read past its end.
#
# The panel is 1 bit a pixel, MONO_VLSB (the e-ink drivers', and the simulator's: byte
# (y // 8) * width + x, bit y % 8). Only a glyph's ink is written: 1 sets the bits (black), 0
# clears them (white on black); pixels outside the panel are skipped.
import micropython


@micropython.viper
def fill(panel_obj, words: int, value: int):
    """Set the first `words` 32-bit words of the panel's buffer to value (0 or -1)."""
    p = ptr32(panel_obj)
    i = 0
    while i < words:
        p[i] = value
        i += 1


@micropython.viper
def draw(panel_obj, pw: int, ph: int, s_obj, n: int, x: int, y: int, font_obj, ink: int) -> int:
    """Draw the first n code points of str s with the cell's top-left corner at (x, y) on a
    pw x ph panel; returns the x after the last glyph. ink -1 draws nothing (the width)."""
    p = ptr8(panel_obj if ink >= 0 else font_obj)
    s = ptr8(s_obj)
    f = ptr8(font_obj)
    pages = (f[0] + 7) >> 3     # bytes per glyph column
    table = f[4] | (f[5] << 8)
    last = ph >> 3              # pages of a MONO_VLSB panel
    i = 0
    k = 0
    while k < n:
        b = s[i]
        if b < 0x80:
            c = b
            i += 1
        elif b < 0xE0:
            c = ((b & 0x1F) << 6) | (s[i + 1] & 0x3F)
            i += 2
        elif b < 0xF0:
            c = ((b & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F)
            i += 3
        else:
            c = 0x10000
            i += 4
        # the glyph's number: the runs of code points before c's, and c's place in its run
        r = 6
        g = 0
        while True:
            m = f[r + 2]
            if m == 0:
                g = f[3]            # in no run: the placeholder
                break
            d = c - (f[r] | (f[r + 1] << 8))
            if d >= 0 and d < m:
                g += d
                break
            g += m
            r += 3
        r = table + (g << 1)
        g = f[r] | (f[r + 1] << 8)      # the glyph,
        end = f[r + 2] | (f[r + 3] << 8)    # and where the next one starts
        px = x + (f[g] >> 6)
        x += f[g] & 63
        g += 1
        while g < end and ink >= 0:
            if px >= 0 and px < pw:
                q = 0
                while q < pages:
                    v = f[g + q]
                    top = y + (q << 3)          # panel row of this byte's bit 0
                    if v:
                        # MONO_VLSB: the byte lands on one page, or straddles two
                        page = top >> 3         # floor, also for rows above the panel
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
