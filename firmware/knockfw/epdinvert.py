# Framebuffer -> SSD1680 RAM (the Waveshare panel): its RAM takes 1 for white, the framebuffer
# 1 for ink, so the bytes are inverted in place while they are sent (knockfw/ssd1680.py), as
# @micropython.viper code: far quicker than in bytecode (bench/bench_display.py measures it on
# the emulated RP2040). (The UC8151's conversion is knockfw/epdconv.py: each board's build carries only
# its own.) Native code: compiled with mpy-cross -march=armv6m on the Pico (firmware/manifest.py),
# for its own architecture on the unix port.
import micropython


@micropython.viper
def invert(buf_obj, words: int):
    """Flip every bit of the first `words` 32-bit words of buf, in place."""
    buf = ptr32(buf_obj)
    i = 0
    while i < words:
        buf[i] = buf[i] ^ -1
        i += 1
