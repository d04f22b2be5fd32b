# The simulated board: the real firmware under the MicroPython unix port, on the laptop. This
# folder is the simulator's device side (never on a Pico): simboard.py, simflash.py (its
# littlefs block devices) and sim_main.py (the entry point), built into the "sim" build by
# firmware/manifest.py. Only the unix port imports it (knockfw.board picks it when
# sys.platform != "rp2").
#
# Interactive (`knockbox simulate`; the channel: host/knockbox/simulate/__init__.py): with
# KNOCKBOX_SIM_DIR set, the flash is DIR/flash.img (littlefs on a file-backed block device, so
# games persist between runs), buttons follow DIR/keys (the key lines below, appended by the
# front end), every refresh writes DIR/frame.pbm and "@frame N full|partial" on stderr (after an
# "@text Y X STRING" line for each string drawn on the screen since it was last cleared, its
# top-left corner at X, Y: the screen's words for a front end without a picture), and the
# serial port is stdin/stdout, as USB CDC is on the Pico. It is a board on USB: its USB powers it,
# so the auto-off never switches it off (power_off() returns, as the Badger's does on USB), unless
# KNOCKBOX_SIM_BATTERY=1 (`knockbox simulate --battery`): then it goes dark as on battery, and
# the next key press starts it again.
# Scripted (tests): Board(sim_dir="", flash_path=P) keeps the flash in file P (or in RAM without
# one: mind the heap), has no serial port, and tests set board.levels[name] = 1/0 between
# app.step() calls on their own clock.
#
# Key lines, read in order from the start of DIR/keys and carried out in the firmware's own time
# (each button edge reaches the button handler stamped with the time it was due, so a press lasts
# exactly its length for the firmware however late this process runs):
#     press NAME MS    NAME down, then up MS ms later; the next line starts _GAP ms after that
#     down NAME        NAME down (holds of unknown length)
#     up NAME          NAME up; the next line starts _GAP ms after that
#     wait MS          the next line starts MS ms later
# A line starts when it has been read and the line before it is done, whichever is later.
import os
import sys
import time

import framebuf
from micropython import const

import simflash as flash
import knockfw
from knockfw import text as _text
from knockfw.buttons import NAMES as BUTTONS

W = const(296)
H = const(128)
_GAP = const(100)
_AHEAD = const(16)  # key lines read ahead of the one due
_READ = const(512)  # bytes of the key file read at a time
_woke = [None]  # the press that "powered the board up" after a simulated power-off
_feed = [None]  # the KeyFeed of this process: it outlives a simulated power-off


_MAX_TEXTS = const(96)  # strings kept for one screen at most
_draw_text = _text.draw
_clear_text = _text.clear


def _drawn(fb, s, x, y, font, color=1):
    """knockfw.text.draw, and the string noted on a panel that keeps them (SimDisplay.texts)."""
    kept = getattr(fb, "texts", None)
    if kept is not None and len(kept) < _MAX_TEXTS:
        kept.append((y, x, s))
    return _draw_text(fb, s, x, y, font, color)


def _cleared(fb):
    """knockfw.text.clear, and a new screen's strings from here."""
    if getattr(fb, "texts", None) is not None:
        fb.texts = []
    _clear_text(fb)


_text.draw = _drawn  # (every screen draws its strings through knockfw.text)
_text.clear = _cleared


class PowerOff(Exception):
    """Raised by power_off(): on battery the Badger goes dark here; sim_main waits for a key."""


class SimPin:
    IRQ_RISING = const(4)
    IRQ_FALLING = const(8)

    def __init__(self, levels, name):
        self._levels = levels
        self._name = name
        self.handler = None

    def value(self):
        return self._levels[self._name]

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler


class KeyFeed:
    """The front end's key lines, carried out in the firmware's time on the current board."""

    def __init__(self, path):
        try:
            self._f = open(path, "rb")
        except OSError:
            open(path, "wb").close()
            self._f = open(path, "rb")
        self._part = b""
        self._todo = []  # [ticks the line was read, its words]
        self._at = None  # ticks before which the next line may not start
        self._release = None  # (ticks, name) of the press under way
        self.board = None

    def _read(self, now):
        # A little at a time: a long script typed ahead must not land on the heap at once.
        if len(self._todo) >= _AHEAD:
            return
        data = self._f.read(_READ)
        if not data:
            return
        lines = (self._part + data).split(b"\n")
        self._part = lines.pop()
        for line in lines:
            words = line.split()
            if words:
                self._todo.append((now, words))

    def _start(self, arrived):
        at = self._at
        return arrived if at is None or time.ticks_diff(arrived, at) > 0 else at

    def service(self, now, wake=False):
        """Carry out what is due by `now`. wake=True (powered off): return the name of the
        button whose press or down comes next (the press that powers the board), else None."""
        self._read(now)
        while True:
            rel = self._release
            if rel is not None:
                if time.ticks_diff(now, rel[0]) < 0:
                    return None
                self._release = None
                self._edge(rel[1], 0, rel[0])
                continue
            if not self._todo:
                return None
            t = self._start(self._todo[0][0])
            if time.ticks_diff(now, t) < 0:
                return None
            name = self._do(self._todo.pop(0)[1], t)
            if wake and name:
                return name

    def _do(self, w, t):
        op = w[0]
        name = w[1].decode() if len(w) > 1 else ""
        try:
            if op == b"press" and len(w) == 3 and name in BUTTONS:
                ms = int(w[2])
                self._edge(name, 1, t)
                self._release = (time.ticks_add(t, ms), name)
                self._at = time.ticks_add(t, ms + _GAP)
                return name
            if op in (b"down", b"up") and len(w) == 2 and name in BUTTONS:
                self._edge(name, 1 if op == b"down" else 0, t)
                self._at = t if op == b"down" else time.ticks_add(t, _GAP)
                return name if op == b"down" else None
            if op == b"wait" and len(w) == 2:
                self._at = time.ticks_add(t, int(w[1]))
                return None
        except ValueError:
            pass
        sys.stderr.write("keys: ignored %r\n" % (b" ".join(w),))
        return None

    def _edge(self, name, level, t):
        b = self.board
        if b is not None:
            b.edge(name, level, t)


class SimDisplay(framebuf.FrameBuffer):
    """A 296x128 panel: 1 = black, MONO_VLSB as the e-ink drivers' framebuffer (knockfw.epd),
    shown as a P4 PBM image (write_pbm())."""

    stuck = 0  # (knockfw.epd's: a simulated panel always finishes)

    def __init__(self, out_dir=None, full_ms=0, partial_ms=0, clock=None):
        self.buf = bytearray(W * H // 8)
        super().__init__(self.buf, W, H, framebuf.MONO_VLSB)
        self.width = W
        self.height = H
        self.out_dir = out_dir
        self.frames = 0
        self.fulls = 0
        self.full_ms = full_ms
        self.partial_ms = partial_ms
        self.now = clock or time.ticks_ms  # tests run the panel on their own clock
        self._until = None  # no refresh running yet
        self.texts = [] if out_dir else None  # [(y, x, string)] drawn since the last clear
        self.asleep = False
        self.last_full = False

    def show(self, full=False, block=False, quick=False):
        self.frames += 1
        self.last_full = full
        if full:
            self.fulls += 1
        self.asleep = False
        if self.out_dir:
            path = self.out_dir + "/frame.pbm"
            with open(path + ".tmp", "wb") as f:
                self.write_pbm(f)
            os.rename(path + ".tmp", path)
            for y, x, s in self.texts:
                sys.stderr.write("@text %d %d %s\n" % (y, x, s.replace("\n", " ")))
            sys.stderr.write("@frame %d %s\n" % (self.frames, "full" if full else "partial"))
        self._until = time.ticks_add(self.now(), self.full_ms if full else self.partial_ms)

    def write_pbm(self, f):
        """Write the panel to file f as a P4 PBM image: rows of bytes, bit 7 the leftmost pixel,
        copied 8 rows at a time (296 bytes: the panel's own heap stays the device's, and a
        whole copy's 4.7 KB in one piece is not always there in 192 KB)."""
        f.write(b"P4\n296 128\n")
        rows = bytearray(W)
        band = framebuf.FrameBuffer(rows, W, 8, framebuf.MONO_HLSB)
        for y in range(0, H, 8):
            band.fill(0)
            band.blit(self, 0, -y)
            f.write(rows)

    def busy(self):
        return self._until is not None and time.ticks_diff(self._until, self.now()) > 0

    def wait(self, timeout_ms=5000):
        while self.busy():
            time.sleep_ms(5)
        return True

    def sleep(self):
        self.asleep = True


class Board(knockfw.Board):
    name = "sim"
    active_low = False
    # data_dir: the flash image is mounted there, as the Pico's littlefs folder

    def __init__(self, sim_dir=None, flash_blocks=128, flash_path=None):
        if sim_dir is None:
            sim_dir = os.getenv("KNOCKBOX_SIM_DIR")
        self.sim_dir = sim_dir
        self.flash_path = flash_path or (sim_dir + "/flash.img" if sim_dir else None)
        self.flash_blocks = flash_blocks
        self.levels = {}
        for n in BUTTONS:
            self.levels[n] = 0
        self._pins = {}
        for n in BUTTONS:
            self._pins[n] = SimPin(self.levels, n)
        slow = os.getenv("KNOCKBOX_SIM_SLOW") == "1"
        self.display = SimDisplay(sim_dir, 1500 if slow else 0, 300 if slow else 0)
        self.serial_in = None
        self.serial_out = None
        self.bdev = None
        self._edge_t = None
        self._feed = None
        if sim_dir:
            if _feed[0] is None:
                _feed[0] = KeyFeed(sim_dir + "/keys")
            self._feed = _feed[0]
            self._feed.board = self
            self.serial_in = sys.stdin.buffer
            self.serial_out = sys.stdout.buffer
        self._woke = _woke[0]
        _woke[0] = None
        if self._woke:
            self.levels[self._woke] = 1  # the waking press is still down
        self.powered_off = 0
        self.battery = bool(sim_dir) and os.getenv("KNOCKBOX_SIM_BATTERY") == "1"

    def clock(self):  # (a method here: the contract's attribute, the buttons' clock)
        """Ticks for the button handler: the time an edge was due while one is being made."""
        t = self._edge_t
        return time.ticks_ms() if t is None else t

    def edge(self, name, level, t):
        """Set button `name` to `level`, as if it changed at ticks t (its IRQ handler runs)."""
        if self.levels[name] == level:
            return
        self.levels[name] = level
        pin = self._pins[name]
        if pin.handler is not None:
            self._edge_t = t
            try:
                pin.handler(pin)
            finally:
                self._edge_t = None

    def buttons_pins(self):
        return self._pins

    def wake_button(self):
        """The press that powered the board up (after a simulated power-off), or None; once."""
        w = self._woke
        self._woke = None
        return w

    def mount(self):
        try:
            os.stat(self.data_dir + "/.")
            return  # already mounted (a simulated reboot keeps the process)
        except OSError:
            pass
        if self.flash_path:
            self.bdev = flash.FileBlockDevice(self.flash_path, self.flash_blocks)
        else:
            self.bdev = flash.RAMBlockDevice(self.flash_blocks)
        flash.mount(self.bdev, self.data_dir)

    def service(self, now):
        """Carry out the key lines due by now (the app calls this first in every loop turn)."""
        if self._feed is not None:
            self._feed.service(now)

    def led(self, on):
        pass

    def idle_sleep(self, ms):
        time.sleep_ms(ms)

    def on_usb(self):
        return not self.battery

    def power_off(self):
        """Like the Badger: the panel keeps its image; on battery (--battery) the board goes
        dark, on USB it keeps running and this returns."""
        self.display.sleep()
        self.powered_off += 1
        if self.battery:
            sys.stderr.write("@power off\n")
            raise PowerOff()


def wait_for_wake(sim_dir=None):
    """Block (powered off) until a button goes down in the key lines: the press that powers the
    board. Lines before it are carried out (to no effect: nothing is listening)."""
    feed = _feed[0]
    feed.board = None
    while True:
        name = feed.service(time.ticks_ms(), wake=True)
        if name:
            _woke[0] = name
            sys.stderr.write("@power on %s\n" % name)
            return
        time.sleep_ms(20)
