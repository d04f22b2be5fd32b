"""An emulated Knockbox for tests: the firmware deployed by `knockbox deploy` on stock MicroPython
v1.28 running on rp2040js (../shared/rp2040-emu), driven only through what a user or a laptop
has: the buttons (GPIO), the USB serial port, and what the panel shows (decoded from the SPI
log with the controller models, see emu_frames.py).

    dev = Device(emupico_module, state_dir, image, board="badger")
    dev.start()                    # boots the app from `image` (a copy is used)
    dev.press("up"); dev.long_press("a")
    dev.frames()                   # every panel refresh so far, decoded
    dev.knockbox("sync")           # the laptop tool on this device's serial port
    dev.stop()

Times are emulated RP2040 time unless a name says wall.
"""

import json
import os
import shutil
import subprocess
import sys
import threading
import time

import emu_frames
from emu_laptop import Laptop

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The emulator: ../shared/rp2040-emu beside the repository, or $RP2040_EMU.
EMU = os.path.abspath(
    os.environ.get("RP2040_EMU") or os.path.join(os.path.dirname(ROOT), "shared", "rp2040-emu")
)
HAVE_EMU = os.path.isfile(os.path.join(EMU, "emupico.py"))
MISSING = "no emulated Pico: %s not found (set RP2040_EMU to its folder)" % EMU


def load_emupico(setup=True):
    """The emulator's Python module (emupico from EMU, imported without writing bytecode into the
    emulator's folder); with setup, its setup.sh has run first (it prepares the emulator once)."""
    sys.dont_write_bytecode = True
    if EMU not in sys.path:
        sys.path.insert(0, EMU)
    try:
        import emupico
    finally:
        sys.dont_write_bytecode = False
    if setup:
        p = subprocess.run(
            [os.path.join(EMU, "setup.sh")], capture_output=True, text=True, timeout=900
        )
        if p.returncode != 0:
            raise RuntimeError(
                "rp2040-emu setup.sh failed:\n" + p.stdout[-2000:] + p.stderr[-2000:]
            )
    return emupico


# Buttons per build: GPIO and the level a pressed button reads.
BUTTONS = {
    "badger": ({"a": 12, "b": 13, "c": 14, "up": 15, "down": 11}, 1),
    "pico-epd": ({"a": 2, "b": 3, "c": 4, "up": 5, "down": 6}, 0),
}
# The panel's refresh command (UC8151 DRF; SSD1680 master activation) and BUSY pin/level.
REFRESH_CMD = {"badger": 0x12, "pico-epd": 0x20}
LATCH = 10  # Badger 2040: 3V3 enable (power latch)
VBUS = 24  # VBUS sense: 1 on USB power


class _Panel:
    # What the panel showed: the refresh commands counted live from the SPI log (the _Watcher)
    # and the frames decoded from it with the controller models (emu_frames). Needs _watch,
    # spi_log, gpio_log, board, _cuts and emu_ms() (Device).
    def refreshes(self):
        """Refresh commands sent so far (all boots), counted live from the SPI log."""
        return self._watch.count

    def refresh_times(self):
        """[(boot_index, t_us)] of the refresh commands seen so far."""
        return list(self._watch.times)

    def wait_refresh(self, after, timeout=120.0, emu_ms=None):
        """Wait until more than `after` refreshes were sent; True if so. Gives up after
        `timeout` wall seconds, or after `emu_ms` of emulated time if given."""
        end = time.time() + timeout
        t0 = self.emu_ms() if emu_ms is not None else None
        k = 0
        while time.time() < end:
            if self._watch.count > after:
                return True
            time.sleep(0.01)
            k += 1
            if t0 is not None and k % 10 == 0 and self.emu_ms() - t0 > emu_ms:
                return self._watch.count > after
        return False

    def wait_quiet(self, ms=300, timeout=30.0):
        """Wait until no refresh was sent for `ms` of emulated time."""
        end = time.time() + timeout
        n = self._watch.count
        t0 = self.emu_ms()
        while time.time() < end:
            time.sleep(0.02)
            if self._watch.count != n:
                n = self._watch.count
                t0 = self.emu_ms()
            elif self.emu_ms() - t0 >= ms:
                return True
        return False

    def _logs_settled(self):
        # the emulator appends asynchronously: wait until both files stop growing
        last = None
        for _ in range(100):
            cur = tuple(
                os.path.getsize(p) if os.path.exists(p) else 0
                for p in (self.spi_log, self.gpio_log)
            )
            if cur == last:
                return
            last = cur
            time.sleep(0.03)

    def frames(self):
        """Every refresh so far, decoded with the controller model (emu_frames.PanelReader)."""
        self._logs_settled()
        return emu_frames.decode(self.spi_log, self.gpio_log, self.board, cuts=self._cuts)

    def last_frame(self):
        fr = self.frames().frames
        return fr[-1] if fr else None

    def gpio_records(self):
        self._logs_settled()
        return emu_frames.read_jsonl(self.gpio_log)


class Device(_Panel, Laptop):
    def __init__(
        self,
        emupico,
        state,
        image,
        board="badger",
        no_pace=False,
        busy_ms=None,
        home=None,
        inputs=(),
        flash_timing=None,
        power=None,
        timer_start_us=None,
        silicon_clocks=False,
    ):
        """state: a new state directory; image: the flash image to boot (copied); busy_ms: if
        set, the panel's BUSY pin is held busy that long after each refresh command (a panel
        that takes time); inputs: more `-i PIN=V` initial levels; flash_timing: the flash chip's
        busy time, "typ", "max" or "off" (None: the emulator's default, typ, or
        $PICO_EMU_FLASH_TIMING); power: "badger", the Badger's power path (off on battery once
        the latch is down and no button is held; a press powers it on, a boot from reset);
        timer_start_us: where the chip's timer starts at each reset (ticks_us wraps at 2**30);
        silicon_clocks: the emulator's model of a real chip's clocks (the ring oscillator from
        reset, the XIP cache's misses: rp2040-emu --silicon-clocks), for timings at boot."""
        self.emupico = emupico
        self.state = os.path.abspath(str(state))
        self.board = board
        self.pins, self.on_level = BUTTONS[board]
        self.panel = emu_frames.PANELS[board]
        self.no_pace = no_pace
        self.busy_ms = busy_ms
        self.inputs = list(inputs)
        self.flash_timing = flash_timing
        self.power = power
        self.timer_start_us = timer_start_us
        self.silicon_clocks = silicon_clocks
        os.makedirs(self.state, exist_ok=True)
        self.flash = os.path.join(self.state, "flash.img")
        if image is None:  # a blank flash: MicroPython makes a new filesystem
            if os.path.exists(self.flash):
                os.remove(self.flash)
        else:
            shutil.copyfile(str(image), self.flash)
        self.spi_log = os.path.join(self.state, "spi.jsonl")
        self.gpio_log = os.path.join(self.state, "gpio.jsonl")
        self.home = home or os.path.join(self.state, "home")  # the laptop's KNOCKBOX_HOME
        self.pico = emupico.Pico(self.state)
        self._watch = None
        self.started = False
        self.last_release = None  # (emulated us, boot) when the last press() let go
        self._cuts = []  # SPI log lengths at the resets made here

    # ---------------------------------------------------------------- life cycle
    def start(self, timeout=120):
        args = [
            "--flash-image",
            self.flash,
            "--wait",
            "usb",
            "--timeout",
            str(timeout),
            "--spi-log",
            self.spi_log,
            "--gpio-log",
            self.gpio_log,
        ]
        if self.board == "pico-epd":
            args += ["-i", "13=0"]  # SSD1680 BUSY: high = busy, so idle is low
        for i in self.inputs:
            args += ["-i", i]
        if self.no_pace:
            args.append("--no-pace")
        if self.flash_timing:
            args += ["--flash-timing", self.flash_timing]
        if self.power:
            args += ["--power", self.power]
        if self.timer_start_us is not None:
            args += ["--timer-start-us", str(self.timer_start_us)]
        if self.silicon_clocks:
            args.append("--silicon-clocks")
        self.started = True  # from here stop() runs pico-stop (safe if nothing is running)
        p = self.pico.start(*args, check=False, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("pico-start failed:\n" + p.stdout + p.stderr)
        self._watch = _Watcher(self)
        self._watch.start()
        return self

    def stop_watching(self):
        if self._watch:
            self._watch.stop()

    def stop(self):
        try:
            self.stop_watching()
        finally:  # the instance is stopped whatever else went wrong
            if self.started:
                for _ in range(3):
                    try:
                        self.pico.stop(check=False, capture_output=True)
                        break
                    except OSError:  # (seen once: EFAULT starting pico-stop.sh from the
                        time.sleep(1)  # conftest's stopping thread) try again, not leak it
                self.started = False

    @property
    def tty(self):
        return self.pico.tty

    # ---------------------------------------------------------------- time
    def emu_ms(self):
        return self.pico.emu_ms()

    def boot(self):
        """The emulator's boot count (the `boot` of frames and GPIO records)."""
        return self.pico.status()["boot"]

    def reset_and_wait(self, timeout=120.0):
        """Reset (RUN pin: a power cut for the firmware), then wait until the app has drawn its
        first frame of the new boot. Returns that boot's number."""
        seen = self._watch.boot
        self.reset()
        end = time.time() + timeout
        while time.time() < end:
            if any(b > seen for b, _t in self._watch.times):
                return self.boot()
            time.sleep(0.01)
        raise AssertionError("no frame within %d s after a reset" % timeout)

    def sleep(self, ms, reset_ends=False):
        """Let `ms` of emulated time pass (give or take a few ms). reset_ends: or until the chip
        starts again (a reset or a power-on: its time goes back; while it is off, time stands)."""
        start = self.emu_ms()
        target = start + ms
        while True:
            now = self.emu_ms()
            left = target - now
            if left <= 0 or (reset_ends and now < start):
                return
            # paced, emulated time never runs ahead of wall time: sleeping `left` wall ms
            # cannot overshoot; without pacing it may run far ahead, so look more often
            time.sleep(min(left / 1000, 0.01) if self.no_pace else max(left / 1000, 0.002))

    # ---------------------------------------------------------------- buttons
    def pin_of(self, name):
        return self.pins[name]

    def press(self, name, ms=100, gap=0):
        """Hold a button `ms` (emulated), release, then let `gap` ms pass. Returns the
        emulator's reply (start_emu_us, and release_us: when it let go; end_emu_us, when it
        answered, may be a few ms later)."""
        r = self.pico.press(self.pins[name], ms, level=self.on_level)
        r["release_us"] = _release_us(r)
        self.last_release = (r["release_us"], self.boot())
        if gap:
            self.sleep(gap)
        return r

    def long_press(self, name, ms=800, gap=0):
        return self.press(name, ms, gap)

    def hold(self, name):
        return self.pico.drive(self.pins[name], self.on_level)

    def release(self, name):
        return self.pico.release(self.pins[name])

    def act(self, presses, ms=100, long_ms=800, settle=True, timeout=3000, gap=40):
        """Press a list of ("a", "press"|"long") the way a player watching the panel does:
        each press, then wait until the panel was refreshed for it (at most `timeout` ms of
        emulated time: if the firmware did not react, go on; the checks will tell).
        A finger is up at least `gap` ms between two presses (the fastest tapping): a release
        shorter than two of the sampler's entries (19.2 ms) is a glitch to the firmware, not a
        release (knockfw/rp2board.py), and a refresh that came at the press must not send the
        next press in 5 ms after it.
        Returns the indexes of the presses the panel did not answer; `self.act_log` keeps
        (name, kind, boot, press start us, release us, answered) for each."""
        missed = []
        self.act_log = []
        for i, (name, kind) in enumerate(presses):
            n = self.refreshes()
            r = self.press(name, long_ms if kind == "long" else ms, gap=gap)
            ok = not settle or self.wait_refresh(n, emu_ms=timeout)
            self.act_log.append(
                (name, kind, self.last_release[1], r["start_emu_us"], r["release_us"], ok)
            )
            if not ok:
                missed.append(i)
        return missed

    def act_in_steps(self, presses, ends):
        """act() on presses in steps (ends: where each step stops), letting the panel settle
        after each: (the refresh count after each step, the indexes of unanswered presses)."""
        marks, missed, last = [], [], 0
        for end in ends:
            missed += [last + i for i in self.act(presses[last:end])]
            self.wait_quiet(300)
            marks.append(self.refreshes())
            last = end
        return marks, missed

    # ---------------------------------------------------------------- power
    def reset(self, wait_usb=True, timeout=60):
        """Pull RUN: the chip restarts from flash (a power cut for the firmware)."""
        r = self.pico.command("reset")
        # where the SPI log stands: every byte of the old chip is logged, none of the new one
        # yet (the firmware takes far longer than this to reach its panel)
        self._cuts.append(self.pico.command("spi")["bytes"])
        self._watch.cut(self._cuts[-1])
        if wait_usb:
            self.pico.wait_status(lambda s: s["usb_connected"], timeout)
        return r

    def power_press(self, name, ms=150):
        """The press that powers a board which is off: the button is held through a reset and
        let go `ms` emulated ms after the chip starts. Returns the emulated us of the release
        (in the new boot)."""
        self.hold(name)
        # one message: the emulator resets the chip, then times the press on the new chip's
        # clock from its first instant (press() keeps the level held and lets go, undriven)
        sock = self.emupico.connect_unix(self.pico.ctl_path, timeout=60 + ms / 50)
        try:
            sock.sendall(
                b"reset\npress %d %g level=%d clock=emu\n" % (self.pins[name], ms, self.on_level)
            )
            buf = b""
            while buf.count(b"\n") < 2:
                d = sock.recv(65536)
                if not d:
                    break
                buf += d
        finally:
            sock.close()
        replies = [json.loads(x) for x in buf.split(b"\n") if x.strip()]
        if len(replies) < 2 or not all(r.get("ok") for r in replies):
            raise RuntimeError("reset + press: %r" % (replies,))
        # (the new boot has not reached the panel yet: see reset())
        self._cuts.append(self.pico.command("spi")["bytes"])
        self._watch.cut(self._cuts[-1])
        end_us = _release_us(replies[1])
        self.last_release = (end_us, self.boot())
        return end_us

    def on_battery(self, yes=True):
        self.pico.drive(VBUS, 0 if yes else 1)

    def powered(self):
        """False while the board is off (power="badger": nothing holds its regulator on)."""
        return self.pico.status().get("powered", True)


def _release_us(r):
    """When a press let go: the emulator releases the pin on an alarm exactly `held_ms` after
    it began; its reply (end_emu_us) can come a little later. (A reset during the press lets
    go at once, on the new chip's clock: then no time of the old boot is after this one.)"""
    return r["start_emu_us"] + r["held_ms"] * 1000


class _Watcher(threading.Thread):
    """Tails the SPI log: counts the panel's refresh commands as they are sent and, with a BUSY
    model, holds the BUSY pin busy for `busy_ms` after each one."""

    def __init__(self, dev):
        super().__init__(daemon=True)
        self.dev = dev
        self.cmd = REFRESH_CMD[dev.board]
        self.bus = dev.panel["bus"]
        self.dc_bit = 1 << dev.panel["dc"]
        self.cs_bit = 1 << dev.panel["cs"]
        self.needle = b'"b":%d,' % self.cmd
        self.count = 0
        self.times = []
        self._halt = threading.Event()
        self.boot = 0  # resets seen in the log (t went back, or a cut() line)
        self._last_t = -1
        self._lines = 0
        self._cuts = []

    def cut(self, line):
        """The chip was reset when the log had `line` lines."""
        self._cuts.append(line)

    def stop(self):
        self._halt.set()
        self.join(5)

    def run(self):
        path = self.dev.spi_log
        while not os.path.exists(path) and not self._halt.is_set():
            time.sleep(0.01)
        with open(path, "rb") as f:
            rest = b""
            while not self._halt.is_set():
                chunk = f.read(1 << 20)
                if not chunk:
                    time.sleep(0.005)
                    continue
                lines = (rest + chunk).split(b"\n")
                rest = lines.pop()
                for line in lines:
                    try:  # {"t":123,...: the time of every byte, cheaply (resets: t goes back)
                        t = int(line[5 : line.index(b",")])
                    except ValueError:
                        continue
                    self._lines += 1
                    if t < self._last_t or (self._lines - 1) in self._cuts:
                        self.boot += 1
                    self._last_t = t
                    if self.needle not in line:
                        continue
                    try:
                        r = json.loads(line)
                    except ValueError:
                        continue
                    g = r["g"]
                    if r["bus"] == self.bus and not g & self.cs_bit and not g & self.dc_bit:
                        self.times.append((self.boot, r["t"]))
                        self.count += 1
                        if self.dev.busy_ms:
                            self._busy()

    def _busy(self):
        dev = self.dev
        pin, level = dev.panel["busy"], dev.panel["busy_level"]

        def pulse():
            # busy, then idle, driven as a panel drives it (never left floating: the pull
            # would decide, as with no panel at all)
            try:
                dev.pico.drive(pin, level)
                dev.sleep(dev.busy_ms, reset_ends=True)  # (a power cycle ends the refresh)
                dev.pico.drive(pin, 1 - level)
            except Exception:  # the instance may be stopping
                pass

        threading.Thread(target=pulse, daemon=True).start()
