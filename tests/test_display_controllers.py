"""E-ink drivers (knockfw.uc8151, knockfw.ssd1680) against controller models (tests/fakes/):
each controller's command stream, and the models themselves.

The drivers run under the MicroPython unix port on fake SPI/pins; the models decode the
command stream back into controller RAM (windows, cursors, data entry modes) and into the image a
viewer sees, which must equal the framebuffer. The models themselves are checked under CPython
with hand-made command streams (no framebuf needed). What both drivers do alike (refreshes,
BUSY, sleep): test_display_refresh.py.
"""

import pytest

from kit.epd_mp import KINDS, run_mp
from fakes.bus import wire
from fakes.model import get_px
from fakes.ssd1680_model import SSD1680Model
from fakes.uc8151_model import UC8151Model


RST_LOG = """
seen = []
_value = drv.rst.value
def _rst(v=None):
    if v is not None:
        seen.append(v)
    return _value(v)
drv.rst.value = _rst
"""


@pytest.mark.parametrize("held", [False, True])
def test_reset_held_while_the_app_loads(held):
    """hold_reset() (the board, as it makes the panel): the controller stays in reset until the
    first init(), which then only lets it go and waits as always; without it init() pulses the
    reset itself (high, low, high). Either way one reset, then the same setup."""
    res = run_mp(
        """
drv, m = h.make("uc8151")
"""
        + RST_LOG
        + """
if %r:
    drv.hold_reset()
held = list(seen)
drv.init()
print(json.dumps({"held": held, "seen": seen, "resets": m.reset_count, "cmds": m.commands()[:3],
                  "errors": m.errors}))
"""
        % held
    )
    assert res["held"] == ([0] if held else [])
    assert res["seen"] == ([0, 1] if held else [1, 0, 1])
    assert res["resets"] == 1 and res["errors"] == []
    assert res["cmds"] == [0x00, 0x01, 0x06]


def test_uc8151_init_sequence():
    res = run_mp("""
drv, m = h.make("uc8151")
drv.init()
print(json.dumps({"resets": m.reset_count, "cmds": m.commands(), "psr": m.psr, "cdi": m.cdi,
                  "pwr": list(m.last_args(0x01)), "pll": m.pll, "errors": m.errors,
                  "rst": drv.rst.value(), "cs": drv.cs.value()}))
""")
    assert res["resets"] == 1 and res["rst"] == 1 and res["cs"] == 1
    assert res["cmds"][:3] == [0x00, 0x01, 0x06]  # panel setting, power setting, booster
    assert res["psr"] & 0xC0 == 0x80  # 128 x 296
    assert res["psr"] & 0x0C == 0x04  # Pimoroni's upright image: scan down, shift right
    assert res["psr"] & 0x10  # black/white
    assert res["psr"] & 0x20 == 0  # OTP waveform until a partial asks for the fast one
    assert (res["cdi"] >> 4) & 3 == 0  # a 1 bit is black
    assert res["pwr"] == [0x03, 0x00, 0x2B, 0x2B, 0x2B]
    assert res["pll"] == 0x3A
    assert 0x04 not in res["cmds"]  # the booster stays off until a refresh
    assert res["errors"] == []


def test_ssd1680_init_sequence():
    res = run_mp("""
drv, m = h.make("ssd1680")
drv.init()
print(json.dumps({"resets": m.reset_count, "cmds": m.commands(), "gates": m.gates,
                  "entry": m.entry, "xwin": m.xwin, "ywin": m.ywin, "u1": m.update1,
                  "errors": m.errors}))
""")
    assert res["resets"] == 1
    assert res["cmds"][0] == 0x12  # software reset first (after the hardware reset)
    assert res["gates"] == 296
    assert res["entry"] == 0x07  # Y first, X and Y increasing
    assert res["xwin"] == [0, 15] and res["ywin"] == [0, 295]
    assert res["u1"] == [0x00, 0x80]  # RAM as it is (Waveshare, GxEPD2): 1 = white
    assert res["errors"] == []


# --- the models themselves, under CPython, with hand-made streams --------------------------


def _send(spi, cs, dc, c, data=b""):
    cs.value(0)
    dc.value(0)
    spi.write(bytes([c]))
    if data:
        dc.value(1)
        spi.write(bytes(data))
    cs.value(1)


def test_ssd1680_model_address_modes():
    m = SSD1680Model(busy_polls=0)
    spi, cs, dc, rst, busy = wire(m)
    # X first, increasing, window 2..3 x 10..11: bytes land row by row
    _send(spi, cs, dc, 0x11, [0x03])
    _send(spi, cs, dc, 0x44, [2, 3])
    _send(spi, cs, dc, 0x45, [10, 0, 11, 0])
    _send(spi, cs, dc, 0x4E, [2])
    _send(spi, cs, dc, 0x4F, [10, 0])
    _send(spi, cs, dc, 0x24, [1, 2, 3, 4])
    assert [m.bw[10 * 16 + 2], m.bw[10 * 16 + 3], m.bw[11 * 16 + 2], m.bw[11 * 16 + 3]] == [
        1,
        2,
        3,
        4,
    ]
    # Y first: column by column
    _send(spi, cs, dc, 0x11, [0x07])
    _send(spi, cs, dc, 0x4E, [2])
    _send(spi, cs, dc, 0x4F, [10, 0])
    _send(spi, cs, dc, 0x26, [5, 6, 7, 8])
    assert [m.red[10 * 16 + 2], m.red[11 * 16 + 2], m.red[10 * 16 + 3], m.red[11 * 16 + 3]] == [
        5,
        6,
        7,
        8,
    ]
    assert m.errors == []


def test_ssd1680_model_flags_stale_previous_ram_and_busy_commands():
    m = SSD1680Model(busy_polls=0, refresh_polls=2)
    spi, cs, dc, rst, busy = wire(m)
    _send(spi, cs, dc, 0x22, [0xF7])
    _send(spi, cs, dc, 0x20)
    assert m.refreshes[-1][0] == "full" and m.errors == []
    _send(spi, cs, dc, 0x11, [0x03])  # sent while BUSY is high: flagged
    assert busy.value() == 1 and busy.value() == 1 and busy.value() == 0
    _send(spi, cs, dc, 0x32, [0] * 153)
    _send(spi, cs, dc, 0x4E, [0])
    _send(spi, cs, dc, 0x4F, [0, 0])
    _send(spi, cs, dc, 0x26, [0x55])  # previous (0x26) no longer the image on the panel
    _send(spi, cs, dc, 0x22, [0xCF])
    _send(spi, cs, dc, 0x20)
    assert m.refreshes[-1][0] == "partial"
    assert any("while busy" in e for e in m.errors)
    assert any("previous RAM" in e for e in m.errors)


def test_uc8151_model_partial_window_and_power_rules():
    m = UC8151Model(busy_polls=0, refresh_polls=0)
    spi, cs, dc, rst, busy = wire(m)
    _send(spi, cs, dc, 0x91)
    _send(spi, cs, dc, 0x90, [16, 23, 0, 5, 0, 6, 1])  # source byte 2, gates 5..6
    _send(spi, cs, dc, 0x13, [0xAA, 0xBB])
    assert m.ram[5 * 16 + 2] == 0xAA and m.ram[6 * 16 + 2] == 0xBB
    _send(spi, cs, dc, 0x13, [1, 2, 3])  # one byte too many for the window
    assert any("past the window" in e for e in m.errors)
    m.errors.clear()
    _send(spi, cs, dc, 0x12)  # refresh with the booster off
    assert any("power off" in e for e in m.errors)
    m.errors.clear()
    _send(spi, cs, dc, 0x04)
    _send(spi, cs, dc, 0x07, [0xA5])
    m.flush()
    assert any("power on" in e for e in m.errors)
    # Pimoroni's upright setting (SHL = 1): RAM gate x, source y is landscape (x, y)
    m2 = UC8151Model(busy_polls=0)
    m2.psr = 0x97
    m2.cdi = 0x4C
    m2.ram[3 * 16 + 1] = 0x80  # gate 3, source 8
    assert get_px(m2.viewer(), 3, 8) == 1
    m2.psr = 0x93  # SHL = 0: source 8 is landscape y = 119
    assert get_px(m2.viewer(), 3, 119) == 1


# --- the defects found by comparing with the vendors' drivers ---------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_sleeping_controller_is_reset_before_busy_is_read(kind):
    """SSD1680: BUSY stays high in deep sleep until a hardware reset. A driver that polls BUSY
    before resetting (the app polls busy() every loop) never updates the panel again."""
    res = run_mp(
        """
drv, m = h.make(%r)
h.pattern(drv, 1)
drv.show(full=True, block=True)
drv.sleep()
polls = [drv.busy() for _ in range(50)]  # the app's loop while the board idles
reads_asleep = m.busy_reads_asleep
level = drv.busy_pin.value() if %r == "ssd1680" else None  # the test itself reads it once
h.pattern(drv, 3)
ok = drv.show(block=True, quick=True)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
print(json.dumps({"polls": polls, "reads": reads_asleep, "level": level, "ok": ok,
                  "kinds": [k for k, _ in m.refreshes], "diff": h.mismatches(img, want),
                  "resets": m.reset_count, "errors": m.errors, "asleep": m.asleep}))
"""
        % (kind, kind)
    )
    assert res["polls"] == [False] * 50  # asleep and nothing to show: idle, BUSY untouched
    assert res["reads"] == 0  # BUSY was never read while the controller slept
    if kind == "ssd1680":
        assert res["level"] == 1  # the model holds BUSY high in deep sleep, as the datasheet
    assert res["ok"] is True and res["asleep"] is False
    assert res["resets"] == 2  # the second show woke it with a hardware reset
    assert res["kinds"] == ["full", "full"]  # after a sleep: full, whatever was asked
    assert res["diff"] == 0
    assert res["errors"] == []


def test_uc8151_full_frame_in_pimoroni_layout():
    """Pimoroni's upright image: 16 RAM bytes per gate line (landscape column x), byte j = rows
    8j .. 8j + 7, most significant bit on top (uc8151_legacy pixel())."""
    res = run_mp("""
drv, m = h.make("uc8151")
drv.fill(0)
drv.pixel(3, 8, 1)      # gate line 3, source 8: byte 3 * 16 + 1, bit 7
drv.pixel(3, 127, 1)    # byte 3 * 16 + 15, bit 0
drv.pixel(295, 0, 1)    # byte 295 * 16, bit 7
drv.show(block=True)
ram = m.ram
print(json.dumps([ram[3 * 16 + 1], ram[3 * 16 + 15], ram[295 * 16], sum(1 for b in ram if b),
                  m.errors]))
""")
    assert res == [0x80, 0x01, 0x80, 3, []]


def test_uc8151_stream_and_image():
    res = run_mp("""
drv, m = h.make("uc8151")
h.pattern(drv, 1)
drv.show(block=True)
h.pattern(drv, 2)
drv.show(block=True)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
cmds = m.commands()
print(json.dumps({"psr": m.psr, "ptin": 0x91 in cmds, "ptl": 0x90 in cmds,
                  "dtm2": [len(a) for c, a in m.log if c == 0x13], "frame": m.frame_bytes,
                  "diff": h.mismatches(img, want), "kinds": [k for k, _ in m.refreshes],
                  "errors": m.errors}))
""")
    assert res["psr"] & 0x0C == 0x04  # SHL = 1, UD = 0, as Pimoroni's rotation 0
    assert res["ptin"] is False and res["ptl"] is False  # never a partial window
    assert res["frame"] == 4736  # the whole frame in one DTM2 (the model counts it)
    assert res["kinds"] == ["full", "fast"]
    assert res["diff"] == 0
    assert res["errors"] == []


# Pimoroni's tables (pimoroni-pico drivers/uc8151_legacy/uc8151_legacy.cpp fast_luts() and
# turbo_luts(), the first three groups of each; the rest of each table is zeros).
PIMORONI_FAST = {
    0x20: [
        0x00,
        0x04,
        0x04,
        0x07,
        0x00,
        0x01,
        0x00,
        0x0C,
        0x0C,
        0x00,
        0x00,
        0x02,
        0x00,
        0x04,
        0x04,
        0x07,
        0x00,
        0x02,
    ],
    0x21: [
        0x54,
        0x04,
        0x04,
        0x07,
        0x00,
        0x01,
        0x60,
        0x0C,
        0x0C,
        0x00,
        0x00,
        0x02,
        0xA8,
        0x04,
        0x04,
        0x07,
        0x00,
        0x02,
    ],
    0x23: [
        0xA8,
        0x04,
        0x04,
        0x07,
        0x00,
        0x01,
        0x60,
        0x0C,
        0x0C,
        0x00,
        0x00,
        0x02,
        0x54,
        0x04,
        0x04,
        0x07,
        0x00,
        0x02,
    ],
}
PIMORONI_TURBO = {
    0x20: [
        0x00,
        0x01,
        0x01,
        0x02,
        0x00,
        0x01,
        0x00,
        0x02,
        0x02,
        0x00,
        0x00,
        0x02,
        0x00,
        0x02,
        0x02,
        0x03,
        0x00,
        0x02,
    ],
    0x21: [
        0x54,
        0x01,
        0x01,
        0x02,
        0x00,
        0x01,
        0x60,
        0x02,
        0x02,
        0x00,
        0x00,
        0x02,
        0xA8,
        0x02,
        0x02,
        0x03,
        0x00,
        0x02,
    ],
    0x23: [
        0xA8,
        0x01,
        0x01,
        0x02,
        0x00,
        0x01,
        0x60,
        0x02,
        0x02,
        0x00,
        0x00,
        0x02,
        0x54,
        0x02,
        0x02,
        0x03,
        0x00,
        0x02,
    ],
}


def test_uc8151_waveforms_run_at_the_vendors_100_hz():
    """Pimoroni's fast/turbo modes really run at 100 Hz (their setup() writes PLL 100 Hz after
    the LUTs' 200 Hz); show(quick=True) takes their turbo waveform."""
    res = run_mp("""
drv, m = h.make("uc8151", full_every=8)
luts = []
plls = []
def step(**kw):
    drv.show(block=True, **kw)
    luts.append({c: list(m.luts.get(c, b"")) for c in (0x20, 0x21, 0x22, 0x23, 0x24)})
    plls.append(m.pll)
h.pattern(drv, 1); step()                  # first: full
h.pattern(drv, 2); step()                  # fast
h.pattern(drv, 3); step(quick=True)        # turbo
h.pattern(drv, 4); step(quick=True)        # turbo again: no LUT upload
h.pattern(drv, 5); step(full=True, quick=True)   # full wins
h.pattern(drv, 6); step()                  # fast
# while the panel works, a plain request then a quick one: the refresh kept is plain
drv.show(full=True); drv.show(); drv.show(quick=True); drv.wait()
plls.append(m.pll)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
print(json.dumps({"ms": m.refresh_ms, "kinds": [k for k, _ in m.refreshes], "luts": luts,
                  "plls": plls, "quick": drv.last_quick, "diff": h.mismatches(img, want),
                  "lut_cmds": sum(1 for c, _ in m.log if c == 0x20), "errors": m.errors}))
""")
    assert set(res["plls"]) == {0x3A}  # 100 Hz for every refresh, fast and turbo included
    assert res["kinds"] == ["full", "fast", "fast", "fast", "full", "fast", "full", "fast"]
    assert res["ms"] == [4500, 930, 260, 260, 4500, 930, 4500, 930]
    fast, turbo = res["luts"][1], res["luts"][2]
    for c, want in PIMORONI_FAST.items():
        assert fast[str(c)][:18] == want and not any(fast[str(c)][18:])
    for c, want in PIMORONI_TURBO.items():
        assert turbo[str(c)][:18] == want and not any(turbo[str(c)][18:])
    assert fast["33"] == fast["34"] and fast["35"] == fast["36"]  # WW = BW, WB = BB
    assert len(fast["32"]) == 44 and len(fast["33"]) == 42
    assert res["lut_cmds"] == 4  # uploads: fast, turbo, fast, fast (after a full), not more
    assert res["quick"] is False and res["diff"] == 0
    assert res["errors"] == []


def test_ssd1680_sends_the_vendors_polarity():
    """0x21 = 0x00 0x80 as Waveshare and GxEPD2 send it: RAM bit 1 = white. The framebuffer
    (1 = black) is inverted while it is sent, and is left as it was."""
    res = run_mp("""
drv, m = h.make("ssd1680")
drv.fill(0)
drv.fill_rect(0, 0, 8, 8, 1)     # black top-left: landscape y 0..7 = RAM X 120..127 = X byte 15
before = bytes(drv.buf)
drv.show(block=True)
after = bytes(drv.buf)
h.pattern(drv, 7)
drv.show(block=True)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
print(json.dumps({"u1": m.update1, "unchanged": before == after,
                  "black": m.bw[0 * 16 + 15], "white": m.bw[100 * 16 + 3],
                  "kinds": [k for k, _ in m.refreshes], "diff": h.mismatches(img, want),
                  "errors": m.errors}))
""")
    assert res["u1"] == [0x00, 0x80]
    assert res["unchanged"] is True  # the drawing surface is not left inverted
    assert res["black"] == 0x00 and res["white"] == 0xFF  # RAM polarity: 0 black, 1 white
    assert res["kinds"] == ["full", "partial"] and res["diff"] == 0
    assert res["errors"] == []


def test_epdconv_against_a_reference():
    res = run_mp("""
from knockfw import epdconv, epdinvert
import os
src = bytearray(os.urandom(4736))
rev = epdconv.reversal()
ok_rev = all(rev[b] == sum(((b >> i) & 1) << (7 - i) for i in range(8)) for b in range(256))
dst = bytearray(74 * 16)
bad = 0
for x0 in (0, 74, 148, 222):
    epdconv.columns(dst, src, rev, x0, 74)
    for i in range(74):
        for j in range(16):
            if dst[i * 16 + j] != rev[src[j * 296 + x0 + i]]:
                bad += 1
inv = bytearray(src)
epdinvert.invert(inv, 1184)
ok_inv = all(inv[i] == 255 - src[i] for i in range(4736))
print(json.dumps({"rev": ok_rev, "bad": bad, "inv": ok_inv}))
""")
    assert res == {"rev": True, "bad": 0, "inv": True}


def test_uc8151_model_refuses_what_no_vendor_does():
    m = UC8151Model(busy_polls=0, refresh_polls=0)
    spi, cs, dc, rst, busy = wire(m)
    _send(spi, cs, dc, 0x00, [0x93])  # SHL = 0
    _send(spi, cs, dc, 0x91)
    _send(spi, cs, dc, 0x90, [0, 7, 0, 0, 1, 0x27, 1])
    _send(spi, cs, dc, 0x13, [0] * 296)
    assert any("SHL = 0" in e for e in m.errors)
    m.errors.clear()
    _send(spi, cs, dc, 0x92)
    _send(spi, cs, dc, 0x30, [0x39])  # 200 Hz, then a refresh with half a frame
    _send(spi, cs, dc, 0x13, [0] * 100)
    _send(spi, cs, dc, 0x04)
    _send(spi, cs, dc, 0x12)
    assert any("100 bytes" in e for e in m.errors)
    m2 = UC8151Model(busy_polls=0, refresh_polls=0)
    spi, cs, dc, rst, busy = wire(m2)
    _send(spi, cs, dc, 0x30, [0x31])
    _send(spi, cs, dc, 0x13, [0] * 4736)
    _send(spi, cs, dc, 0x04)
    _send(spi, cs, dc, 0x12)
    assert any("PLL 0x31" in e for e in m2.errors)


def test_ssd1680_model_holds_busy_in_deep_sleep():
    m = SSD1680Model(busy_polls=0, refresh_polls=0)
    spi, cs, dc, rst, busy = wire(m)
    assert busy.value() == 0
    _send(spi, cs, dc, 0x10, [0x01])
    m.flush()
    assert [busy.value() for _ in range(5)] == [1] * 5  # until a hardware reset
    _send(spi, cs, dc, 0x12)  # a software reset is ignored in deep sleep
    assert busy.value() == 1 and any("deep sleep" in e for e in m.errors)
    rst.value(0)
    rst.value(1)
    assert busy.value() == 0 or busy.value() == 0  # busy_polls = 0: idle after the reset
    assert m.asleep is False and m.busy_reads_asleep == 6
