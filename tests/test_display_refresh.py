"""E-ink drivers (knockfw.uc8151, knockfw.ssd1680) against controller models (tests/fakes/):
what both drivers do alike.

The drivers run under the MicroPython unix port on fake SPI/pins; the models decode the
command stream back into controller RAM and into the image a viewer sees, which must equal the
framebuffer. Here: the image after full and partial refreshes, the forced full refresh, BUSY,
timeouts, requests queued while the panel works, sleep and waking, and the drivers' size. Each
controller's own command stream, and the models themselves: test_display_controllers.py.
"""

import os

import pytest

from kit import mp
from kit.epd_mp import KINDS, run_mp
from fakes.model import get_px

OUT = os.path.join(mp.ROOT, "out", "display")
PARTIAL = {"uc8151": "fast", "ssd1680": "partial"}


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
    res = run_mp(
        """
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
"""
        % (kind, base + "_full.bin", base + "_partial.bin")
    )
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
    res = run_mp(
        """
drv, m = h.make(%r, full_every=3)
for i in range(9):
    h.pattern(drv, i)
    drv.show(full=(i == 6))
    h.run_until_idle(drv)
print(json.dumps({"kinds": [k for k, _ in m.refreshes], "errors": m.errors,
                  "partials": drv.partials}))
"""
        % kind
    )
    p = PARTIAL[kind]
    # first show is full; then 3 partials, forced full; an explicit full restarts the count
    assert res["kinds"] == ["full", p, p, p, "full", p, "full", p, p]
    assert res["partials"] == 2
    assert res["errors"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_busy_polarity_and_no_command_while_busy(kind):
    res = run_mp(
        """
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
"""
        % kind
    )
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
    res = run_mp(
        """
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
"""
        % kind
    )
    assert res["ok1"] is False and 60 <= res["dt"] < 1000
    assert res["ok2"] is True
    assert res["errors"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_show_while_busy_is_queued_and_blocking_show(kind):
    res = run_mp(
        """
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
"""
        % kind
    )
    assert res["during"] == 0  # the later show()s sent nothing to the busy controller
    # first (full, as the first ever), then the queued request: full because one asked for it
    assert res["kinds"] == ["full", "full"]
    assert res["ok"] is True and res["busy"] is False
    assert res["diff"] == 0  # the queued refresh sent the framebuffer as it was when started
    assert res["errors"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_sleep_then_show_wakes_with_reset_and_full_refresh(kind):
    res = run_mp(
        """
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
"""
        % kind
    )
    assert res["asleep"] is True and res["awake"] is False
    if kind == "uc8151":
        assert res["last"] == [0x07, 0xA5]
    else:
        assert res["last"] == [0x10, 0x01]
    assert res["resets"] == 2
    assert res["kinds"] == ["full", PARTIAL[kind], "full"]  # waking: full whatever was asked
    assert res["diff"] == 0
    assert res["errors"] == []  # nothing was sent to the sleeping controller


# A panel whose BUSY never ends: the driver's clock is made to step 5 ms at every look,
# so the bound (15 s a command) passes in a few thousand polls of the app's loop.
STUCK = """
import knockfw.epd as E
now = [0]
def clock():
    now[0] += 5
    return now[0]
E.ticks_ms = clock
drv, m = h.make(%r)
h.pattern(drv, 1)
drv.show(full=True)
h.run_until_idle(drv)
h.pattern(drv, 2)
drv.show()
m.stuck = True
t0, resets, out = now[0], [], {}
try:
    for _ in range(100000):
        n = m.reset_count
        busy = drv.busy()
        if m.reset_count != n:
            resets.append(now[0] - t0)
            if %r and len(resets) == 1:
                m.stuck = False     # the panel answers again after its first reset
        if not busy:
            break
except OSError as e:
    out["raised"] = [str(e), now[0] - t0]
out["resets"] = resets
out["stuck"] = drv.stuck
m.flush()
n = len(m.log)
out["idle"] = not drv.busy()
drv.sleep()
m.flush()
out["sent_after"] = len(m.log) - n
want = h.landscape(drv)
kind, img = m.refreshes[-1]
out["kinds"] = [k for k, _ in m.refreshes]
out["diff"] = h.mismatches(img, want)
print(json.dumps(out))
"""


@pytest.mark.parametrize("kind", KINDS)
def test_a_panel_that_stays_busy_is_reset_twice_then_given_up(kind):
    res = run_mp(STUCK % (kind, False))
    # 15 s for each command, then a reset and the frame again; after two resets the driver gives
    # up: busy() raises (the app stops: knockfw.fault), the panel is left alone from then on
    # (a reset is counted once busy() returns: after the init's own wait for BUSY, up to 1-2 s)
    r1, r2 = res["resets"]
    assert 15000 < r1 < 17500 and 15000 < r2 - r1 < 17500, res["resets"]
    assert res["raised"][0] == "panel stuck busy" and 45000 < res["raised"][1] < 50000, res
    assert res["stuck"] == 3 and res["idle"] is True
    assert res["sent_after"] == 0  # sleep(): nothing more to a stuck controller


@pytest.mark.parametrize("kind", KINDS)
def test_a_panel_that_answers_after_a_reset_shows_the_frame(kind):
    res = run_mp(STUCK % (kind, True))
    assert "raised" not in res and len(res["resets"]) == 1 and res["stuck"] == 0, res
    # the frame that was cut short is sent again in full after the reset, and shown whole
    assert res["kinds"][-1] == "full" and res["diff"] == 0, res


def test_drivers_compile_with_mpy_cross():
    names = (
        "epd",
        "uc8151",
        "ssd1680",
        "epdconv",
        "epdinvert",
        "board_badger2040",
        "board_pico_epd",
        "rp2board",
        "board",
    )
    sizes = mp.sizes("device", modules=["knockfw." + n for n in names])
    total = sum(sizes["knockfw/%s.mpy" % n] for n in names)
    # drivers + boards (with the boards' contract, knockfw.board): keep them lean (whole
    # firmware: 64 KB, test_core_budget.py). They hold the watchdog and the retries of a panel
    # that stays busy, the buttons sampled by DMA through flash writes (rp2board's rings), no
    # light sleep while they are in use, the panel held in reset while the app loads, the
    # sampler stopped while off and in light sleeps, spikes ignored, a panel that is not there
    # noticed, a board that cannot be made still dark on battery, W boards refused (by name and
    # by probing), a watchdog reset told apart from machine.reset(), the imports' listing, the
    # battery read, the sampler's look as it starts, an unplugged SSD1680 noticed and the
    # UC8151 left powered at a power cut: raise the limit only for such a feature
    assert total < 12900, total


ABSENT = """
import time
from fakes.bus import BusyPin
drv, m = h.make(%r)
drv.busy_pin = BusyPin(None, drv.BUSY_LEVEL)    # no panel: the pin reads its pull
h.pattern(drv, 1)
out = {}
t0 = time.ticks_ms()
try:
    drv.show(full=True)
    for _ in range(4000):       # (the SSD1680's: 15 s for each command)
        drv.busy()
except OSError as e:
    out["raised"] = str(e)
out["ms"] = time.ticks_diff(time.ticks_ms(), t0)
out["stuck"] = drv.stuck
out["pull"] = drv.busy_pin.pull
print(json.dumps(out))
"""


def test_a_uc8151_that_is_not_there_is_noticed_at_its_first_refresh():
    """BUSY_N pulled up reads idle without a panel: the refresh "ends" at once, far sooner than
    the quickest waveform; pulled down the pin follows (nothing drives it): busy() raises, and
    the fault handler draws nothing on it (stuck); the pull-up is put back."""
    res = run_mp(ABSENT % "uc8151")
    assert res["raised"] == "panel not connected" and res["stuck"] == 3, res
    assert res["pull"] == 1


def test_a_uc8151_that_finishes_at_once_but_drives_busy_is_there():
    """A controller that drives BUSY (the models, the emulated Pico's idle BUSY) is a panel:
    its refreshes go on however quick."""
    res = run_mp("""
from fakes.bus import BusyPin
drv, m = h.make("uc8151", busy_polls=0, refresh_polls=0)
out = {"refreshes": 0}
for n in range(3):
    h.pattern(drv, n)
    drv.show(full=n == 0)
    h.run_until_idle(drv)
out["refreshes"] = len(m.refreshes)
out["stuck"] = drv.stuck
print(json.dumps(out))
""")
    assert res == {"refreshes": 3, "stuck": 0}


def test_a_uc8151_that_goes_busy_after_the_first_look_is_there():
    """A refresh whose BUSY_N goes low only after the driver's first look (a slow controller;
    the emulated panel's BUSY pulse, started by the test's watcher): it is driven low whatever
    the pull, so the look for a missing panel finds one."""
    res = run_mp("""
drv, m = h.make("uc8151")
h.pattern(drv, 1)
drv.show(full=True)
h.run_until_idle(drv)
m.stuck = True                  # driving BUSY_N low (busy) from now on
print(json.dumps({"absent": drv._absent(), "pull": drv.busy_pin.pull}))
""")
    assert res == {"absent": False, "pull": 1}
