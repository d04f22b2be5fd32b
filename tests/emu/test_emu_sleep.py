"""The chip really sleeps, on the emulated Badger on battery: between hands, once the buttons
have been still for awake_ms, the board spends most of its time in a clock-gated light sleep
with no DMA channel busy (the RP2040 gates its clocks only then: datasheet 2.11.2), as the
emulator's `sleep` accounting shows (`picoctl.py status`: gated_ms, gated_dma_busy_ms); and a
quick tap after the long idle still counts."""

IDLE_MS = 12_000


def sleep_counters(dev):
    s = dev.pico.status()["sleep"]
    return dev.emu_ms(), s["wfi_ms"], s["gated_ms"], s["gated_dma_busy_ms"]


def test_idle_on_battery_is_a_gated_sleep_and_a_tap_still_counts(device_factory):
    dev = device_factory()
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    dev.on_battery()
    dev.sleep(3000)  # the buttons still for awake_ms (0.3 s): from here the light sleeps
    t0, wfi0, gated0, busy0 = sleep_counters(dev)
    dev.sleep(IDLE_MS)
    t1, wfi1, gated1, busy1 = sleep_counters(dev)
    span, gated, busy = t1 - t0, gated1 - gated0, busy1 - busy0
    print(
        "idle on battery: %.1f s, in WFI %.0f%%, clock-gated %.0f%%, gated with a DMA channel "
        "busy %.1f%%"
        % (span / 1000, 100 * (wfi1 - wfi0) / span, 100 * gated / span, 100 * busy / span)
    )
    assert gated > 0.6 * span
    assert busy < 0.005 * span
    # a quick tap after the long idle: the menu opens
    assert dev.act([("up", "press")], ms=25) == [], "the tap after the idle was lost"
