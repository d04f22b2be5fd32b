# UC8151 e-ink driver (Pimoroni Badger 2040: 2.9" 296 x 128 panel, mounted landscape; the
# controller's native frame is 128 sources wide x 296 gates tall). Written from the controller's
# command set; facts checked against Pimoroni's uc8151 C++ driver and GxEPD2's IL0373 driver.
#
#   UC8151(spi, cs, dc, rst, busy, full_every=8)   ready machine.SPI / machine.Pin objects
#
# BUSY (the controller's BUSY_N) is LOW while the controller works.
#
# Transfer: the framebuffer (see epd.py) is sent one page at a time into a partial window one
# source byte wide and 296 gate lines tall (PTIN 0x91, PTL 0x90, DTM2 0x13), page p into source
# byte 15 - p, then PTOU 0x92. Source = 127 - y, gate = x; the source shift direction (PSR SHL)
# is the reverse of Pimoroni's upright setting (which sends source = y) to match.
#
# Full refresh: the panel's OTP waveform (PSR REG = 0), 100 Hz frame rate: ~4.5 s, flashes.
# Partial refresh: a short waveform loaded into the LUT registers (PSR REG = 1), 200 Hz: ~0.8 s.
# Its white->white and black->white tables are the same (as are w->b and b->b), so it does not
# depend on the controller's "old" image (DTM1). It ghosts a little: hence a full refresh every
# `full_every` partial ones.
#
# Sequence per show(): [PSR + LUTs if the mode changes] -> data -> PON; then, each time BUSY
# clears: DRF (refresh), POF (power off). busy() sends DRF and POF (see epd.py).
from micropython import const
from knockfw.epd import EPD, PAGES

_PSR = const(0x00)
_PWR = const(0x01)
_POF = const(0x02)
_PFS = const(0x03)
_PON = const(0x04)
_BTST = const(0x06)
_DSLP = const(0x07)
_DSP = const(0x11)
_DRF = const(0x12)
_DTM2 = const(0x13)
_LUT_VCOM = const(0x20)  # then 0x21 WW, 0x22 BW, 0x23 WB, 0x24 BB
_PLL = const(0x30)
_TSE = const(0x41)
_CDI = const(0x50)
_TCON = const(0x60)
_PTL = const(0x90)
_PTIN = const(0x91)
_PTOU = const(0x92)

# PSR: 128x296 (0x80) | black/white only (0x10) | booster on (0x02) | no soft reset (0x01),
# gate scan down (UD = 0), source shift left (SHL = 0); + 0x20 = LUTs from registers.
_PSR_OTP = b"\x93"
_PSR_REG = b"\xb3"
_PLL_100HZ = b"\x3a"
_PLL_200HZ = b"\x39"
# CDI: border and data polarity such that a 1 bit is black (DDX = 00), data interval 0xC.
_CDI_BLACK_1 = b"\x4c"


def _lut(first, middle, last, size):
    # Three groups of [levels of phases A-D (2 bits each: 00 GND, 01 VDH, 10 VDL),
    # frames of phases A-D, repeat count]; the rest of the table is zeros.
    t = bytearray(size)
    t[0:6] = bytes((first, 4, 4, 7, 0, 1))
    t[6:12] = bytes((middle, 12, 12, 0, 0, 2))
    t[12:18] = bytes((last, 4, 4, 7, 0, 2))
    return t


class UC8151(EPD):
    BUSY_LEVEL = 0

    def setup(self):
        self.hw_reset(10, 10)
        self.wait_pin(1000)
        self.cmd(_PWR, b"\x03\x00\x2b\x2b\x2b")  # internal VDS/VDG, VGH/VGL 16 V, VDH/VDL 11 V
        self.cmd(_BTST, b"\x17\x17\x17")  # booster soft start: 10 ms, strength 3, off 6.58 us
        self.cmd(_PSR, _PSR_OTP)
        self.cmd(_PFS, b"\x00")  # power off sequence: 1 frame
        self.cmd(_TSE, b"\x00")  # internal temperature sensor
        self.cmd(_TCON, b"\x22")
        self.cmd(_CDI, _CDI_BLACK_1)
        self.cmd(_PLL, _PLL_100HZ)
        self._fast = False

    def _mode(self, full):
        if full and self._fast:
            self.cmd(_PSR, _PSR_OTP)
            self.cmd(_PLL, _PLL_100HZ)
        elif not full and not self._fast:
            self.cmd(_PSR, _PSR_REG)
            self.cmd(_LUT_VCOM, _lut(0x00, 0x00, 0x00, 44))
            for c in (0x21, 0x22):  # white->white, black->white
                self.cmd(c, _lut(0x54, 0x60, 0xA8, 42))
            for c in (0x23, 0x24):  # white->black, black->black
                self.cmd(c, _lut(0xA8, 0x60, 0x54, 42))
            self.cmd(_PLL, _PLL_200HZ)
        self._fast = not full

    def refresh(self, full):
        self._mode(full)
        self.cmd(_PTIN)
        # PTL: HRST, HRED (source, byte aligned), VRST hi, lo, VRED hi, lo (gate 0..295), PT_SCAN
        win = bytearray(b"\x00\x07\x00\x00\x01\x27\x01")
        for p in range(PAGES):
            win[0] = (15 - p) * 8
            win[1] = win[0] + 7
            self.cmd(_PTL, win)
            self.cmd(_DTM2)
            self.write_page(self.buf, p)
            self.cmd(_DSP)
        self.cmd(_PTOU)
        self.cmd(_PON)
        self._steps = [_DRF, _POF]

    def deep_sleep(self):
        self.cmd(_POF)
        self.wait_pin(1000)
        self.cmd(_DSLP, b"\xa5")  # check code
