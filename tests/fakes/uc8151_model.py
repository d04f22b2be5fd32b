# A model of the UC8151 as the driver uses it: registers, partial window, DTM2 into SRAM, power,
# refresh, deep sleep, BUSY_N (low = busy). It decodes the command stream back into the
# controller's RAM and into the image a viewer sees on the Badger 2040.
#
# Orientation anchor (from Pimoroni's Badger 2040 driver, whose image is upright): with PSR
# SHL = 1 (shift right) and UD = 0, landscape pixel (x, y) is RAM gate line x, source y. SHL = 0
# mirrors the source axis (source 127 - y), UD = 1 the gate axis (gate 295 - x).
# Pixel polarity: CDI DDX = 00 -> a 1 bit is black; DDX = 01 -> a 1 bit is white.
# Partial windows (PTIN/PTL) are only accepted the way vendor code uses them (Pimoroni's
# partial_update(): SHL = 1); how the chip maps a window with the source shift reversed is not
# documented, so the model flags it.
# Timing: each refresh's length is computed from its waveform and the frame rate (PLL, values
# of Pimoroni's PLL_FLAGS): register LUTs = sum over groups of (frames of phases A-D) x repeat;
# the OTP waveform = 4.5 s (Pimoroni's update_time() for it). refresh_ms lists them.
from fakes.model import Model, new_image, set_px

GATES = 296
SOURCE_BYTES = 16
PLL_HZ = {0x3F: 29, 0x3E: 33, 0x3D: 40, 0x3C: 50, 0x3B: 67, 0x3A: 100, 0x39: 200}
OTP_MS = 4500


def lut_frames(table):
    """Frames of a register LUT: per group of 6 bytes, (A + B + C + D) x repeat count."""
    n = 0
    for g in range(0, len(table) - 5, 6):
        n += sum(table[g + 1 : g + 5]) * table[g + 5]
    return n


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
        self.frame_bytes = 0  # DTM2 bytes since the last DTM2 command
        self.refresh_ms = []  # length of each refresh (see the header)

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
            self.frame_bytes = 0
            if self.partial and not self.psr & 0x04:
                self.error(
                    "partial window with the source shift reversed (PSR SHL = 0): "
                    "no vendor code drives the UC8151 this way"
                )

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
            self.frame_bytes += 1
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
        if not self.partial and self.frame_bytes != GATES * SOURCE_BYTES:
            self.error("DRF after %d bytes of a full frame (4736)" % self.frame_bytes)
        hz = PLL_HZ.get(self.pll)
        if hz is None:
            self.error("PLL 0x%02x is not a frame rate the vendor uses" % self.pll)
            hz = 50
        if self.psr & 0x20:
            kind = "fast"
            frames = 0
            for t in range(0x20, 0x25):
                want = 44 if t == 0x20 else 42
                if len(self.luts.get(t, b"")) != want:
                    self.error("LUT 0x%02x missing or not %d bytes" % (t, want))
                frames = max(frames, lut_frames(self.luts.get(t, b"")))
            self.refresh_ms.append(frames * 1000 // hz)
        else:
            kind = "full"
            self.refresh_ms.append(OTP_MS)
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
