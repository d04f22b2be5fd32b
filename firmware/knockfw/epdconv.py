# Framebuffer -> UC8151 RAM (the Badger's panel): the layout conversion, as @micropython.viper
# code: many times quicker than a per-byte loop in bytecode on an RP2040 (bench/bench_display.py
# measures it on the emulated Pico). (The SSD1680's conversion, a plain inversion, is
# knockfw/epdinvert.py: each board's build carries only its own.) Native code: on the Pico this
# module is compiled with mpy-cross -march=armv6m (firmware/manifest.py); the unix port compiles
# it for its own architecture.
#
# The framebuffer (see epd.py) is MONO_VLSB, 296 x 128: byte p * 296 + x holds the pixels
# (x, 8p) .. (x, 8p + 7), bit 0 on top.
import micropython

if __debug__:  # (CPython's const(): MicroPython's compiler knows it, and -O3 drops this import)
    from micropython import const

_W = const(296)  # the framebuffer's width: the bytes of one page (8 rows)


# The buffers come in as objects and are cast inside (viper takes any object with the buffer
# protocol), so callers pass bytearrays without type-checker noise.


@micropython.viper
def columns(dst_buf, src_buf, rev_buf, x0: int, n: int):
    """Gate lines x0 .. x0 + n - 1 in the UC8151's full-frame DTM2 order (Pimoroni's upright
    layout: 16 bytes per landscape column x, byte j = rows 8j .. 8j + 7, most significant bit on
    top) into dst (n * 16 bytes, word aligned): dst byte 16 * (x - x0) + j = rev[src[j * 296 + x]],
    rev being the bit-reversal table."""
    dst = ptr32(dst_buf)
    src = ptr8(src_buf)
    rev = ptr8(rev_buf)
    o = 0
    x = x0
    end = x0 + n
    while x < end:
        s = x
        k = 0
        while k < 4:  # one 32-bit word = pages 4k .. 4k + 3, lowest address first
            dst[o] = (
                rev[src[s]]
                | (rev[src[s + _W]] << 8)
                | (rev[src[s + 2 * _W]] << 16)
                | (rev[src[s + 3 * _W]] << 24)
            )
            o += 1
            s += 4 * _W
            k += 1
        x += 1


def reversal():
    """The bit-reversal table of a byte (256 bytes) that columns() takes."""
    t = bytearray(256)
    for b in range(256):
        # swap nibbles, then pairs, then neighbours
        r = ((b & 0x0F) << 4) | (b >> 4)
        r = ((r & 0x33) << 2) | ((r >> 2) & 0x33)
        t[b] = ((r & 0x55) << 1) | ((r >> 1) & 0x55)
    return t
