# Helpers for driver tests under MicroPython: build a driver on a model, draw test patterns,
# compare what the model shows with the framebuffer.
from fakes.bus import wire
from fakes.model import ROW, new_image, set_px, get_px


def make(kind, busy_polls=3, refresh_polls=10, full_every=8):
    if kind == "uc8151":
        from fakes.uc8151_model import UC8151Model as M
        from knockfw.uc8151 import UC8151 as D
    else:
        from fakes.ssd1680_model import SSD1680Model as M
        from knockfw.ssd1680 import SSD1680 as D
    model = M(busy_polls, refresh_polls)
    spi, cs, dc, rst, busy = wire(model)
    drv = D(spi, cs, dc, rst, busy, full_every=full_every)
    return drv, model


def pattern(fb, n=0):
    """Asymmetric test image: every flip or rotation of it differs from it."""
    fb.fill(0)
    fb.fill_rect(0, 0, 12, 12, 1)  # top-left: big square
    fb.fill_rect(280, 0, 16, 4, 1)  # top-right: flat bar
    fb.fill_rect(0, 110, 3, 18, 1)  # bottom-left: thin post
    fb.pixel(295, 127, 1)  # bottom-right: one dot
    fb.text("Knock %d" % n, 40, 30, 1)
    fb.text("gin 25 box", 150, 100, 1)
    fb.rect(100, 60, 50, 30, 1)
    fb.line(20, 120, 200, 5, 1)
    fb.hline(0, 64, 296 - 8 * n, 1)


def landscape(fb):
    """The framebuffer as a packed image (see fakes.model.new_image)."""
    img = new_image()
    for y in range(128):
        for x in range(296):
            if fb.pixel(x, y):
                set_px(img, x, y)
    return img


def mismatches(a, b):
    """Number of pixels that differ between two packed images."""
    n = 0
    for i in range(len(a)):
        d = a[i] ^ b[i]
        while d:
            d &= d - 1
            n += 1
    return n


def flip_h(img):
    out = new_image()
    for y in range(128):
        for x in range(296):
            if get_px(img, 295 - x, y):
                set_px(out, x, y)
    return out


def flip_v(img):
    out = new_image()
    for y in range(128):
        out[y * ROW : (y + 1) * ROW] = img[(127 - y) * ROW : (128 - y) * ROW]
    return out


def save(img, path):
    with open(path, "wb") as f:
        f.write(img)


def run_until_idle(drv, limit=1000):
    polls = 0
    while drv.busy():
        polls += 1
        if polls > limit:
            raise RuntimeError("display never idle")
    return polls
