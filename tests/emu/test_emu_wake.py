"""A wake press on battery, end to end on the emulated Badger 2040: in the middle of a game, on
battery (VBUS sense GP24 low), the board switches itself off after the idle time by releasing its
power latch (GP10, seen in the GPIO log); the press that powers it again is modelled by a reset
with the button held for a short press: the latch must be high again before the button is let
go, and that press must count (B on the scoreboard: Bob knocked, his count is asked). The image
it leaves on the panel when it switches off is a full refresh (partial ones ghost), and the
panel's controller is left powered as the power goes. A hand half entered keeps it on past the
(short) default idle time."""

import time

from kit import device as unix  # tests/kit/device.py: the same firmware on MicroPython's unix port
import emu_frames
from emu_device import LATCH
from emu_plan import Planner

IDLE_S = 30  # the shortest idle time the settings take
WAKE_PRESS_MS = 150  # a quick press


def game_begun(dev):
    """The device's first screen drawn, then a game of method 3 begun on its buttons: the
    Planner that pressed them."""
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    p = Planner()
    p.new_game(3, ["Ann", "Bob", "Cy"], {"dealer": 1})
    assert dev.act(p.presses) == []
    dev.wait_quiet(300)
    return p


def reference(tmp_path, p, last, name):
    """The unix port's screen after p's presses and one more (last)."""
    out = str(tmp_path / name)
    unix.run_script([p.driver_keys(p.presses + [last]), ["shot", name]], out)
    return emu_frames.pbm_image("%s/%s.pbm" % (out, name))


def test_auto_off_then_wake_press_on_battery(device_factory, tmp_path):
    dev = device_factory(no_pace=True)  # idle emulated time passes without waiting for it
    p = game_begun(dev)
    counts = reference(tmp_path, p, ("b", "press"), "counts")  # Bob knocked: his count asked

    dev.push("--sleep", str(IDLE_S))
    boot = dev.boot()
    last_us, last_boot = dev.last_release  # no button since (a sync is not a button either)
    assert last_boot == boot
    t_idle = last_us / 1000
    # on USB until 6 s before the auto-off is due, then on battery (where every turn of the
    # loop light-sleeps: the emulator runs that far slower than the plain sleep on USB)
    while dev.emu_ms() < t_idle + (IDLE_S - 6) * 1000:
        time.sleep(0.01)
    dev.on_battery()
    t_battery = dev.emu_ms()
    end = time.time() + 120
    offs = []
    while not offs and time.time() < end:  # (the loop may take the latch again at once)
        time.sleep(0.1)
        offs = [
            r
            for r in dev.gpio_records()
            if r.get("pin") == LATCH and r.get("boot") == boot and r.get("v") == 0
        ]
    assert offs, "the latch was never released on battery"
    off_ms = offs[0]["t"] / 1000
    assert off_ms > t_battery, "switched off before it was on battery (test too slow?)"
    assert off_ms - t_idle >= IDLE_S * 1000 - 2000, (off_ms, t_idle)  # not before the idle time
    assert off_ms - t_idle <= IDLE_S * 1000 + 5000, (off_ms, t_idle)
    print("auto-off: latch released %.1f s after the last press" % ((off_ms - t_idle) / 1000))
    # the image left on the panel is a clean full refresh: the push's sync mark came and went
    # in partial refreshes, so the auto-off refreshed the scoreboard in full before switching off
    before = [f for f in dev.frames().frames if f.boot == boot and f.t_us < offs[0]["t"]]
    assert before and before[-1].kind == "full", before[-3:]
    assert [f.kind for f in before[-3:-1]] != ["full", "full"], before[-3:]  # (the test's premise)
    # ... and the controller is left powered as the power goes (no power-off, POF 0x02, nor deep
    # sleep, DSLP 0x07, after that refresh's DRF 0x12), as Pimoroni's driver since pimoroni-pico
    # 2b25e79 (hardware/README.md)
    panel = dev.panel
    cmd_mask = (1 << panel["cs"]) | (1 << panel["dc"])
    cmds = [
        r["b"]
        for r in emu_frames.read_jsonl(dev.spi_log)
        if r["bus"] == panel["bus"] and not r["g"] & cmd_mask and r["t"] < offs[0]["t"]
    ]
    last_drf = len(cmds) - 1 - cmds[::-1].index(0x12)
    assert not {0x02, 0x07} & set(cmds[last_drf + 1 :]), cmds[last_drf:]

    # the wake press: B held powers the board (reset), let go after WAKE_PRESS_MS
    n = dev.refreshes()
    released_us = dev.power_press("b", WAKE_PRESS_MS)
    assert dev.wait_refresh(n, 120), "no frame after the wake"
    dev.wait_quiet(400)
    latch = [
        r["t"]
        for r in dev.gpio_records()
        if r.get("pin") == LATCH
        and r.get("boot") == boot + 1
        and r.get("v") == 1
        and r.get("oe") == 1
    ]
    assert latch, "the latch was not taken after the wake"
    print(
        "wake: latch high %.1f ms after reset, button released at %.1f ms"
        % (latch[0] / 1000, released_us / 1000)
    )
    assert released_us < 400_000, "not a short press: the emulator took too long to let go"
    assert latch[0] < released_us, "the board would have gone dark before the button was let go"
    r = dev.frames()
    shown = [f for f in r.frames if f.boot == boot + 1]
    assert shown, "nothing drawn after the wake"
    assert shown[-1].diff(counts) == 0, "the wake press did not count:\n" + shown[-1].ascii()


def test_a_hand_half_entered_keeps_the_badger_on_past_the_default_sleep(device_factory):
    """The default sleep_s is short (30 s, hardware/POWER.md), and the auto-off goes back to the
    scoreboard first: on battery, a hand half entered and left for 45 s is still there (the
    board stayed on, the same boot) and is saved with the rest of its presses."""
    dev = device_factory(no_pace=True, power="badger")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    p = Planner()
    p.new_game(3, ["Ann", "Bob", "Cy"], {"dealer": 1})
    a = len(p.presses)
    hand = {"knock": 1, "counts": [7, 3, 12]}
    p.hand(hand)
    half = a + (len(p.presses) - a) // 2
    assert dev.act(p.presses[:half]) == []
    dev.wait_quiet(300)
    boot = dev.boot()
    dev.on_battery()
    dev.sleep(45_000)
    assert dev.powered() and dev.boot() == boot, "switched off with a hand half entered"
    assert dev.act(p.presses[half:]) == []
    dev.wait_quiet(300)
    dev.on_battery(False)  # (the laptop reads the journal over USB)
    assert dev.journal()[-1][1] == {"t": "hand", "g": 1, "h": hand}
