"""Battery life, measured on the emulated Badger 2040 on battery: an evening of hands played on its
buttons (the rp2040-emu's `--power badger`: powered by the latch alone, VBUS low), and from the
emulator's accounting of where the chip's time went (`picoctl.py status` `sleep`: the CPU
running, waiting in WFI with its clocks running, in a clock-gated light sleep with no DMA channel
busy) and of the panel's refreshes (each one's waveform time, from the UC8151 model that decodes
the SPI log), times the datasheet currents below, the charge per hand and the hours of play a
1,000 mAh battery gives.

    .venv/bin/python bench/bench_battery.py [--image FLASH.img] [--quick] [--write]

Each hand: the presses a player makes to enter it (knock, counts, save: emu_plan.Planner),
each answered by the panel (its BUSY held 0.8 s, the fast waveform); then the players play the
next hand while the board idles (IDLE_S measured, then scaled to HAND_S: the idle current is
steady). --write puts the figures into hardware/POWER.md (its measured section).
"""

import os
import random
import shutil
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]
import bench_pico  # noqa: E402  (also puts tests/emu and tests on sys.path)
import docfigures  # noqa: E402
import emu_device  # noqa: E402
from emu_plan import Planner  # noqa: E402

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
HAND_S = 180  # a hand of gin: about 3 minutes of play
IDLE_S = 30  # idle measured after each hand (--quick: 12)
HANDS = 6  # hands in the evening (--quick: 3)
BUSY_MS = 800  # the panel's BUSY after each refresh: Pimoroni's fast waveform (uc8151.cpp)
PLAYERS = ["Ann", "Bob", "Cy"]


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


def hands(rng, n):
    out = []
    for i in range(n):
        c = [rng.randint(4, 14) for _ in PLAYERS]
        c[i % 3] = rng.randint(1, 6)
        out.append({"knock": i % 3, "counts": c})
    return out


def evening(dev, rng, n, idle_s):
    """Play n hands on the device, idle idle_s after each; returns the spans' splits, the
    presses made and when the first hand began (emulated ms)."""
    p = Planner()
    p.new_game(3, PLAYERS, {"dealer": 0})
    assert dev.act(p.presses) == [], "the new game's presses were not all answered"
    dev.wait_quiet(1000)
    start_ms = dev.emu_ms()
    awake, idle, presses = [], [], 0
    for h in hands(rng, n):
        a = len(p.presses)
        p.hand(h)
        t0 = snapshot(dev)
        missed = dev.act(p.presses[a:], ms=80)
        dev.wait_quiet(1000)
        t1 = snapshot(dev)
        dev.sleep(idle_s * 1000)
        t2 = snapshot(dev)
        if missed:
            raise SystemExit("presses not answered: %s" % missed)
        presses += len(p.presses) - a
        awake.append(split(t0, t1))
        idle.append(split(t1, t2))
    return awake, idle, presses, start_ms


def report(awake, idle, presses, refresh_ms, n):
    """The figures, as lines of text."""

    def total(spans):
        return [sum(s[i] for s in spans) for i in range(4)]

    aw, il = total(awake), total(idle)
    i_idle = charge(*il) / il[0]  # mA, steady between hands
    q_awake = charge(*aw) / n  # mA ms a hand at the buttons
    q_panel = I_PANEL * sum(refresh_ms) / n
    t_awake = aw[0] / n
    q_hand = q_awake + q_panel + i_idle * (HAND_S * 1000 - t_awake)
    uah = q_hand / 3600.0  # mA ms -> uAh
    hands_per = 1_000_000 / uah  # hands per 1,000 mAh
    pct = lambda x, t: 100.0 * x / t  # noqa: E731
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
    ]


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
            dev.on_battery()
            awake, idle, presses, start_ms = evening(dev, random.Random(21), n, idle_s)
            r = dev.frames()  # each refresh's waveform time, as the UC8151 model runs it
            refresh_ms = [
                ms
                for f, ms in zip(r.frames[::-1], r.model.refresh_ms[::-1])
                if f.t_us >= start_ms * 1000
            ]
        finally:
            dev.stop()
        lines = report(awake, idle, presses, refresh_ms, n)
        print("\n".join(lines))
        print("(%.0f s wall)" % (time.time() - t))
        if "--write" in args:
            docfigures.write("hardware/POWER.md", "bench_battery.py", lines)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
