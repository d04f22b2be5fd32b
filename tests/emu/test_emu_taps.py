"""Short taps between hands count as on silicon, on the emulated Badger on battery with the
emulator's silicon clocks: while the board naps (light sleeps of 10 ms, the button sampler
stopped, IO_BANK0 unclocked: a tap inside one slice latches nothing) a look after each slice that
finds a button down, or its edges, starts the sampler again at once, and that look is the
sampler's first sight of the press. So a tap counts if it is still down at a look, or was made
and let go since the last: one longer than a slice and the wake from it always is. The test
holds the firmware to every tap of 14 ms or more and prints their counts (emu_taps.py); the
shorter lengths, and the shortest always counted, are bench/bench_pico.py's (it writes that figure
into the docs): here only the lengths it holds to, which keeps the test near a minute.

Before, the look only ended the nap; the sampler started on the loop's next turn, and its two
entries (1.4 and 11 ms later) had to see the press: taps shorter than about two sampler entries were lost."""

import random

import emu_taps

ALWAYS_MS = 14
LENGTHS = (ALWAYS_MS, 17, 20)
N = 10


def test_short_taps_between_hands(device_factory):
    dev = device_factory(silicon_clocks=True)
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    dev.on_battery()
    dev.sleep(1000)
    counts = emu_taps.taps(dev, LENGTHS, N, random.Random(30))
    print(
        "taps between hands (Down in the menu, %d of each at random moments): %s; the shortest "
        "always counted: %s ms" % (N, emu_taps.report(counts), emu_taps.shortest_always(counts))
    )
    assert all(counts[ms] == (N, N) for ms in LENGTHS), counts
