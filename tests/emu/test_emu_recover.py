"""A device that recovers, on the emulated Pico, through what a user and a laptop have:
the buttons, VBUS, the panel's BUSY pin, the USB serial port (`knockbox sync`, the raw REPL that
`knockbox deploy` uses) and what the panel and the power latch do (SPI and GPIO logs).

- A crash (a module file left broken, as an interrupted copy leaves it, which the app imports
  when the menu opens): recorded on flash, an error screen in full, then on battery the Badger
  drops its power latch and, on USB, the Pico build restarts after 5 s; `knockbox sync` prints
  the fault once and the device forgets it.
- A MemoryError while the fault is handled (the heap held full) still ends in off and restart.
- A panel whose BUSY never ends: on battery the latch is down within 90 s of the stuck refresh;
  one that answers again after the driver's first reset shows the frame and goes on.
- The watchdog: armed and fed in every turn of the app's loop, stopped by Ctrl-C (the REPL, a
  deploy) and not a fault. (Letting it expire cannot be shown on rp2040-emu: its watchdog alarm
  fires again at the same instant forever, see test_the_watchdog_is_fed_and_stopped_by_ctrl_c.)
"""

import json
import os
import re
import time

import emu_frames
from kit.clirun import db_rows
from kit import mp
from kit.device import build
from emu_device import LATCH
from knockbox.link.rawrepl import RawRepl

NOT_A_MODULE = b"knockfw: this copy was cut short"
RST = {"badger": 21, "pico-epd": 12}
WDT_CTRL = 0x40058000  # RP2040 watchdog CTRL: bit 30 ENABLE, bits 23:0 the time left (2/us)


def wait_for(probe, timeout=120.0, step=0.1):
    end = time.time() + timeout
    while time.time() < end:
        got = probe()
        if got:
            return got
        time.sleep(step)
    return probe()


def break_module(dev, name="ui_menu"):
    """Through the raw REPL (Ctrl-C stops the app): a module the app imports later replaced by
    bytes that are no module, then a soft reset (the app again), until its first frame."""
    n = dev.refreshes()
    b = RawRepl(dev.tty)
    try:
        b.write("knockfw/%s.mpy" % name, NOT_A_MODULE)
        b.restart()
    finally:
        b.close()
    assert dev.wait_refresh(n, 120), "the app did not come back after the soft reset"
    dev.wait_quiet(300)


def latch_lows(dev, boot):
    """The power latch driven low in `boot` (or in a later one)."""
    return [
        r
        for r in dev.gpio_records()
        if r.get("pin") == LATCH
        and r.get("boot", 0) >= boot
        and r.get("oe") == 1
        and r.get("v") == 0
    ]


def faults_printed(p):
    return [ln for ln in p.stdout.splitlines() if ln.startswith("device fault")]


def error_screen(tmp_path, line, usb, name="ref"):
    """The error screen the firmware draws (knockfw.fault.screen, under the unix port) for the
    exception whose last traceback line is `line` ("ValueError: ...")."""
    typ, _, msg = line.partition(": ")
    out = tmp_path / name
    out.mkdir()
    code = (
        "from simboard import SimDisplay\nfrom knockfw import fault\n"
        "fault.screen(SimDisplay(%r), %s(%r), %r)\n" % (str(out), typ, msg, usb)
    )
    p = mp.run(code, paths=[build()])
    assert p.returncode == 0, p.stdout + p.stderr
    return emu_frames.pbm_image(str(out / "frame.pbm"))


def check_sync_reports_once(dev, want, n=1):
    """`knockbox sync` prints the n faults (lines with `want`) once, the history keeps them,
    and the next sync prints nothing: the device has forgotten them. Returns the printed lines."""
    dev.on_battery(False)
    p = dev.sync()
    first = faults_printed(p)
    assert len(first) == n and all(want in ln for ln in first), p.stdout
    print(p.stdout)
    again = dev.sync()
    assert faults_printed(again) == [], again.stdout
    rows = db_rows(os.path.join(dev.home, "history.sqlite3"), "SELECT record, cleared FROM faults")
    assert len(rows) == n and all(r[1] == 1 and want in r[0] for r in rows), rows
    return first


def power_on(dev, boot, app=True):
    """The Badger is off (its latch down on battery): a press of B powers it on (the emulator's
    --power badger: a boot from reset with B held), as on silicon; with app, until the app has
    drawn its first frame."""
    assert wait_for(lambda: not dev.powered(), 30), "still powered with the latch down"
    time.sleep(1)
    assert not dev.powered(), "powered again with nothing holding the power on"
    boot = dev.boot()  # (the emulator may count a reset the chip began as the power went)
    n = dev.refreshes()
    dev.press("b", 150)
    assert wait_for(lambda: dev.powered() and dev.boot() > boot, 60), (
        "a press did not power the Badger on"
    )
    if app:
        assert dev.wait_refresh(n, 120), "the app drew nothing after the power-on"
        dev.wait_quiet(300)
    return boot + 1  # the boot the press began


def badger_on_battery(device_factory, before=None):
    """A Badger with the Badger's power path (--power badger: a released latch on battery is
    off), its first screen out, then (after before(dev), if given) on battery: (dev, its boot
    count)."""
    dev = device_factory(power="badger")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    if before:
        before(dev)
    boot = dev.boot()
    dev.on_battery()
    return dev, boot


def test_a_crash_on_battery_is_recorded_shown_then_the_badger_switches_off(
    device_factory, tmp_path
):
    dev, boot = badger_on_battery(device_factory, break_module)
    n = dev.refreshes()
    press_us = dev.press("up")["start_emu_us"]  # the menu: its module does not import
    offs = wait_for(lambda: latch_lows(dev, boot))
    assert offs, "the latch never went down after the crash"
    off_us = offs[0]["t"]
    assert dev.refreshes() > n, "no error screen"
    shown = [f for f in dev.frames().frames if f.boot == boot and press_us < f.t_us < off_us]
    assert shown, "no frame between the press and the switch-off"
    print(
        "crash on battery: error screen %.0f ms, latch down %.0f ms after the press"
        % ((shown[-1].t_us - press_us) / 1000, (off_us - press_us) / 1000)
    )
    assert off_us - press_us < 2_000_000
    # the press that powers it on counts: it opens the menu, which fails again (off again)
    boot = power_on(dev, boot)
    assert wait_for(lambda: latch_lows(dev, boot), 60), "the latch stayed up after the press"
    assert wait_for(lambda: not dev.powered(), 30)
    boot = dev.boot()
    n = dev.refreshes()
    dev.on_battery(False)  # USB: on again, from reset, and nothing pressed
    assert wait_for(lambda: dev.boot() > boot, 60) and dev.wait_refresh(n, 120)
    dev.wait_quiet(300)
    lines = check_sync_reports_once(dev, "ValueError", 2)
    what = lines[0].split("): ", 1)[1]
    assert shown[-1].kind == "full"
    ref = error_screen(tmp_path, what, usb=False)
    assert shown[-1].diff(ref) == 0, "not the error screen:\n" + shown[-1].ascii()


def test_a_crash_on_usb_shows_the_error_then_restarts(device_factory, tmp_path):
    dev = device_factory(board="pico-epd")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    break_module(dev)
    boot = dev.boot()
    n = dev.refreshes()
    dev.press("up")
    assert dev.wait_refresh(n, 60), "no error screen"
    t_error = dev.pico.time()["emu_total_s"]
    assert wait_for(lambda: dev.boot() > boot, 60), "no restart"
    t_restart = dev.pico.time()["emu_total_s"]
    assert dev.wait_refresh(n + 1, 120), "nothing drawn after the restart"
    dev.wait_quiet(300)
    print(
        "crash on USB: restarted %.1f s (emulated) after the error screen" % (t_restart - t_error)
    )
    assert 4.5 < t_restart - t_error < 15
    lines = check_sync_reports_once(dev, "ValueError")
    fr = dev.frames().frames
    error = [f for f in fr if f.boot == boot][-1]
    ref = error_screen(tmp_path, lines[0].split("): ", 1)[1], usb=True)
    assert error.diff(ref) == 0, "not the error screen:\n" + error.ascii()
    assert [f for f in fr if f.boot > boot][-1].diff(error) > 0  # the app's own screen again


def rst_lows(dev, boot, after_us):
    """When the panel's RST pin was driven low in `boot` after `after_us` (the driver's resets)."""
    pin = RST[dev.board]
    return [
        r["t"]
        for r in dev.gpio_records()
        if r.get("pin") == pin
        and r.get("boot") == boot
        and r.get("oe") == 1
        and r.get("v") == 0
        and r["t"] > after_us
    ]


def test_a_panel_stuck_busy_on_battery_switches_the_badger_off_within_90_s(device_factory):
    dev = device_factory(no_pace=True, power="badger")  # (the minute it takes: no waiting)
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    boot = dev.boot()
    dev.on_battery()
    busy = dev.panel["busy"]
    dev.pico.drive(busy, dev.panel["busy_level"])  # BUSY_N held low: busy, for good
    press_us = dev.press("up")["start_emu_us"]  # the menu: a refresh that never ends
    offs = wait_for(lambda: latch_lows(dev, boot), 400, 0.5)
    assert offs, "the latch stayed up with the panel stuck"
    off_ms = (offs[0]["t"] - press_us) / 1000
    resets = [(t - press_us) / 1e6 for t in rst_lows(dev, boot, press_us)]
    print(
        "stuck BUSY on battery: panel reset at %s s, latch down %.1f s after the press"
        % (["%.1f" % t for t in resets], off_ms / 1000)
    )
    assert off_ms < 90_000
    # 15 s after the panel's last command (before the press: the panel was idle, then held
    # busy), a reset and the frame sent again in full; 15 s more, the second; then it gives up
    assert len(resets) == 2 and resets[0] < 15.5 and 15 < resets[1] - resets[0] < 18, resets
    dev.pico.drive(busy, 1 - dev.panel["busy_level"])  # the panel answers again
    power_on(dev, boot)
    check_sync_reports_once(dev, "OSError: panel stuck busy")


def test_a_panel_that_answers_after_its_reset_shows_the_frame_and_goes_on(device_factory, tmp_path):
    from kit import device as unix  # the same firmware on the unix port: what the screens look like

    dev = device_factory(no_pace=True)
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    boot = dev.boot()
    busy, level = dev.panel["busy"], dev.panel["busy_level"]
    dev.pico.drive(busy, level)
    n = dev.refreshes()
    press_us = dev.press("up")["start_emu_us"]
    assert wait_for(lambda: rst_lows(dev, boot, press_us), 200, 0.5), "the panel was not reset"
    dev.pico.drive(busy, 1 - level)  # it answers after the reset: the frame goes out again
    assert dev.wait_refresh(n, 60), "no refresh after the reset"
    dev.wait_quiet(300)
    n = dev.refreshes()
    dev.press("down")
    assert dev.wait_refresh(n, 60), "the device did not go on"
    dev.wait_quiet(300)
    out = str(tmp_path / "unix")
    unix.run_script([["press", "up"], ["shot", "menu"], ["press", "down"], ["shot", "down"]], out)
    r = dev.frames()
    mine = [f for f in r.frames if f.boot == boot and f.t_us > press_us]
    refs = [emu_frames.pbm_image(out + "/%s.pbm" % s) for s in ("menu", "down")]
    assert [f.diff(ref) for f, ref in zip(mine[-2:], refs)] == [0, 0], mine
    # after the reset, first what was sent last (the scoreboard) again, in full: the app draws
    # nothing new while the panel is busy
    first = [f for f in r.frames if f.boot == boot][0]
    assert len(mine) == 3 and mine[0].kind == "full" and mine[0].diff(first) == 0, mine
    assert r.errors == []
    assert dev.boot() == boot
    assert faults_printed(dev.sync()) == []


# Through the raw REPL, the app's own run() again, each turn of its loop first reading the
# watchdog's CTRL register; after 200 turns a KeyboardInterrupt, as Ctrl-C gives, goes where
# main.py sends it (knockfw.fault.top). Prints the first reading, the least time left of all,
# whether it was enabled in every one, and whether it still is afterwards.
LOOK = """
import json, machine
import knockfw.app as a
from knockfw import fault
seen = []
step = a.App.step
def look(self, now):
    seen.append(machine.mem32[%d])
    if len(seen) >= 200:
        raise KeyboardInterrupt
    return step(self, now)
a.App.step = look
try:
    a.run()
except KeyboardInterrupt as e:
    fault.top(e)
print(json.dumps([seen[0] & 0xffffff, min(c & 0xffffff for c in seen),
                  all(c & (1 << 30) for c in seen), machine.mem32[%d] & (1 << 30)]))
""" % (WDT_CTRL, WDT_CTRL)


def test_the_watchdog_is_fed_and_stopped_by_ctrl_c(device_factory):
    """Armed (8 s) and fed in every turn of the app's loop; Ctrl-C stops it and is no fault; a
    deploy onto the running app goes through. Not shown: the watchdog expiring. rp2040-emu
    (rp2040js 1.4.1) loops at that moment: its watchdog alarm (a Timer32PeriodicAlarm counting
    down to 0, top 0xffffffff) reschedules itself after firing at a delay of 0, so it fires again
    at the same instant forever ("watchdog reset" without end) and the setImmediate(doReset) of
    emulator.mjs never runs (emulator.mjs could stop the alarm in its onWatchdogTrigger). The
    restart itself, machine.reset(), is what the fault tests above go through."""
    dev = device_factory()
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    boot = dev.boot()
    b = RawRepl(dev.tty)  # Ctrl-C, as `knockbox deploy` and mpremote send it
    try:
        ctrl = int(b.run("import machine\nprint(machine.mem32[%d])" % WDT_CTRL))
        assert not ctrl & (1 << 30), "Ctrl-C left the watchdog running"
        assert "'size': 0" in b.run("from knockfw import fault\nprint(fault.read())")
        dev.sleep(10_000)  # longer than the watchdog's 8 s, at the REPL
        assert dev.boot() == boot
        first, least, armed, after = json.loads(b.run(LOOK, timeout=120).strip())
    finally:
        b.close()
    print(
        "watchdog: loaded %.2f s, at least %.2f s left in every turn of the loop"
        % (first / 2e6, least / 2e6)
    )  # (its counter runs at 2 MHz: RP2040-E1)
    assert armed and 15_500_000 < first <= 16_000_000 and least > 15_000_000
    assert not after
    assert dev.boot() == boot
    # a deploy onto the running app (its watchdog armed again by the soft reset)
    b = RawRepl(dev.tty)
    try:
        b.restart()
    finally:
        b.close()
    n = dev.refreshes()
    assert dev.wait_refresh(n, 120)
    dev.wait_quiet(300)
    t0 = dev.pico.time()["emu_total_s"]
    n = dev.refreshes()
    p = dev.knockbox("deploy", "--port", dev.tty, "--board", "badger", "--force")
    took = dev.pico.time()["emu_total_s"] - t0
    print("deploy --force onto the running app: %.1f s (emulated)" % took)
    assert dev.boot() == boot, p.stdout
    assert dev.wait_refresh(n, 120), "the app did not start again after the deploy"
    assert took > 9, "the deploy was too quick to show the watchdog stopped"


# A MemoryError, then the heap locked (every allocation fails at once, the worst a full heap
# can do) while knockfw.fault.top() handles it.
HEAP_FULL = """
import micropython
from knockfw import fault
try:
    bytearray(1 << 20)
except MemoryError as e:
    micropython.heap_lock()
    fault.top(e)
"""


def test_a_memory_error_while_the_fault_is_handled_still_ends_off_then_restarted(device_factory):
    dev, boot = badger_on_battery(device_factory)
    b = RawRepl(dev.tty)
    try:
        b.t.exec_raw_no_follow(HEAP_FULL)
    finally:
        b.close()
    assert wait_for(lambda: latch_lows(dev, boot), 60), "the latch stayed up"
    power_on(dev, boot)


def test_a_board_that_cannot_be_made_on_battery_still_switches_off(device_factory):
    """The panel's driver left broken (as a cut copy leaves it): the app's board cannot be made,
    nor the fault handler's. On battery the latch goes down all the same (knockfw.board.off());
    a press powers the Badger on, it fails again and is off again; on USB the REPL is left with
    the traceback, the watchdog stopped, and the faults are on flash."""
    dev, boot = badger_on_battery(device_factory)
    b = RawRepl(dev.tty)
    try:
        b.write("knockfw/uc8151.mpy", NOT_A_MODULE)
        b.restart()  # a soft reset: main.py again, the latch kept high
    finally:
        b.close()
    assert wait_for(lambda: latch_lows(dev, boot), 60), "the latch stayed up without a board"
    boot = power_on(dev, boot, app=False)
    assert wait_for(lambda: latch_lows(dev, boot), 60), "the latch stayed up after a press"
    assert wait_for(lambda: not dev.powered(), 30)
    boot = dev.boot()
    dev.on_battery(False)  # USB: the board boots, fails, and leaves the REPL
    assert wait_for(lambda: dev.boot() > boot, 60)
    assert wait_for(lambda: dev.pico.status().get("usb_connected"), 60)
    dev.sleep(3000)
    b = RawRepl(dev.tty)
    try:
        got = json.loads(
            b.run(
                "import json, machine\nfrom knockfw import fault\n"
                "print(json.dumps([fault.read()['faults'],"
                " machine.mem32[%d] & (1 << 30)]))" % WDT_CTRL
            ).strip()
        )
    finally:
        b.close()
    records, armed = got
    assert records.count("@") == 3 and records.count("in Board\nValueError") == 3, records
    assert not armed
    assert dev.refreshes() == 1  # (the first boot's screen; none drawn since)


# The app's own run() through the raw REPL, its loop hanging (no feed) after 50 turns.
HANG = """
import knockfw.app as a
step = a.App.step
turns = []
def hang(self, now):
    turns.append(now)
    while len(turns) > 50:
        pass
    return step(self, now)
a.App.step = hang
a.run()
"""


def test_the_watchdog_resets_a_hung_loop_and_the_next_boot_shows_the_fault(
    device_factory, tmp_path
):
    """A loop that stops feeding the watchdog: the chip resets 8.4 s later (the RP2040's
    longest timeout), the next boot records it as a fault and shows the error screen, and
    after the restart `knockbox sync` prints it once. (On a Badger on battery that reset
    releases the latch: the board is off, and the next press boots it afresh, from a power-on
    reset that leaves no trace: only a board that stays powered can tell.)"""
    dev = device_factory(board="pico-epd")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    boot = dev.boot()
    b = RawRepl(dev.tty)
    try:
        b.t.exec_raw_no_follow(HANG)
    finally:
        b.close()
    t0 = dev.pico.time()["emu_total_s"]
    assert wait_for(lambda: dev.boot() > boot, 60), "the watchdog did not reset the chip"
    hung = dev.pico.time()["emu_total_s"] - t0
    n = dev.refreshes()
    assert wait_for(lambda: dev.boot() > boot + 1, 90), "no restart after the error screen"
    assert dev.wait_refresh(n, 120)
    dev.wait_quiet(300)
    print("watchdog: reset within %.1f s (emulated) of the hang's start" % hung)
    assert hung < 12
    lines = check_sync_reports_once(dev, "RuntimeError: watchdog reset")
    # the first frame after the watchdog's reset (the app raises before it draws anything)
    error = [f for f in dev.frames().frames if f.boot == boot + 1][0]
    ref = error_screen(tmp_path, lines[0].split("): ", 1)[1], usb=True)
    assert error.diff(ref) == 0, "not the error screen:\n" + error.ascii()


def test_a_panel_that_is_not_there_is_a_fault(device_factory):
    """The Badger's panel unplugged (BUSY_N no longer driven: the pull-up reads idle): the next
    refresh "ends" at once, the driver finds nothing driving BUSY, and the fault is recorded
    (no error screen on a panel that is not there); on USB the board restarts, and with the
    panel back `knockbox sync` prints the fault's words."""
    dev = device_factory()
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    boot = dev.boot()
    dev.pico.drive(dev.panel["busy"], "z")
    n = dev.refreshes()
    dev.press("up")
    dev.sleep(2000)  # the fault, then 5 s on USB before the restart
    sent = dev.refreshes() - n
    dev.pico.drive(dev.panel["busy"], 1)  # the panel back
    assert wait_for(lambda: dev.boot() > boot, 60), "no restart after the fault"
    assert dev.wait_refresh(n + sent, 120)
    dev.wait_quiet(300)
    assert sent == 1  # the menu's refresh, then nothing: no error screen
    check_sync_reports_once(dev, "OSError: panel not connected")


def test_an_unplugged_waveshare_panel_is_a_fault_within_a_second(device_factory):
    """The Pico build's panel unplugged (the SSD1680's BUSY, high while busy, no longer driven:
    the pull-up reads busy for good): the driver looks once a command has kept it busy 1 s,
    finds nothing driving the pin, and the fault is recorded then (no error screen), not after
    three stuck-busy resets 15 s apart."""
    dev = device_factory(board="pico-epd")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    boot = dev.boot()
    dev.pico.drive(dev.panel["busy"], "z")
    n = dev.refreshes()
    r = dev.press("up")
    dev.sleep(3000)  # the fault, then 5 s on USB before the restart
    sent = dev.refreshes() - n
    dev.pico.drive(dev.panel["busy"], 0)  # the panel back (idle)
    assert wait_for(lambda: dev.boot() > boot, 60), "no restart after the fault"
    assert dev.wait_refresh(n + sent, 120)
    dev.wait_quiet(300)
    assert sent <= 1  # (the menu's, if the panel was still awake), then no error screen
    lines = check_sync_reports_once(dev, "OSError: panel not connected")
    at_s = float(re.search(r"\(([\d.]+) s after the device started\)", lines[0]).group(1))
    pressed_s = r["start_emu_us"] / 1e6
    print("%s; Up pressed at %.1f s" % (lines[0], pressed_s))
    assert at_s - pressed_s < 3, (at_s, pressed_s)
