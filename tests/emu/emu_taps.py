"""Taps between hands: how short a tap the Badger counts while it naps on battery (light sleeps of
10 ms in which IO_BANK0 is unclocked: a tap that begins and ends inside one latches nothing, on
silicon and on the emulated Pico), measured on an emulated Badger on battery. Shared by
tests/emu/test_emu_taps.py (which holds the firmware to it) and bench/bench_pico.py (which writes
the figure into the docs).

    counts = taps(dev, (8, 10, 12), n=10, rng=random.Random(1))   # {ms: (counted, made)}
    shortest_always(counts)                                       # the shortest counted n of n

Each tap is a press of Down in the menu (each one moves its cursor: one refresh), made at a
random moment once the board has been still long enough to nap (awake_ms, 0.3 s, then 0.5-0.6 s
more); it counts if the panel is refreshed within 0.6 s of emulated time."""

QUIET_MS = 800  # after a refresh: the board naps again (awake_ms 300 ms) well before the tap
ANSWER_MS = 600


def taps(dev, lengths, n, rng):
    """On a Badger showing its scoreboard, on battery: the menu opened, then n taps of Down of
    each length (ms), at random moments; {length: (taps counted, taps made)}."""
    before = dev.refreshes()
    dev.press("up", 100)  # the menu
    assert dev.wait_refresh(before, emu_ms=3000), "the menu did not open"
    out = {}
    for ms in lengths:
        counted = 0
        for _ in range(n):
            dev.wait_quiet(QUIET_MS)
            dev.sleep(rng.uniform(0, 100))
            k = dev.refreshes()
            dev.press("down", ms)
            if dev.wait_refresh(k, emu_ms=ANSWER_MS):
                counted += 1
        out[ms] = (counted, n)
    return out


def shortest_always(counts):
    """The shortest length from which every tap of every longer length counted, or None."""
    best = None
    for ms in sorted(counts, reverse=True):
        counted, made = counts[ms]
        if counted < made:
            break
        best = ms
    return best


def report(counts):
    return ", ".join("%g ms %d/%d" % (ms, c, n) for ms, (c, n) in sorted(counts.items()))
