# Shared base of the two e-ink drivers (uc8151.py, ssd1680.py).
#
# The drawing surface is a framebuf.FrameBuffer of 296 x 128 pixels (landscape), 1 = black ink.
# Its memory is framebuf.MONO_VLSB: byte (p * 296 + x) holds the pixels (x, 8p) .. (x, 8p + 7),
# bit 0 on top. Both panels are 128 sources x 296 gates, mounted landscape: a landscape column x
# is one gate line, a row y one source. Each driver converts this layout into the one its
# vendor's own code sends (epdconv.py, epdinvert.py: native code, a few ms a frame on an RP2040):
#   - UC8151 (Pimoroni): full-frame writes, 16 bytes per gate line, most significant bit on top:
#     a transposition plus a bit reversal per byte;
#   - SSD1680 (Waveshare's landscape class): the pages as they are, last page first, RAM bit
#     1 = white: the bytes inverted.
#
# Refresh is asynchronous: show() sends the image and starts the refresh, then returns. The app
# polls busy(), which also sends any follow-up command the controller needs once it is ready
# (power on -> refresh -> power off on the UC8151). show(block=True) or wait() block.
#
# Deep sleep: a controller in deep sleep is never asked anything, its BUSY pin is not read (the
# SSD1680 holds BUSY high until a hardware reset, as GxEPD2's _InitDisplay() allows for: it
# resets before anything else when it was hibernating); the next show() resets it first.
#
# A panel that is not there: its BUSY pin is pulled up (both boards), so it reads what the
# controller would drive: busy for good on the SSD1680 (BUSY high while busy), idle on the
# UC8151 (BUSY_N low while busy), whose refreshes would "succeed" at once. A refresh that ends
# sooner than _SOON_MS after its command is impossible for either (the quickest is the UC8151's
# turbo waveform: Pimoroni's uc8151.cpp update_time() gives 250 ms for it, 800 ms fast, 2000 ms
# medium, 4500 ms full), so busy() then looks whether anything drives the pin: pulled down then
# up, a pin nothing drives follows both pulls; then busy() raises "panel not connected" (a
# fault: recorded, `knockbox sync` prints it; the error screen is not drawn on a panel that
# is not there). The SSD1680's BUSY (high while busy) pulled up reads busy for good instead:
# busy() looks the same way once a command has kept it busy _ABSENT_MS (a real panel drives the
# pin: the look changes nothing, its refresh goes on), and init (_ready) once the reset it asks
# for has not ended within 1 s (a few ms on a panel): an unplugged Waveshare panel is a fault
# a second after the command, not after the stuck-busy resets below (3 x 15 s).
#
# A panel that stays busy (an SSD1680 not there: the pull-up reads busy; a hung controller): busy()
# gives each command _BUSY_MS (a few times the longest refresh, the UC8151's full: the vendor's
# figure is in uc8151.py), then
# resets the controller, inits it and sends the frame again, in full; after _RETRIES such resets
# in a row it gives up: the panel is left alone (asleep for this driver, stuck counts them) and
# busy() raises, which ends the app (knockfw.fault records it and, on battery, switches off).
# Every blocking wait feeds the watchdog through the feed() the board gives (a driver knows
# nothing of the app).
import framebuf
from time import sleep_ms, ticks_ms, ticks_diff
from micropython import const


WIDTH = const(296)
HEIGHT = const(128)
PAGES = const(16)
_FULL_EVERY = const(8)
_WAIT_MS = const(10000)
_BUSY_MS = const(15000)
_RETRIES = const(2)
_SOON_MS = const(100)  # a refresh over sooner than this: is a panel there? (see the header)
_ABSENT_MS = const(1000)  # busy longer than this: is a panel there? (see the header)


def _nothing():
    pass


class EPD(framebuf.FrameBuffer):
    BUSY_LEVEL = 1  # the BUSY pin level that means "busy"; each controller sets its own
    REFRESH = -1  # the command that starts a refresh; each controller sets its own
    OFF = -1  # the step that powers the controller off after a refresh (finish() skips it)
    _last = -1  # the command sent last
    stuck = 0  # resets in a row of a panel that did not finish (see the header)

    def __init__(self, spi, cs, dc, rst, busy, full_every=_FULL_EVERY, feed=None, buf=None):
        # buf: the framebuffer, if the board kept one (in one piece from boot: knockfw.rp2board)
        buf = buf or bytearray(WIDTH * HEIGHT // 8)
        super().__init__(buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.buf = buf
        self.width = WIDTH
        self.height = HEIGHT
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy_pin = busy
        self.full_every = full_every  # partial refreshes allowed between two full ones
        self.feed = feed or _nothing  # the watchdog, fed in every blocking wait
        self.partials = 0  # partial refreshes since the last full one
        self.last_full = False  # kind of the refresh started last
        self.awake = False  # init() done and not in deep sleep since
        self._want = 0  # 0 nothing, 1 partial, 2 full: a show() waiting for the panel
        self._quick = False  # the waiting show() may use the quickest waveform
        self.last_quick = False  # the refresh started last used the quickest waveform
        self._steps = []  # commands to send, one each time BUSY clears
        self._one = bytearray(1)
        self._t = ticks_ms()  # when the last command was sent
        cs.value(1)

    # --- bus -------------------------------------------------------------------------------
    def cmd(self, c, data=None):
        self._t = ticks_ms()
        self._last = c
        self._one[0] = c
        self.cs.value(0)
        self.dc.value(0)
        self.spi.write(self._one)
        if data is not None:
            self.dc.value(1)
            self.spi.write(data)
        self.cs.value(1)

    def data(self, buf):
        """Data bytes (after a command): one SPI write with CS low and DC high."""
        self.cs.value(0)
        self.dc.value(1)
        self.spi.write(buf)
        self.cs.value(1)

    def pin_busy(self):
        return self.busy_pin.value() == self.BUSY_LEVEL

    def _absent(self):
        """True if nothing drives BUSY: it follows its pull both ways (pulled down, then up
        again, as the boards set it); a panel that drives it, busy or idle, does not."""
        p = self.busy_pin
        p.init(p.IN, p.PULL_DOWN)
        v = p.value()
        p.init(p.IN, p.PULL_UP)
        return v == 0 and p.value() == 1

    def _gone(self):
        # nothing drives BUSY: no panel (see the header)
        if self._absent():
            self._want = 0
            self._steps = []
            self.stuck = _RETRIES + 1  # (knockfw.fault draws nothing on it)
            raise OSError("panel not connected")

    def _ready(self, timeout_ms):
        # init: wait for BUSY to clear; still busy: is there a panel?
        if not self.wait_pin(timeout_ms):
            self._gone()

    def wait_pin(self, timeout_ms):
        # Blocking wait on the BUSY pin only (init and sleep use it). True if it cleared.
        t0 = ticks_ms()
        while self.pin_busy():
            if ticks_diff(ticks_ms(), t0) > timeout_ms:
                return False
            self.feed()
            sleep_ms(2)
        return True

    _held = None  # ticks_ms() when hold_reset() put the controller in reset (None: it did not)

    def hold_reset(self):
        """Put the controller in reset until the next init(), which then only lets it go: the
        board calls it as it makes the panel, so the reset's first 20 ms pass while the app
        loads instead of in the first show()."""
        self.rst.value(0)
        self._held = ticks_ms()

    def hw_reset(self, low_ms, high_ms):
        held = self._held
        self._held = None
        if held is None:
            self.rst.value(1)
            sleep_ms(high_ms)
            self.rst.value(0)
            sleep_ms(low_ms)
        else:  # in reset since hold_reset(): at least low_ms of it
            sleep_ms(max(0, low_ms - ticks_diff(ticks_ms(), held)))
        self.rst.value(1)
        sleep_ms(high_ms)

    # --- public API ------------------------------------------------------------------------
    def show(self, full=False, block=False, quick=False):
        """Send the framebuffer and start a refresh (full, or partial/fast).

        The first show after init or sleep, and one after every `full_every` partial ones,
        is full whatever `full` says. quick=True asks for the quickest partial waveform the
        panel has (UC8151: Pimoroni's "turbo", ~0.26 s; meant for small changes such as a count
        step; the SSD1680's partial is already that quick); a full refresh ignores it. If the
        panel is still busy the request is kept (a full request wins; quick only if every
        request kept was quick) and started by a later busy() poll with the framebuffer as it
        is then. Returns True, or with block=True whether the refresh finished within the wait.
        """
        self._quick = quick and (self._quick or not self._want)
        if full or self._want == 2:
            self._want = 2
        else:
            self._want = 1
        self.busy()
        if block:
            return self.wait()
        return True

    def busy(self):
        """True while the panel is working; call it every loop (it drives the refresh)."""
        if self.awake and self.pin_busy():  # asleep: BUSY means nothing until a reset
            d = ticks_diff(ticks_ms(), self._t)
            if d < _BUSY_MS:
                if d > _ABSENT_MS:  # busy this long: is anything driving BUSY? (header)
                    self._gone()
                return True
            self.awake = False  # stuck: reset it (init() below) and send the frame again
            self._steps = []
            self.stuck += 1
            if self.stuck > _RETRIES:
                self._want = 0
                raise OSError("panel stuck busy")
            self._want = 2
        if self._last == self.REFRESH:  # a refresh over: not impossibly soon?
            self._last = -1
            if ticks_diff(ticks_ms(), self._t) < _SOON_MS:
                self._gone()
        if self._steps:
            self.cmd(self._steps.pop(0))
            return True
        if self._want:
            if not self.awake:
                self.init()
            full = self._want == 2 or self.partials >= self.full_every or not self._shown
            quick = self._quick and not full
            self._want = 0
            self._quick = False
            self.last_full = full
            self.last_quick = quick
            if full:
                self.partials = 0
            else:
                self.partials += 1
            self._shown = True
            self.refresh(full, quick)
            return True
        self.stuck = 0
        return False

    def wait(self, timeout_ms=_WAIT_MS):
        """Block until the panel is idle (and any pending show is done). False on timeout."""
        t0 = ticks_ms()
        while self.busy():
            if ticks_diff(ticks_ms(), t0) > timeout_ms:
                return False
            self.feed()
            sleep_ms(5)
        return True

    def finish(self):
        """Like wait(), but the controller is left powered on after the refresh (its OFF step
        not sent): a power cut follows (the Badger's switch-off on battery, as Pimoroni's
        uc8151 since pimoroni-pico 2b25e79; hardware/README.md). Not asleep: a show() after it
        refreshes as after any other."""
        t0 = ticks_ms()
        while True:
            if self._steps == [self.OFF] and not self.pin_busy():
                self._steps = []
            if not self.busy() or ticks_diff(ticks_ms(), t0) > _WAIT_MS:
                return
            self.feed()
            sleep_ms(5)

    def sleep(self):
        """Finish any refresh, then put the controller in deep sleep (image stays on the panel).

        The next show() wakes it with a hardware reset and init(), and is a full refresh; nothing
        reads BUSY until then.
        """
        self.wait()
        if self.awake:
            self.deep_sleep()
        self.awake = False
        self._steps = []

    def init(self):
        """Hardware reset and configure the controller (blocks for the reset's pulses)."""
        self._steps = []
        self.setup()
        self.awake = True
        self._shown = False

    # --- for the drivers -------------------------------------------------------------------
    _shown = False  # a refresh has been done since init (else the next one must be full)

    def setup(self):
        raise NotImplementedError

    def refresh(self, full, quick):
        raise NotImplementedError

    def deep_sleep(self):
        raise NotImplementedError
