# Text for the e-ink screens: draw strings in the fonts of knockfw.fonts (font_to_py modules)
# into any framebuf.FrameBuffer (1-bit, 1 = black).
#
# A font is a generated module (knockfw/fonts/large.py, medium.py, small.py): font.get_ch(ch)
# returns (bitmap, height, width) where bitmap is a memoryview into the module's `bytes`
# constant, one glyph cell of `height` rows by `width` (the advance) columns, mapped MONO_HLSB
# (font.hmap() true) or MONO_VLSB. Cells already include the side bearings, so a string is just
# its cells side by side: no kerning, and every pixel lies inside the box
# (x, y, width(s), height(font)). Characters a font lacks come back as its placeholder glyph
# (a box in medium/small, "?" in large): get_ch never fails.
#
# Strings are walked per code point (MicroPython iterates a str by code point), so a glyph is
# never cut: fit() shortens by whole glyphs and marks the cut with an ellipsis.
#
# Speed: each glyph is one fb.blit() straight from the font's constant bytes (blit accepts a
# (buffer, width, height, format) tuple since MicroPython 1.20), so nothing is copied. For
# font_to_py's sparse fonts (all of ours) the glyph is found by _find() below rather than by the
# module's get_ch(), whose search slices memoryviews: ~500 bytes of garbage per glyph.
import framebuf

_ELLIPSIS = "\u2026"  # "…"; faces without it get "." instead
_NONE = "\x00"  # never in a face: get_ch gives the placeholder for it

_pal = None  # 2x1 palette for white-on-black text, made on first use


def height(font):
    """Height in pixels of every line in this font (the cell height)."""
    return font.height()


def baseline(font):
    """Rows from the top of the cell to the baseline."""
    return font.baseline()


def width(s, font):
    """Width in pixels of s drawn in font."""
    sp = getattr(font, "_sparse", None)
    w = 0
    if sp is None:
        get = font.get_ch
        for ch in s:
            w += get(ch)[2]
        return w
    f = font._font
    for ch in s:
        d = _find(sp, ord(ch))
        w += f[d] | (f[d + 1] << 8)
    return w


def draw(fb, s, x, y, font, color=1):
    """Draw s with its top-left corner at (x, y); only ink pixels are written.

    color 1 draws black ink, 0 white ink (for text on a black bar). Returns the width drawn.
    Pixels outside the framebuffer are clipped by blit."""
    fmt = framebuf.MONO_HLSB if font.hmap() else framebuf.MONO_VLSB
    key = 0
    pal = None
    if not color:
        # blit maps a glyph pixel through the palette, then skips it if it equals key:
        # paper (0) -> 1 = key, skipped; ink (1) -> 0, drawn white.
        key = 1
        pal = _palette()
    sp = getattr(font, "_sparse", None)
    x0 = x
    if sp is None or not font.hmap():
        get = font.get_ch
        for ch in s:
            buf, h, w = get(ch)
            fb.blit((buf, w, h, fmt), x, y, key, pal)
            x += w
        return x - x0
    f = font._font
    mv = font._mvfont
    h = font.height()
    for ch in s:
        d = _find(sp, ord(ch))
        w = f[d] | (f[d + 1] << 8)
        d += 2
        fb.blit((mv[d:d + ((w + 7) >> 3) * h], w, h, fmt), x, y, key, pal)
        x += w
    return x - x0


def _find(sp, c):
    # Offset of code point c's glyph in font._font (0 = the placeholder): a binary search of
    # font_to_py's sparse index, 4 bytes an entry sorted by code point: code (u16 LE), offset/8
    # (u16 LE). It does what the module's get_ch() does, without allocating.
    lo = 0
    hi = len(sp) >> 2
    while lo < hi:
        m = (lo + hi) >> 1
        i = m << 2
        v = sp[i] | (sp[i + 1] << 8)
        if v == c:
            return (sp[i + 2] | (sp[i + 3] << 8)) << 3
        if v < c:
            lo = m + 1
        else:
            hi = m
    return 0


def _palette():
    global _pal
    if _pal is None:
        _pal = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        _pal.pixel(0, 0, 1)
        _pal.pixel(1, 0, 0)
    return _pal


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


def draw_in_box(fb, s, x, y, w, h, font, align="left", color=1):
    """Draw s inside the box (x, y, w, h): shortened with fit() to w, aligned "left", "center"
    or "right", and centred vertically (a box lower than the font keeps its top at y).

    Does not clear the box. Returns the width drawn."""
    tw = width(s, font)
    if tw > w:
        s = fit(s, font, w)
        tw = width(s, font)
    if align == "center":
        x += (w - tw) // 2
    elif align == "right":
        x += w - tw
    fh = font.height()
    if h > fh:
        y += (h - fh) // 2
    return draw(fb, s, x, y, font, color)
