# SSD1680 e-ink driver (Waveshare Pico-ePaper-2.9: 128 sources x 296 gates, used landscape).
# Written from the controller's command set; compared line by line with Waveshare's
# Pico_ePaper_Code python/Pico_ePaper-2.9.py (class EPD_2in9_Landscape, the vendor's code for
# this module) and GxEPD2's src/epd/GxEPD2_290_T94_V2.cpp (same panel, SSD1680).
#
#   SSD1680(spi, cs, dc, rst, busy, full_every=8)   ready machine.SPI / machine.Pin objects
#
# BUSY is HIGH while the controller works, and stays high in deep sleep until a hardware reset
# (datasheet; epd.py never reads it then, and init() resets first, as GxEPD2's _InitDisplay()).
#
# Layout (Waveshare's landscape class): data entry mode 0x07 (Y first, X and Y increasing), RAM
# window X bytes 0..15, Y 0..295; the stream fills RAM column by column: 296 bytes into X byte
# 0, then X byte 1... Waveshare sends its MONO_VLSB 296 x 128 buffer page 15 first, page 0 last
# (display(): for j in 15..0, for i in 0..295: image[i + j * 296]), so RAM X = 127 - y,
# RAM Y = x: our framebuffer has the same layout. Polarity: Display Update Control 1 (0x21) =
# 0x00 0x80 as both vendors send it (RAM as is; sources S8..S167): a RAM bit 1 is white, so the
# bytes are inverted in place while they are sent (epdinvert.invert, native code) and
# inverted back.
#
# Full refresh: both RAMs (0x26 "previous", 0x24 "current") get the image, then 0x22 = 0xF7
# (clock and analog on, load temperature and the OTP waveform, display mode 1, all off), as
# GxEPD2's _Update_Full(): 4.0 s as GxEPD2 measured this panel (GxEPD2_290_T94_V2.h:
# full_refresh_time, "e.g. 4011934us").
# Partial refresh: display mode 2 compares the current image with the previous one, so 0x26 must
# hold the image now on the panel: we keep a copy of what was sent last (4.7 KB, RAM polarity)
# and write it. This panel has no partial waveform in OTP: the waveform (GxEPD2's lut_partial)
# is loaded into the LUT register (0x32, 153 bytes) before the first partial after a full (0xF7
# reloads the OTP one), then 0x22 = 0xCF (clock and analog on, display mode 2, all off):
# 0.74 s as GxEPD2 measured it (partial_refresh_time, "e.g. 736721us"). show(quick=True) is
# the same partial: it is already the quickest this panel has.
from micropython import const
from knockfw.epd import EPD, PAGES, WIDTH
from knockfw import epdinvert

_DRIVER_OUTPUT = const(0x01)
_DEEP_SLEEP = const(0x10)
_DATA_ENTRY = const(0x11)
_SW_RESET = const(0x12)
_TEMP_SENSOR = const(0x18)
_ACTIVATE = const(0x20)
_UPDATE_1 = const(0x21)
_UPDATE_2 = const(0x22)
_RAM_BW = const(0x24)
_RAM_RED = const(0x26)
_WRITE_LUT = const(0x32)
_BORDER = const(0x3C)
_RAM_X_WINDOW = const(0x44)
_RAM_Y_WINDOW = const(0x45)
_RAM_X_COUNTER = const(0x4E)
_RAM_Y_COUNTER = const(0x4F)

# The partial waveform: 153 bytes, zero except these (index, value) pairs: voltage selections
# of the first groups, phase lengths (TP) and repeats of groups 0-2, frame rates.
_PARTIAL_LUT = (
    (1, 0x40),
    (12, 0x80),
    (13, 0x80),
    (24, 0x40),
    (25, 0x40),
    (37, 0x80),
    (60, 0x0A),
    (66, 0x02),
    (67, 0x01),
    (74, 0x01),
    (144, 0x22),
    (145, 0x22),
    (146, 0x22),
    (147, 0x22),
    (148, 0x22),
    (149, 0x22),
)


def _partial_lut():
    t = bytearray(153)
    for i, v in _PARTIAL_LUT:
        t[i] = v
    return t


class SSD1680(EPD):
    BUSY_LEVEL = 1
    REFRESH = _ACTIVATE

    def setup(self):
        if getattr(self, "_prev", None) is None:
            self._prev = bytearray(len(self.buf))  # the image now on the panel, RAM polarity
        self.hw_reset(10, 10)
        self._ready(1000)
        self.cmd(_SW_RESET)
        self._ready(1000)
        self.cmd(_DRIVER_OUTPUT, b"\x27\x01\x00")  # 296 gate lines, G0 first
        self.cmd(_DATA_ENTRY, b"\x07")
        self.cmd(_RAM_X_WINDOW, b"\x00\x0f")
        self.cmd(_RAM_Y_WINDOW, b"\x00\x00\x27\x01")
        self.cmd(_BORDER, b"\x05")
        self.cmd(_UPDATE_1, b"\x00\x80")  # RAMs as they are; sources S8..S167 (both vendors)
        self.cmd(_TEMP_SENSOR, b"\x80")  # internal sensor
        self._lut_loaded = False

    def _ram(self, c, src):
        # Cursor to (0, 0), then the 16 pages, page 15 first: one 296-byte slice each (no copy).
        self.cmd(_RAM_X_COUNTER, b"\x00")
        self.cmd(_RAM_Y_COUNTER, b"\x00\x00")
        self.cmd(c)
        mv = memoryview(src)
        self.cs.value(0)
        self.dc.value(1)
        for p in range(PAGES - 1, -1, -1):
            self.spi.write(mv[p * WIDTH : (p + 1) * WIDTH])
        self.cs.value(1)

    def refresh(self, full, quick):
        buf = self.buf
        if full:
            self.cmd(_BORDER, b"\x05")
        else:
            if not self._lut_loaded:
                self.cmd(_WRITE_LUT, _partial_lut())
                self._lut_loaded = True
            self.cmd(_BORDER, b"\x80")
            self._ram(_RAM_RED, self._prev)
        epdinvert.invert(buf, len(buf) >> 2)  # to RAM polarity (1 = white) while it is sent
        try:
            if full:
                self._ram(_RAM_RED, buf)
            self._ram(_RAM_BW, buf)
            self._prev[:] = buf
        finally:
            epdinvert.invert(buf, len(buf) >> 2)
        self.cmd(_UPDATE_2, b"\xf7" if full else b"\xcf")
        self.cmd(_ACTIVATE)
        if full:
            self._lut_loaded = False  # 0xF7 loaded the OTP waveform over ours

    def deep_sleep(self):
        self.cmd(_DEEP_SLEEP, b"\x01")  # mode 1; a hardware reset wakes it
