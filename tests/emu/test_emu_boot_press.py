"""A press made while the app is still being imported counts, on the emulated RP2040: boot.py
starts the buttons' sampler within its 100 ms budget after reset, long before the app is
running; a 60 ms tap of Up 150 ms after a reset must open the menu, the first screen the app
draws (without the early IRQs the edges came and went before anything looked at the pins)."""

import time

from kit import device as unix  # tests/kit/device.py: the same firmware on MicroPython's unix port
import emu_frames

TAP_AT_MS = 150  # after the reset: boot.py has run (bench_pico.py), the app is importing
TAP_MS = 60


def test_a_tap_during_the_imports_counts(device, tmp_path):
    assert device.wait_refresh(0, 120), "no first frame"
    device.wait_quiet(300)
    out = str(tmp_path / "unix")
    unix.run_script([["keys", ["up"]], ["shot", "menu"]], out)
    menu = emu_frames.pbm_image(out + "/menu.pbm")

    n = device.refreshes()
    device.reset()
    while device.emu_ms() < TAP_AT_MS:  # emulated time since the reset
        time.sleep(0.002)
    r = device.press("up", TAP_MS)
    released_ms = r["release_us"] / 1000
    assert device.wait_refresh(n, 120), "no frame after the reset"
    device.wait_quiet(400)
    boot = device.boot()
    first = [f for f in device.frames().frames if f.boot == boot]
    assert first, "nothing drawn after the reset"
    assert first[0].t_us / 1000 > released_ms, "the tap ended after the first frame: too late"
    print(
        "tap %d-%d ms after the reset; first frame at %.0f ms"
        % (released_ms - TAP_MS, released_ms, first[0].t_us / 1000)
    )
    assert first[-1].diff(menu) == 0, "the tap was lost:\n" + first[-1].ascii()
