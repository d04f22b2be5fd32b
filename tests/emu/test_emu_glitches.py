"""A spike is not a press, on the emulated Pico, both boards: pulses of 2 ms on a button (static
from a finger, a long wire on the Pico build's pull-ups) at random moments change nothing on the
panel; taps of 25 ms each count (the menu's cursor moves, a refresh each). The chip's timer
starts 10 s before ticks_us wraps (`--timer-start-us`: every 17.9 minutes of an evening), so the
presses play across the wrap."""

import random

import pytest

WRAP_MS = 10_000  # the timer starts this long before ticks_us wraps (2**30 us)
SPIKES = 12
SPIKE_MS = 2
TAP_MS = 25


@pytest.mark.parametrize("board", ["badger", "pico-epd"])
def test_a_2_ms_spike_is_ignored_a_25_ms_tap_counts_across_the_wrap(device_factory, board):
    rng = random.Random(2121)
    dev = device_factory(board=board, timer_start_us=(1 << 30) - WRAP_MS * 1000)
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    assert dev.act([("up", "press")]) == []  # the menu: Down moves its cursor
    dev.wait_quiet(300)
    first_ms = dev.emu_ms()
    n = dev.refreshes()
    for _ in range(SPIKES):
        dev.press("down", SPIKE_MS, gap=rng.randint(40, 250))
    dev.sleep(500)
    spiked = dev.refreshes() - n
    taps = 0
    while taps < 8 or dev.emu_ms() < WRAP_MS + 1000:
        assert dev.act([("down", "press")], ms=TAP_MS) == [], "tap %d did not count" % taps
        taps += 1
        dev.sleep(rng.randint(0, 60))
    print(
        "%s: %d spikes of %d ms, %d refreshes; %d taps of %d ms, all counted; from %.1f s "
        "to %.1f s of the chip's timer (ticks_us wraps at %.1f s)"
        % (
            board,
            SPIKES,
            SPIKE_MS,
            spiked,
            taps,
            TAP_MS,
            first_ms / 1000,
            dev.emu_ms() / 1000,
            WRAP_MS / 1000,
        )
    )
    assert spiked == 0
    assert first_ms < WRAP_MS < dev.emu_ms() - 1000
