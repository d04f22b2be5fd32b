# The simulated board: the real firmware under the MicroPython unix port, on the laptop.
# Only the unix port imports this module (knockfw.board picks it when sys.platform != "rp2").
#
# Interactive (`knockbox simulate`, docs/ARCHITECTURE.md "The simulator channel"): with
# KNOCKBOX_SIM_DIR set, the flash is DIR/flash.img (littlefs on a file-backed block device, so
# games persist between runs), buttons follow DIR/keys (lines "a 1" / "a 0" appended by the front
# end), every refresh writes DIR/frame.pbm and "@frame N full|partial" on stderr, and the serial
# port is stdin/stdout, as USB CDC is on the Pico.
# Scripted (tests): Board(sim_dir="", flash_path=P) keeps the flash in file P (or in RAM without
# one: mind the heap), has no serial port, and tests set board.levels[name] = 1/0 between
# app.step() calls on their own clock.
import os
import sys
import time

import framebuf
from micropython import const

from knockfw import flash

W = const(296)
H = const(128)
BUTTONS = ("a", "b", "c", "up", "down")
_woke = [None]  # the press that "powered the board up" after a simulated power-off


class PowerOff(Exception):
    """Raised by power_off(): on battery the Badger goes dark here; sim_main waits for a key."""


class SimPin:
    def __init__(self, levels, name):
        self._levels = levels
        self._name = name

    def value(self):
        return self._levels[self._name]


class SimDisplay(framebuf.FrameBuffer):
    """A 296x128 panel: 1 = black, MONO_HLSB rows (the bytes of a P4 PBM image)."""

    def __init__(self, out_dir=None, full_ms=0, partial_ms=0, clock=None):
        self.buf = bytearray(W * H // 8)
        super().__init__(self.buf, W, H, framebuf.MONO_HLSB)
        self.out_dir = out_dir
        self.frames = 0
        self.fulls = 0
        self.full_ms = full_ms
        self.partial_ms = partial_ms
        self.now = clock or time.ticks_ms   # tests run the panel on their own clock
        self._until = None                 # no refresh running yet
        self.asleep = False

    def show(self, full=False, block=False):
        self.frames += 1
        if full:
            self.fulls += 1
        self.asleep = False
        if self.out_dir:
            path = self.out_dir + "/frame.pbm"
            with open(path + ".tmp", "wb") as f:
                f.write(b"P4\n296 128\n")
                f.write(self.buf)
            os.rename(path + ".tmp", path)
            sys.stderr.write("@frame %d %s\n" % (self.frames, "full" if full else "partial"))
        self._until = time.ticks_add(self.now(), self.full_ms if full else self.partial_ms)

    def busy(self):
        return self._until is not None and time.ticks_diff(self._until, self.now()) > 0

    def wait(self, timeout_ms=5000):
        while self.busy():
            time.sleep_ms(5)
        return True

    def sleep(self):
        self.asleep = True


class Board:
    name = "sim"
    active_low = False

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
        self._keys = None
        self._partial = b""
        self.serial_in = None
        self.serial_out = None
        self.bdev = None
        if sim_dir:
            self._keys = open(sim_dir + "/keys", "ab+")
            self._keys.seek(0, 2)   # only presses from now on count
            self.serial_in = sys.stdin.buffer
            self.serial_out = sys.stdout.buffer
        self._woke = _woke[0]
        _woke[0] = None
        self.powered_off = 0

    def buttons_pins(self):
        return self._pins

    def wake_button(self):
        return self._woke

    def mount(self):
        try:
            os.stat("/data/.")
            return  # already mounted (a simulated reboot keeps the process)
        except OSError:
            pass
        if self.flash_path:
            self.bdev = flash.FileBlockDevice(self.flash_path, self.flash_blocks)
        else:
            self.bdev = flash.RAMBlockDevice(self.flash_blocks)
        flash.mount(self.bdev, "/data")

    def service(self, now):
        """Follow the key file: each complete line 'name 0|1' sets a button level."""
        if self._keys is None:
            return
        data = self._keys.read()
        if not data:
            return
        data = self._partial + data
        lines = data.split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            parts = line.split()
            if len(parts) == 2:
                name = parts[0].decode()
                if name in self.levels:
                    self.levels[name] = 1 if parts[1] == b"1" else 0

    def led(self, on):
        pass

    def idle_sleep(self, ms):
        time.sleep_ms(ms)

    def power_off(self):
        """Like the Badger on battery: the panel keeps its image and the board goes dark."""
        self.display.sleep()
        self.powered_off += 1
        if self.sim_dir:
            sys.stderr.write("@power off\n")
            raise PowerOff()


def wait_for_wake(sim_dir):
    """Block until a button goes down in the key file; it is the press that powers the board."""
    with open(sim_dir + "/keys", "rb") as f:
        f.seek(0, 2)
        buf = b""
        while True:
            data = f.read()
            if not data:
                time.sleep_ms(20)
                continue
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                parts = line.split()
                if len(parts) == 2 and parts[1] == b"1" and parts[0].decode() in BUTTONS:
                    _woke[0] = parts[0].decode()
                    sys.stderr.write("@power on %s\n" % _woke[0])
                    return
