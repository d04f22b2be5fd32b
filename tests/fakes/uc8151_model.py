# A model of the UC8151 as the driver uses it: registers, partial window, DTM2 into SRAM, power,
# refresh, deep sleep, BUSY_N (low = busy). It decodes the command stream back into the
# controller's RAM and into the image a viewer sees on the Badger 2040.
#
# Orientation anchor (from Pimoroni's Badger 2040 driver, whose image is upright): with PSR
# SHL = 1 (shift right) and UD = 0, landscape pixel (x, y) is RAM gate line x, source y. SHL = 0
# mirrors the source axis (source 127 - y), UD = 1 the gate axis (gate 295 - x).
# Pixel polarity: CDI DDX = 00 -> a 1 bit is black; DDX = 01 -> a 1 bit is white.
from fakes.model import Model, new_image, set_px

GATES = 296
SOURCE_BYTES = 16


class UC8151Model(Model):
    BUSY_LEVEL = 0

    def por(self):
        self.ram = bytearray(GATES * SOURCE_BYTES)
        self.psr = 0x0F  # datasheet default: RES 96x230, LUT from OTP, KWR, UD/SHL 1, booster
        self.cdi = 0xD7
        self.pll = 0x3C
        self.luts = {}
        self.powered = False
        self.partial = False
        self.window = (0, 127, 0, GATES - 1)
        self.ptr = None

    def start(self, c):
        if c == 0x04:  # PON
            self.powered = True
            self.go_busy(self.busy_polls)
        elif c == 0x02:  # POF
            self.powered = False
            self.go_busy(self.busy_polls)
        elif c == 0x12:  # DRF
            self.refresh()
        elif c == 0x91:
            self.partial = True
        elif c == 0x92:
            self.partial = False
        elif c == 0x13:  # DTM2: cursor to the window's start
            hs, he, vs, ve = self.area()
            self.ptr = [vs, hs // 8]

    def area(self):
        if self.partial:
            return self.window
        return (0, 127, 0, GATES - 1)

    def stream(self, c, buf):
        if c != 0x13:
            return False
        hs, he, vs, ve = self.area()
        g, b = self.ptr
        for v in bytes(buf):
            if g > ve:
                self.error("DTM2 data past the window")
                break
            self.ram[g * SOURCE_BYTES + b] = v
            b += 1
            if b > he // 8:
                b = hs // 8
                g += 1
        self.ptr = [g, b]
        return True

    def end(self, c, a):
        if c == 0x00 and len(a) >= 1:
            self.psr = a[0]
        elif c == 0x50 and len(a) == 1:
            self.cdi = a[0]
        elif c == 0x30 and len(a) == 1:
            self.pll = a[0]
        elif 0x20 <= c <= 0x24:
            self.luts[c] = a
        elif c == 0x90:
            if len(a) != 7:
                self.error("PTL takes 7 bytes, got %d" % len(a))
                return
            hs, he = a[0] & 0xF8, a[1] | 0x07
            vs, ve = (a[2] << 8) | a[3], (a[4] << 8) | a[5]
            if he < hs or ve < vs or he > 127 or ve >= GATES:
                self.error("bad partial window %r" % ((hs, he, vs, ve),))
            self.window = (hs, he, vs, ve)
        elif c == 0x07:
            if a == b"\xa5":
                if self.powered:
                    self.error("deep sleep with the power on")
                self.asleep = True
            else:
                self.error("DSLP without check code 0xA5")

    def refresh(self):
        if not self.powered:
            self.error("DRF with the power off")
        if self.psr & 0x80 != 0x80 or self.psr & 0x10 == 0:
            self.error("PSR not 128x296 black/white: 0x%02x" % self.psr)
        if self.psr & 0x20:
            kind = "fast"
            for t in range(0x20, 0x25):
                want = 44 if t == 0x20 else 42
                if len(self.luts.get(t, b"")) != want:
                    self.error("LUT 0x%02x missing or not %d bytes" % (t, want))
        else:
            kind = "full"
        self.refreshed(kind)
        self.go_busy(self.refresh_polls)

    def viewer(self):
        """The image on the panel: packed landscape 296 x 128 (see model.new_image)."""
        shl = self.psr & 0x04
        ud = self.psr & 0x08
        one_black = 1 if (self.cdi >> 4) & 3 == 0 else 0
        img = new_image()
        for x in range(self.WIDTH):
            g = GATES - 1 - x if ud else x
            row = g * SOURCE_BYTES
            for y in range(self.HEIGHT):
                s = y if shl else 127 - y
                bit = (self.ram[row + (s >> 3)] >> (7 - (s & 7))) & 1
                if bit == one_black:
                    set_px(img, x, y)
        return img
