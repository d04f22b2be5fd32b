"""The press that wakes the Badger is never lost, on the emulated Badger 2040 on battery
(`--power badger`: off unless the latch, VBUS or a held button powers it) with the emulator's
silicon clocks (`--silicon-clocks`: the ring oscillator from reset and the flash cache's misses,
where the early boot is slow as on a real chip). Its /boot.py drives the latch (GPIO 10) and the
LED (GPIO 25) in its first statements and reads the buttons from the SIO's GPIO_IN right then,
before any module is loaded:

- a quick tap of B (60 ms, let go soon after the latch, long before the app or even the board
  file are loaded) wakes the board and counts: Bob knocked, his count is asked;
- the LED comes on with the latch ("press until the light comes on");
- a gin hold of B that wakes the board (900 ms) opens the gin screen, not "Bob knocks" (issue
  26): the waking press is timed from when boot.py saw it.

Before, the pins were read after three modules were loaded: the tap was
let go by then and the board came up on the scoreboard; and the wake was always a short press."""

from emu_device import LATCH
from test_emu_wake import game_begun, reference

LED = 25
TAP_MS = 60
GIN_MS = 900


def first_drive(records, boot, pin):
    ts = [
        r["t"]
        for r in records
        if r.get("boot") == boot and r.get("pin") == pin and r.get("v") == 1 and r.get("oe") == 1
    ]
    return min(ts) if ts else None


def wake(dev, name, ms):
    """Power the dark board with a press of `name` held `ms`; the frames of the new boot once
    the panel is quiet, and its GPIO records."""
    n = dev.refreshes()
    released_us = dev.power_press(name, ms)
    boot = dev.boot()
    assert dev.wait_refresh(n, 120), "no frame after the wake"
    dev.wait_quiet(500)
    assert dev.powered(), "the board went dark: the latch came after the press ended"
    return (
        [f for f in dev.frames().frames if f.boot == boot],
        dev.gpio_records(),
        boot,
        released_us,
    )


def test_the_waking_press_counts_and_a_gin_hold_is_gin(device_factory, tmp_path):
    dev = device_factory(no_pace=True, power="badger", silicon_clocks=True)
    p = game_begun(dev)
    dev.on_battery()

    frames, gpio, boot, released_us = wake(dev, "b", TAP_MS)
    latch, led = first_drive(gpio, boot, LATCH), first_drive(gpio, boot, LED)
    print(
        "wake tap: latch %.1f ms, LED %s after reset; B let go at %.1f ms"
        % (latch / 1000, led and "%.1f ms" % (led / 1000), released_us / 1000)
    )
    assert latch < released_us  # (or the board would be dark)
    assert frames, "nothing drawn after the wake"
    counts = reference(tmp_path, p, ("b", "press"), "counts")
    assert frames[-1].diff(counts) == 0, "the waking tap did not count:\n" + frames[-1].ascii()
    assert led is not None and 0 <= led - latch < 2000, led  # the LED with the latch

    frames, _gpio, _boot, _rel = wake(dev, "b", GIN_MS)
    gin = reference(tmp_path, p, ("b", "long"), "gin")
    assert frames[-1].diff(gin) == 0, "a gin hold did not wake to gin:\n" + frames[-1].ascii()
