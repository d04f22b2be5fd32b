"""Battery life, measured on the emulated Badger 2040 on battery: an evening of hands played on its
buttons (the rp2040-emu's `--power badger`: powered by the latch alone, VBUS low), and from the
emulator's accounting of where the chip's time went (`picoctl.py status` `sleep`: the CPU
running, waiting in WFI with its clocks running, in a clock-gated light sleep with no DMA channel
busy) and of the panel's refreshes (each one's waveform time, from the UC8151 model that decodes
the SPI log), times the datasheet currents below, the charge per hand and the hours of play a
1,000 mAh battery gives; then what switching the Badger off between hands saves.

    .venv/bin/python bench/bench_battery.py [--image FLASH.img] [--quick] [--write]

Each hand: a realistic method-3 hand (bench/hands.json's report set: OpenSpiel's gin rummy,
three counts) keyed blind as README's "Playing" says (knock, counts, save: emu_plan.Planner with
bench/entry_plan.py), by bench/bench_entry.py's person: taps and long presses one after another
without waiting for the panel, except to read the confirm screen before the save (the panel's
BUSY held 0.8 s a refresh, the fast waveform); then the players play the next hand while the
board idles (IDLE_S measured, then scaled to HAND_S: the idle current is steady; sleep_s is set
to KEEP_ON_S for it, after the fresh device has said its default). The journal must then hold
exactly the hands keyed.

Then the switch-off: sleep_s set to the shortest the device takes, one more hand, and the board
switches itself off; the span from just
before to the switch-off, less the idle it would have drawn, is the off path. B then powers the
dark board on (a press held through the power-on) and the board boots, acts on it and answers
on the panel: that window (WINDOW_MS from the press) less the same press on the running board
(back to the scoreboard, the same B) is the wake. Off path + wake, over the idle current less
I_OFF, is the break-even idle time; with them, the charge per hand for each of SLEEPS (the idle
timer runs from the last press). --write puts the figures into hardware/POWER.md (its measured
section).
"""

import json
import os
import shutil
import sys
import time

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import bench_pico
import docfigures
import emu_device
from bench_entry import GAP_MS, HANDS as HANDS_FILE, LONG_MS, TAP_MS
from emu_plan import Planner
from knockfw.settings import SLEEP_MIN

# Currents (mA) from the sources each names; a meter on a real board replaces them.
I_RUN = 24.0  # RP2040 at 125 MHz running MicroPython: Raspberry Pi Pico datasheet, "Power
#                 consumption" (typical active figures, 20-25 mA on a board)
I_WFI = 24.0  # the core in WFI with every clock running (a sleep the chip cannot gate: a DMA
#                 channel busy, RP2040 datasheet 2.11.2): the clocks and PLLs draw nearly what
#                 running does; taken equal to I_RUN
I_SLEEP = 1.5  # machine.lightsleep(ms), clocks gated: measured 1.5 mA on a Pico by MicroPython's
#                 author (micropython commit "rp2: Add machine.lightsleep", Damien George)
I_PANEL = 6.0  # extra while the e-ink panel refreshes (booster on): 3-8 mA in 2.9" UC8151 /
#                 IL0373 panel datasheets (ED029TC1); the middle of that range
I_OFF = 0.01  # the Badger switched off (latch released, regulator off): "a few uA" (Pimoroni's
#                 Badger 2040 power path); 10 uA taken, the top of that
HAND_S = 180  # a hand of gin: about 3 minutes of play
IDLE_S = 30  # idle measured after each hand (--quick: 12)
HANDS = 6  # hands in the evening (--quick: 3)
BUSY_MS = 800  # the panel's BUSY after each refresh: Pimoroni's fast waveform (uc8151.cpp)
PLAYERS = ["Ann", "Bob", "Cy"]
SLEEPS = (30, 60, 120, 300)  # sleep_s values compared (seconds)
WINDOW_MS = 5000  # a press compared on a dark and on a running board: this long from the press
PRESS_MS = 150  # that press (a quick one)
OFF_LEAD_MS = 5000  # the switch-off measured from this long before it is due
KEEP_ON_S = 600  # sleep_s while the evening is measured (longer than any idle measured)


def snapshot(dev):
    s = dev.pico.status()["sleep"]
    return dev.emu_ms(), s["wfi_ms"], s["gated_ms"], s["gated_dma_busy_ms"]


def split(a, b):
    """(ms, running, WFI with clocks running, clock-gated) between two snapshots, in ms."""
    dt, wfi, gated, busy = (y - x for x, y in zip(a, b))
    return dt, dt - wfi, wfi - gated + busy, gated - busy


def charge(ms, run, wfi, gated):
    """mA x ms of the chip (without the panel) for a span split as above."""
    return run * I_RUN + wfi * I_WFI + gated * I_SLEEP


class Realistic:
    """The report set's method-3 hands that someone won (a void hand has no counts to key), in
    order; each knocker the seat after the last one's."""

    def __init__(self):
        with open(HANDS_FILE, encoding="utf-8") as f:
            self._hands = iter([h for h in json.load(f)["report"]["three"] if h])
        self._who = -1

    def take(self, n):
        out = []
        for _ in range(n):
            k, o1, o2 = next(self._hands)
            who = self._who = (self._who + 1) % 3
            counts = [0, 0, 0]
            counts[who], counts[(who + 1) % 3], counts[(who + 2) % 3] = k, o1, o2
            out.append({"gin" if k == 0 else "knock": who, "counts": counts})
        return out


def key(dev, presses):
    """A hand's presses as bench_entry.py's person makes them: one after another, no wait for
    the panel but before the last (the save), until the confirm screen has been drawn."""
    for i, (name, kind) in enumerate(presses):
        if i + 1 == len(presses):
            dev.wait_quiet(BUSY_MS + 100)
        dev.press(name, LONG_MS if kind == "long" else TAP_MS, gap=GAP_MS)


def evening(dev, rng, n, idle_s):
    """Play n hands on the device, idle idle_s after each; returns the spans' splits, the
    presses made and when the first hand began (emulated ms)."""
    p = Planner()
    p.new_game(3, PLAYERS, {"dealer": 0})
    assert dev.act(p.presses) == [], "the new game's presses were not all answered"
    dev.wait_quiet(1000)
    start_ms = dev.emu_ms()
    awake, idle, presses = [], [], 0
    for h in rng.take(n):
        a = len(p.presses)
        p.hand(h)
        t0 = snapshot(dev)
        key(dev, p.presses[a:])
        dev.wait_quiet(1000)
        t1 = snapshot(dev)
        dev.sleep(idle_s * 1000)
        t2 = snapshot(dev)
        presses += len(p.presses) - a
        awake.append(split(t0, t1))
        idle.append(split(t1, t2))
    return awake, idle, presses, start_ms, p


def check_recorded(dev, p):
    """The hands on the device (its journal, read over USB) are exactly the ones keyed."""
    dev.on_battery(False)
    got = [e["h"] for _s, e in dev.journal() if e["t"] == "hand"]
    want = p.records()[-1]["hands"]
    if got != want:
        raise SystemExit("the hands recorded %r are not the ones keyed %r" % (got, want))


def panel(dev, first):
    """[(frame, waveform ms)] of the panel's refreshes from the first-th (all boots) on."""
    return [(f, f.ms) for f in dev.frames().frames[first:]]  # (ms: the UC8151 model's)


def window(dev, t0, first):
    """The span from the snapshot t0 to WINDOW_MS after it: (its split, the waveform ms of the
    refreshes from the first-th on, the last one's frame, when the first came: ms after t0)."""
    dev.sleep(t0[0] + WINDOW_MS - dev.emu_ms())
    span = split(t0, snapshot(dev))
    shown = panel(dev, first)
    if not shown:
        raise SystemExit("the press was not answered on the panel")
    return span, sum(ms for _f, ms in shown), shown[-1][0], shown[0][0].t_us / 1000 - t0[0]


def sleep_s(dev, s=None):
    """The device's sleep_s, as `knockbox push` reports it on USB; s: set it to s first."""
    dev.on_battery(False)  # (the laptop speaks over USB)
    out = dev.push(*(("--sleep", str(s)) if s else ())).stdout
    dev.on_battery()
    return json.loads(out)["sleep_s"]


def switch_off_and_wake(dev, p, rng):
    """The off path and the wake measured (see the module's docstring): a dict of their
    spans."""
    sleep_s(dev, SLEEP_MIN)
    a = len(p.presses)
    p.hand(rng.take(1)[0])
    key(dev, p.presses[a:])
    dev.wait_quiet(1000)
    first = len(panel(dev, 0))  # (decoding the log takes a while: before the span)
    dev.sleep(dev.last_release[0] / 1000 + SLEEP_MIN * 1000 - OFF_LEAD_MS - dev.emu_ms())
    t0 = snapshot(dev)
    end = time.time() + 120
    while dev.powered():
        if time.time() > end:
            raise SystemExit("the board did not switch off after sleep_s")
        time.sleep(0.02)
    off = split(t0, snapshot(dev))  # (the counters stand still while the board is off)
    off_panel = sum(ms for _f, ms in panel(dev, first))
    first = len(panel(dev, 0))
    dev.power_press("b", PRESS_MS)
    wake = window(dev, (0, 0, 0, 0), first)  # (the new boot's counters start at its power-on)
    if dev.act([("b", "long")]):  # back to the scoreboard: the hand was not entered
        raise SystemExit("B held did not go back to the scoreboard")
    dev.wait_quiet(1000)
    dev.sleep(3000)  # (idle again, as before the first press of a hand)
    first, t0 = len(panel(dev, 0)), snapshot(dev)
    dev.press("b", PRESS_MS)
    press = window(dev, t0, first)
    if wake[2].diff(press[2]):
        raise SystemExit("the press that woke the board was not acted on as on a running board")
    return {"off": (off, off_panel), "wake": wake, "press": press}


def per_hand(q_entry, t_awake, i_idle, q_cycle, off_s):
    """mA ms a hand: the entry (buttons and panel), then idle until the next hand, switched off
    after off_s (sleep_s, from the last press) if that comes first (None: never)."""
    idle_ms = HAND_S * 1000 - t_awake
    if off_s is None or off_s * 1000 >= idle_ms:
        return q_entry + i_idle * idle_ms
    return q_entry + i_idle * off_s * 1000 + q_cycle + I_OFF * (idle_ms - off_s * 1000)


def report(awake, idle, presses, refresh_ms, n, cyc):
    """The figures, as lines of text."""

    def total(spans):
        return [sum(s[i] for s in spans) for i in range(4)]

    def mas(span, panel_ms=0):
        return charge(*span) + I_PANEL * panel_ms

    aw, il = total(awake), total(idle)
    i_idle = charge(*il) / il[0]  # mA, steady between hands
    q_awake = charge(*aw) / n  # mA ms a hand at the buttons
    q_panel = I_PANEL * sum(refresh_ms) / n
    t_awake = aw[0] / n
    q_hand = per_hand(q_awake + q_panel, t_awake, i_idle, 0, None)
    uah = q_hand / 3600.0  # mA ms -> uAh
    hands_per = 1_000_000 / uah  # hands per 1,000 mAh
    pct = lambda x, t: 100.0 * x / t  # noqa: E731
    off, off_panel = cyc["off"]
    q_off = mas(off, off_panel) - i_idle * off[0]
    (wk, wk_panel, _f, wk_at), (pr, pr_panel, _g, pr_at) = cyc["wake"], cyc["press"]
    q_wake = mas(wk, wk_panel) - mas(pr, pr_panel) - i_idle * (wk[0] - pr[0])  # (the same span)
    q_cycle = q_off + q_wake
    rows = []
    for s in sorted(set(SLEEPS + (cyc["default_s"],))):
        q = per_hand(q_awake + q_panel, t_awake, i_idle, q_cycle, s)
        off_for = HAND_S - t_awake / 1000 - s
        rows.append(
            "  sleep_s %4d s: %s; %4.0f uAh a hand, %3.0f hours of play%s"
            % (
                s,
                "off %3.0f s a hand" % off_for if off_for > 0 else "never off between hands",
                q / 3600.0,
                1_000_000 / (q / 3600.0) * HAND_S / 3600,
                "  <- the firmware's default" if s == cyc["default_s"] else "",
            )
        )
    return [
        "Badger 2040 on battery, emulated: %d hands, %d presses, the panel %d refreshes (%.1f s "
        "of waveform)" % (n, presses, len(refresh_ms), sum(refresh_ms) / 1000),
        "at the buttons: %.1f s a hand; CPU running %.0f%%, WFI %.0f%%, clock-gated %.0f%%"
        % (t_awake / 1000, pct(aw[1], aw[0]), pct(aw[2], aw[0]), pct(aw[3], aw[0])),
        "between hands (%.0f s measured): CPU running %.1f%%, WFI %.1f%%, clock-gated %.1f%% "
        "(a DMA channel busy in none): %.2f mA"
        % (il[0] / 1000, pct(il[1], il[0]), pct(il[2], il[0]), pct(il[3], il[0]), i_idle),
        "charge per hand of %d s: %.0f mAs (buttons %.0f, panel %.0f, idle %.0f) = %.0f uAh"
        % (
            HAND_S,
            q_hand / 1000,
            q_awake / 1000,
            q_panel / 1000,
            i_idle * (HAND_S * 1000 - t_awake) / 1000,
            uah,
        ),
        "per 1,000 mAh: %.0f hands, %.0f hours of play" % (hands_per, hands_per * HAND_S / 3600),
        "switching off: %.1f mAs over the idle's (%.1f s measured up to the power going off, "
        "the panel %.1f s)" % (q_off / 1000, off[0] / 1000, off_panel / 1000),
        "waking: B on the dark board is answered as on a running one, %.2f s after the press "
        "(running: %.2f s); in the %.0f s from the press %.0f mAs (CPU running %.2f s, WFI %.2f "
        "s, panel %.1f s) against %.0f mAs (%.2f s, %.2f s, %.1f s): %.0f mAs more"
        % (
            wk_at / 1000,
            pr_at / 1000,
            WINDOW_MS / 1000,
            mas(wk, wk_panel) / 1000,
            wk[1] / 1000,
            wk[2] / 1000,
            wk_panel / 1000,
            mas(pr, pr_panel) / 1000,
            pr[1] / 1000,
            pr[2] / 1000,
            pr_panel / 1000,
            q_wake / 1000,
        ),
        "switch-off and wake: %.0f mAs, the idle's charge of %.1f s (%.2f mA over %.2f mA off): "
        "idling longer between hands costs more"
        % (q_cycle / 1000, q_cycle / (i_idle - I_OFF) / 1000, i_idle, I_OFF),
        "per hand of %d s, per 1,000 mAh, switched off after sleep_s without a press:" % HAND_S,
    ] + rows


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    n, idle_s = (3, 12) if quick else (HANDS, IDLE_S)
    started = bench_pico.start("bench_battery")
    if started is None:
        return 0
    emu, work = started
    try:
        image = bench_pico.option(args, "--image") or bench_pico.deploy(emu, work)
        dev = emu_device.Device(
            emu, os.path.join(work, "battery"), image, power="badger", busy_ms=BUSY_MS
        )
        t = time.time()
        try:
            bench_pico.start_settled(dev)
            default_s = sleep_s(dev)  # the fresh device's: the firmware's default
            sleep_s(dev, KEEP_ON_S)  # then on battery, on through the idle measured
            rng = Realistic()
            awake, idle, presses, start_ms, p = evening(dev, rng, n, idle_s)
            refresh_ms = [ms for f, ms in panel(dev, 0) if f.t_us >= start_ms * 1000]
            cyc = switch_off_and_wake(dev, p, rng)
            cyc["default_s"] = default_s
            check_recorded(dev, p)
        finally:
            dev.stop()
        lines = report(awake, idle, presses, refresh_ms, n, cyc)
        print("\n".join(lines))
        print("(%.0f s wall)" % (time.time() - t))
        if "--write" in args:
            docfigures.write("hardware/POWER.md", "bench_battery.py", lines)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
