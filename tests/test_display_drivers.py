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
        assert res["tail"] == [0x92, 0x04, 0x12, 0x02]  # PTOU, PON, DRF, POF
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
    assert res["cmds"][:3] == [0x01, 0x06, 0x00]  # power setting, booster, panel setting
    assert res["psr"] & 0xC0 == 0x80  # 128 x 296
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
    assert res["u1"] == [0x88, 0x80]
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
    names = ("epd", "uc8151", "ssd1680", "board_badger", "board_pico_epd")
    sizes = mp.sizes("device", modules=["knockfw." + n for n in names])
    total = sum(sizes["lib/knockfw/%s.mpy" % n] for n in names)
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
