# UC8151 e-ink driver (Pimoroni Badger 2040: 2.9" 296 x 128 panel, mounted landscape; the
# controller's native frame is 128 sources wide x 296 gates tall). Written from the controller's
# command set; every setting below was compared line by line with Pimoroni's own drivers
# (pimoroni-pico drivers/uc8151_legacy/uc8151_legacy.cpp, which their badger2040 library
# uses, and drivers/uc8151/uc8151.cpp; "Pimoroni" below means those two files).
#
#   UC8151(spi, cs, dc, rst, busy, full_every=8)   ready machine.SPI / machine.Pin objects
#
# BUSY (the controller's BUSY_N) is LOW while the controller works: with the board's pull-up, a
# panel that is not there reads idle (epd.py's header says how that is noticed).
#
# Layout (Pimoroni's upright image): PSR gate scan down (UD = 0) and source shift right
# (SHL = 1), as Pimoroni's setup() for rotation 0; the frame is sent whole with DTM2 (no partial
# window), in the byte order of Pimoroni's framebuffer: 16 bytes per gate line (landscape column
# x), byte j = rows 8j .. 8j + 7 with the most significant bit on top (uc8151_legacy pixel():
# byte y / 8 + x * 16, bit 7 - (y & 7)). Our framebuffer is MONO_VLSB (epd.py), so each frame is
# transposed and bit-reversed by epdconv.columns() into a 1,184-byte buffer, 74 gate lines at a
# time (4 SPI writes a frame).
#
# Full refresh: the panel's OTP waveform (PSR REG = 0): ~4.5 s, flashes (Pimoroni: 4500 ms).
# Partial refresh: Pimoroni's "fast" waveform loaded into the LUT registers (PSR REG = 1):
# 93 frames, ~0.9 s (Pimoroni: 800 ms); show(quick=True): Pimoroni's "turbo" one, 26 frames,
# ~0.26 s (Pimoroni: 250 ms), which ghosts more. Frame rate: 100 Hz (PLL 0x3A) for every
# waveform: Pimoroni's fast_luts() / turbo_luts() write PLL 200 Hz, but their setup() writes
# PLL 100 Hz after them, so 100 Hz is what their fast and turbo modes really run at (a Rust port
# for the Badger that kept 200 Hz reverted it as not working). Their white->white and
# black->white tables are the same (as are w->b and b->b), so neither depends on the
# controller's "old" image (DTM1). They ghost: hence a full refresh every `full_every` partials.
#
# Sequence per show(): [PSR + LUTs when the waveform changes] -> DTM2 + frame -> DSP -> PON;
# then, each time BUSY clears: DRF (refresh), POF (power off). busy() sends DRF and POF; before
# the Badger cuts its power, finish() leaves the POF out (epd.py).
from micropython import const
from knockfw.epd import EPD, WIDTH
from knockfw import epdconv

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

# PSR (Pimoroni's PSR_FLAGS): RES_128x296 0x80 | FORMAT_BW 0x10 | SHIFT_RIGHT 0x04 | SCAN_DOWN 0 |
# BOOSTER_ON 0x02 | RESET_NONE 0x01, + LUT_REG 0x20 for a waveform from the LUT registers.
_PSR_OTP = b"\x97"
_PSR_REG = b"\xb7"
_PLL_100HZ = b"\x3a"  # Pimoroni HZ_100
# CDI: Pimoroni's non-inverted 0b01_00_1100: border, a 1 bit is black (DDX = 00), interval 0xC.
_CDI_BLACK_1 = b"\x4c"
_LINES = const(74)  # gate lines converted and sent per SPI write (4 writes a frame)

# Waveforms: frames of phases A-D and the repeat count of the 3 groups Pimoroni uses (the rest of
# each table is zeros); levels per table below. fast_luts() and turbo_luts().
_FAST = b"\x04\x04\x07\x00\x01\x0c\x0c\x00\x00\x02\x04\x04\x07\x00\x02"
_TURBO = b"\x01\x01\x02\x00\x01\x02\x02\x00\x00\x02\x02\x02\x03\x00\x02"
# Levels of phases A-D (2 bits each: 00 GND, 01 VDH, 10 VDL) per group: VCOM; WW = BW; WB = BB.
_VCOM = b"\x00\x00\x00"
_TO_WHITE = b"\x54\x60\xa8"
_TO_BLACK = b"\xa8\x60\x54"


def _lut(levels, timing, size):
    t = bytearray(size)
    for g in range(3):
        t[6 * g] = levels[g]
        t[6 * g + 1 : 6 * g + 6] = timing[5 * g : 5 * g + 5]
    return t


class UC8151(EPD):
    BUSY_LEVEL = 0
    REFRESH = _DRF
    OFF = _POF
    _mode = 0  # waveform in the controller: 0 OTP (full), 1 fast, 2 turbo

    def setup(self):
        # Pimoroni reset(): RST low 10 ms, high 10 ms, then wait for BUSY_N.
        self.hw_reset(10, 10)
        self._ready(1000)
        self.cmd(_PSR, _PSR_OTP)
        self.cmd(_PWR, b"\x03\x00\x2b\x2b\x2b")  # VDS/VDG internal, VGH/VGL 16 V, VDH/VDL 11 V
        self.cmd(_BTST, b"\x17\x17\x17")  # booster soft start: 10 ms, strength 3, off 6.58 us
        self.cmd(_PFS, b"\x00")  # power off sequence: 1 frame
        self.cmd(_TSE, b"\x00")  # internal temperature sensor, offset 0
        self.cmd(_TCON, b"\x22")
        self.cmd(_CDI, _CDI_BLACK_1)
        self.cmd(_PLL, _PLL_100HZ)
        self._mode = 0
        if getattr(self, "_chunk", None) is None:
            self._chunk = bytearray(_LINES * 16)
            self._rev = epdconv.reversal()

    def _waveform(self, mode):
        if mode == self._mode:
            return
        if mode == 0:
            self.cmd(_PSR, _PSR_OTP)
        else:
            timing = _TURBO if mode == 2 else _FAST
            self.cmd(_PSR, _PSR_REG)
            self.cmd(_LUT_VCOM, _lut(_VCOM, timing, 44))
            for c in (0x21, 0x22):  # white->white, black->white
                self.cmd(c, _lut(_TO_WHITE, timing, 42))
            for c in (0x23, 0x24):  # white->black, black->black
                self.cmd(c, _lut(_TO_BLACK, timing, 42))
        self._mode = mode

    def send_frame(self):
        """DTM2 and the whole framebuffer in Pimoroni's layout, then DSP."""
        self.cmd(_DTM2)
        chunk = self._chunk
        self.cs.value(0)
        self.dc.value(1)
        for x in range(0, WIDTH, _LINES):
            epdconv.columns(chunk, self.buf, self._rev, x, _LINES)
            self.spi.write(chunk)
        self.cs.value(1)
        self.cmd(_DSP)

    def refresh(self, full, quick):
        self._waveform(0 if full else (2 if quick else 1))
        self.send_frame()
        self.cmd(_PON)
        self._steps = [_DRF, _POF]

    def deep_sleep(self):
        self.cmd(_POF)
        self.wait_pin(1000)
        self.cmd(_DSLP, b"\xa5")  # check code
