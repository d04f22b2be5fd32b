# A model of the SSD1680 as the driver uses it: RAM window and address counters with the data
# entry modes, the two RAMs (0x24 black/white "current", 0x26 red/"previous"), display update
# control, LUT register, deep sleep, BUSY (high = busy). It decodes the command stream back into
# RAM and into the image a viewer sees on the Waveshare Pico-ePaper-2.9 held landscape.
#
# Orientation anchor (Waveshare's landscape code, gate scan G0 first): landscape pixel (x, y) is
# RAM Y = x, RAM X (pixel) = 127 - y; with TB = 1 in 0x01 the gate axis is reversed.
# Pixel polarity: RAM bit 1 = white, 0 = black; 0x21 A[3:0] = 8 inverts the BW RAM.
# Deep sleep (0x10 with mode 1 or 2): BUSY stays high and every command is ignored until a
# hardware reset (datasheet: "BUSY pad will keep output high" in deep sleep).
from fakes.model import Model, new_image, set_px

ROWS = 296
XBYTES = 16


class SSD1680Model(Model):
    BUSY_LEVEL = 1

    def poll_busy(self):
        busy = Model.poll_busy(self)
        return busy or self.asleep

    def por(self):
        self.bw = bytearray(ROWS * XBYTES)
        self.red = bytearray(ROWS * XBYTES)
        self.entry = 0x03
        self.xwin = (0, XBYTES - 1)
        self.ywin = (0, ROWS - 1)
        self.xc = 0
        self.yc = 0
        self.gates = ROWS
        self.tb = 0
        self.update1 = (0x00, 0x00)
        self.update2 = 0xFF
        self.lut = None  # register LUT loaded with 0x32 (None: the OTP one)
        self.shown = None  # BW RAM at the last refresh: what the panel shows
        self.target = None

    def start(self, c):
        if c == 0x12:
            self.por()
            self.go_busy(self.busy_polls)
        elif c == 0x20:
            self.activate()
        elif c in (0x24, 0x26):
            self.target = self.bw if c == 0x24 else self.red

    def stream(self, c, buf):
        if c == 0x10:  # deep sleep takes effect with its data byte
            self.args.extend(buf)
            if self.args[0] & 3:
                self.asleep = True
            return True
        if c not in (0x24, 0x26):
            return False
        ram = self.target
        xs, xe = self.xwin
        ys, ye = self.ywin
        dx = 1 if self.entry & 1 else -1
        dy = 1 if self.entry & 2 else -1
        y_first = self.entry & 4
        for v in bytes(buf):
            if not (0 <= self.xc < XBYTES and 0 <= self.yc < ROWS):
                self.error("RAM address out of range")
                break
            ram[self.yc * XBYTES + self.xc] = v
            if y_first:
                if self.yc == ye:
                    self.yc = ys
                    self.xc = self.xc + dx if self.xc != xe else xs
                else:
                    self.yc += dy
            else:
                if self.xc == xe:
                    self.xc = xs
                    self.yc = self.yc + dy if self.yc != ye else ys
                else:
                    self.xc += dx
        return True

    def end(self, c, a):
        if c == 0x01 and len(a) == 3:
            self.gates = (a[0] | (a[1] << 8)) + 1
            self.tb = a[2] & 1
        elif c == 0x11 and len(a) == 1:
            self.entry = a[0] & 7
        elif c == 0x44 and len(a) == 2:
            self.xwin = (a[0] & 0x3F, a[1] & 0x3F)
        elif c == 0x45 and len(a) == 4:
            self.ywin = (a[0] | ((a[1] & 1) << 8), a[2] | ((a[3] & 1) << 8))
        elif c == 0x4E and len(a) == 1:
            self.xc = a[0] & 0x3F
        elif c == 0x4F and len(a) == 2:
            self.yc = a[0] | ((a[1] & 1) << 8)
        elif c == 0x21 and len(a) == 2:
            self.update1 = (a[0], a[1])
        elif c == 0x22 and len(a) == 1:
            self.update2 = a[0]
        elif c == 0x32:
            if len(a) != 153:
                self.error("LUT must be 153 bytes, got %d" % len(a))
            self.lut = a
        elif c == 0x10 and len(a) == 1:
            if a[0] & 3:
                self.asleep = True

    def activate(self):
        u = self.update2
        if not u & 0x04:
            self.go_busy(self.busy_polls)
            return
        if u & 0xC0 != 0xC0:
            self.error("display without clock and analog enabled: 0x%02x" % u)
        if self.gates != ROWS:
            self.error("driver output not 296 gates")
        if u & 0x10:
            self.lut = None  # the OTP waveform is loaded over the register
        if u & 0x08:
            kind = "partial"
            if u & 0x10 == 0 and self.lut is None:
                self.error("mode 2 refresh without a waveform in the LUT register")
            if self.shown is None or bytes(self.red) != self.shown:
                self.error("previous RAM (0x26) does not hold the image on the panel")
        else:
            kind = "full"
        self.shown = bytes(self.bw)
        self.refreshed(kind)
        self.go_busy(self.refresh_polls)

    def viewer(self):
        """The image on the panel: packed landscape 296 x 128 (see model.new_image)."""
        inv = 1 if (self.update1[0] & 0x0F) == 0x08 else 0
        img = new_image()
        for x in range(self.WIDTH):
            row = (ROWS - 1 - x if self.tb else x) * XBYTES
            for y in range(self.HEIGHT):
                px = 127 - y
                bit = (self.bw[row + (px >> 3)] >> (7 - (px & 7))) & 1
                if bit == inv:
                    set_px(img, x, y)
        return img
