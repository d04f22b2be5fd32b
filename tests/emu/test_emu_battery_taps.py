"""No press lost on battery, on the emulated Badger 2040 on battery (`--power badger`, VBUS low) at
the flash chip's worst case (`--flash-timing max`: 400 ms a sector erased, the CPU stalled). On
battery the button sampler stops for the light sleeps between presses; it must run through every
flash write: the quick player's games (test_emu_presses.py's, tapped at 60 ms, 60 ms apart,
never waiting for the panel), each game's first taps made 2.05 s after the last one of the game
before, inside the boot checkpoint the app writes once the buttons are left 2 s (a merge and
snap.json: erases of 400 ms). The journal holds exactly the changes planned.

Before, the sampler stayed stopped from the light sleep through the checkpoint's write: both
edges of a tap made in it were latched, but the sampler reads levels, and the tap was lost."""

import json

from test_emu_presses import LONG_MS, RULES, TAP_MS, plan_games, recorded

PAUSE_MS = 2050  # the checkpoint comes 2 s after the last press, at the loop's next turn


def test_taps_inside_the_checkpoint_write_on_battery_at_the_flash_worst_case(device_factory):
    dev = device_factory(busy_ms=600, flash_timing="max", power="badger")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    dev.push("--rules", json.dumps(RULES))
    dev.wait_quiet(700)
    games, planned = plan_games()
    dev.on_battery()
    dev.sleep(PAUSE_MS)
    boot = dev.boot()
    for presses in games:
        for name, kind in presses:
            dev.press(name, LONG_MS if kind == "long" else TAP_MS)
            dev.sleep(TAP_MS)
        dev.sleep(PAUSE_MS)
    dev.wait_quiet(1000)
    assert dev.powered() and dev.boot() == boot, "the board went off or restarted"
    dev.on_battery(False)  # (the laptop reads the journal over USB)
    got = recorded(dev)
    assert got == planned, "recorded %r\nplanned %r" % (got, planned)
