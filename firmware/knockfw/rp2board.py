# What the two RP2040 boards share: buttons read at boot (so the press that woke the board is
# not lost), the e-ink panel on an SPI bus, the data folder, USB sensing, the LED and the sleep
# between polls. The board files (board_badger2040.py, board_pico_epd.py) name the pins and pass them
# in; this module names none. It imports only built-in modules: boot.py reaches it (through the
# board file's early()) before anything else is loaded.
#
# Light sleep and the SPI clock (MicroPython v1.28, ports/rp2): main() calls
# set_sys_clock_khz(), which leaves clk_peri at 48 MHz (the USB PLL), and machine.SPI computes
# its divider from that. machine.lightsleep() ends with runtime_init_clocks_optional_usb()
# (clocks_extra.c), which sets clk_peri = clk_sys = 125 MHz but leaves the SPI divider alone:
# every transfer after a light sleep would run 125/48 = 2.6x too fast (Badger: 12 -> 31 MHz).
# So every light sleep here is followed by spi.init(baudrate=...), which recomputes the divider
# from the clock as it is then (machine_spi.c: spi_set_baudrate()).
#
# The buttons are sampled by DMA, not read by pin interrupts: MicroPython writes the flash with
# interrupts off (a 4 KiB erase: 45 ms typically, 400 ms at worst), so an IRQ handler runs only
# afterwards, once for both edges of a tap made meanwhile, and reads it released. The ADC, free
# running at its slowest (one conversion every 1.365 ms, its results unused), paces DMA channel
# A, which drains _K of them; A chains to B, which copies the buttons' levels (IO_BANK0's raw
# interrupt register of their group of 8 GPIOs: 4 bits a GPIO, bit 1 its level, bits 2 and 3
# its edges since they were cleared) into a RAM ring, B to C, which writes that word back (clearing
# the edges it saw), and C to D, which puts the timer (TIMERAWL, us) into a second ring beside it
# and chains back to A. None of it needs the CPU, so the levels every 9.6 ms are kept, with
# their times, through any flash write; the app's poll() reads the rings (_ring below). A level
# counts once two entries in a row saw it (from the first's time): a pulse shorter than 9.6 ms
# (a spike: static from a finger, a long wire on the Pico build's 50 kOhm pull-ups) is seen by
# one entry at most, or by none (both edges latched, the level the same), and is no press; one
# of 19.2 ms or more always counts (a quick tap is 50-100 ms). The edges serve idle_sleep():
# they say a button was touched; and where the chain was stopped (below), a look as it starts
# again (resume(), the reader's look) reads them: a press whose both edges were latched while it
# was stopped, the level back where it was, counts once, and a level the look saw that changed
# again before the next entry (its edges) counts from the look. (Not the PIO: the emulated Pico's PIO runs on the wall
# clock, not the emulated one, and misses taps while the CPU is busy.) The ADC is the sampler's:
# a reading of another input (adc(): the battery) takes it while the chain is stopped (a W
# board's probe reads before the chain starts); and no pin of the chip may use
# Pin.irq() while it runs (C clears the group's edges; MicroPython v1.28's GPIO handler, in
# machine_pin.c, acknowledges every latched edge of every group). A soft reset closes the DMA
# channels (MicroPython v1.28: their finalisers), so nothing writes into the next run's heap.
#
# Light sleep and the sampler. The RP2040 gates its clocks in a light sleep only while no DMA
# channel has transfers outstanding (datasheet 2.11.2), and channel A, waiting for the ADC,
# always has: MicroPython v1.28's machine.lightsleep() (ports/rp2 modmachine.c) stops clk_adc and
# clears SLEEP_EN0/1 but leaves the DMA alone, so the chip would sit at its full WFI current.
# So on battery, once the buttons have been still for awake_ms, idle_sleep() stops the chain
# between two entries (pause(): the ADC stopped, A disabled and aborted once B-D are done: no
# channel busy) and sleeps lightly in slices of the loop's poll (10 ms), looking at the buttons'
# INTR word (levels and edges latched) after each; unless the panel is refreshing, up to _NAP_MS
# of slices in a row before the app's loop turns again (a look costs a few instructions; a turn
# of the loop, and the SPI's divider set again, far more). lightsleep(ms) wakes on its timer
# alarm: a GPIO interrupt would need Pin.irq (not with the sampler, above), and the sleep keeps
# only the timer's clock (SLEEP_EN1), not IO_BANK0's: a tap that begins and ends inside one slice
# latches nothing at all (silicon, and the emulated Pico). The chain starts again as soon as a
# look finds a button down or an edge latched, and in any case when idle_sleep() returns: it runs
# whenever the app does anything (a flash write, a refresh, the wait before the auto-off), and
# is stopped only inside idle_sleep()'s light sleeps. The look that starts it is the reader's
# first sight of the buttons (see above): a press down at that look counts if the first entry,
# 1.4 ms later, still sees it or saw it let go (its edge); one that began and ended between two
# looks counts by its edges. So a tap counts if it overlaps a look: one longer than a slice and
# the look after it always does (the shortest measured: tests/emu/test_emu_taps.py prints it).
# Awake for awake_ms after a press (short: between the presses of a hand the panel's refresh is
# spent asleep too; hardware/POWER.md has the charge of each).
#
# Quick imports (_Imports, rp2 only): MicroPython v1.28 looks a module up with three littlefs
# stats (a folder? X.py? X.mpy?) and an open, each a walk through the folder's metadata, for
# each of the ~27 modules before the first screen (bench/bench_pico.py --only parts shows the
# boot's steps). When this module is imported, the listing `knockbox deploy` wrote of its
# modules is read once, and a read-only view of them mounted at /kb, first on sys.path (and the
# __path__ of knockfw and knockcore): the stats are answered from the listing, only the open goes
# to the flash. The board's mount() drops it
# again, which the app asks for once its boot's modules are in and before its journal (the
# boot's peak of RAM): the modules imported later (fewer, and where the panel's refresh hides
# them) look on the flash. Each lookup leaves a little garbage (the path's string) between the
# modules' code: harmless on a heap with room to spare; on a short one knockfw.app collects
# more often while its modules come in.
#
# The heap at boot: the panel's framebuffer is allocated in early_buttons(), before the app's
# imports leave the heap in pieces. Nothing else is held from boot: a piece held through the
# imports leaves the journal's replay without the pieces it needs with 100 KB held
# (bench/bench_pico.py's heap budget).
import os
import sys
import time
from array import array

import machine
from micropython import const

import knockfw

_EARLY_GAP_MS = 5  # second look at the buttons, as Pimoroni's wakeup module (gpio_get_all twice)
_early = None  # early_buttons(): the button held when boot.py ran, "" if none (None: not run)
_early_at = None  # its ticks_ms (when boot.py first saw it)
_latched: tuple = ()  # early_buttons(): (Buttons sampled since boot.py, their pins, the reader)
_w = None  # early_buttons(): the name of the W board the board file's probe found, else None
_fb = None  # the panel's framebuffer (296 x 128 / 8 bytes), kept from boot: in one piece
_K = const(7)  # ADC conversions a ring entry: 9.6 ms
_LOG = const(10)  # each ring 2 ** 10 bytes: _N entries, 2.4 s of levels between two polls
# (the longest gaps seen: at the flash's worst timing, and while a slow laptop took a sync's
# pages, the app's USB writes waiting for it)
_N = const(1 << (_LOG - 2))
_ADC = const(0x4004C000)  # the ADC's registers: CS, RESULT at 4, FCS at 8, FIFO at 12, DIV at 16
_ADC_RUN = const(0x4009)  # CS: on, free running, input 4 (the temperature sensor's, unused)
_NAP_MS = const(100)  # on battery, idle: light sleep slices in a row before the app's loop turns
_INTR = const(0x400140F0)  # IO_BANK0 INTR0-3: 4 bits a GPIO (level low, high, edge low, high)
# Register words, by the RP2040 datasheet's names for the registers and fields (its chapter)
_LOW = const(1)  # INTR (2.19): a GPIO's LEVEL_LOW bit, then
_HIGH = const(2)  # LEVEL_HIGH
_EDGES = const(12)  # EDGE_LOW and EDGE_HIGH
_HIGHS = const(0x2222)  # the LEVEL_HIGH bits of the 4 GPIOs in a half-word of INTR
_FCS = const(8)  # the ADC's registers (4.9) from ADC_BASE: FCS, FIFO, DIV
_FIFO = const(12)
_DIV = const(16)
_DIV_SLOWEST = const(0xFFFF << 8)  # DIV.INT 65535: a conversion every 65536 clk_adc cycles
_FCS_DREQ = const(1 << 24 | 1 << 3 | 1)  # FCS: THRESH 1, DREQ_EN, EN (the FIFO on)
_TIMERAWL = const(0x40054028)  # TIMER_BASE + TIMERAWL (4.6): the us timer's low word
_CTRL_WORDS = const(1 | 2 << 2 | 1 << 21)  # DMA CHn_CTRL (2.5): EN, DATA_SIZE word, IRQ_QUIET
_CHAIN_TO = const(11)  # CTRL's CHAIN_TO field: its shift
_CTRL_ADC = const(_CTRL_WORDS | 36 << 15)  # A: TREQ_SEL DREQ_ADC (36)
# B and D: a word into a ring: TREQ_SEL 0x3F (unpaced), INCR_WRITE, RING_SIZE _LOG, RING_SEL 1
_CTRL_INTO_RING = const(_CTRL_WORDS | 0x3F << 15 | 1 << 5 | _LOG << 6 | 1 << 10)
# C: a word from the ring: TREQ_SEL 0x3F, INCR_READ, RING_SIZE _LOG, RING_SEL 0
_CTRL_FROM_RING = const(_CTRL_WORDS | 0x3F << 15 | 1 << 4 | _LOG << 6)
_WDT_MS = const(8000)  # machine.WDT's timeout (the RP2040's longest: 8,388 ms)
_WATCHDOG_CTRL_CLR = const(0x4005B000)  # WATCHDOG_BASE + 0x3000 (4.7, 2.1.2): CTRL's clear alias
_WATCHDOG_ENABLE = const(1 << 30)  # CTRL.ENABLE
_WATCHDOG_SCRATCH4 = const(0x4005801C)  # WATCHDOG_BASE + SCRATCH4 (4.7)
_WDT_MAGIC = const(0x6AB73121)  # pico-sdk watchdog.c: WATCHDOG_NON_REBOOT_MAGIC
_LEVELS = const(0x22222222)  # in an INTR word: each GPIO's level-high bit
_GPIO_IN = const(0xD0000004)  # SIO_BASE + GPIO_IN (2.3.1.7): the pads' input levels
_FB_BYTES = const(296 * 128 // 8)  # the panel's framebuffer (the Badger's UC8151)
_dma: tuple = ()  # the ring's DMA channels and buffer, kept (a collected channel is closed)
_DIR = const(0x4000)  # a stat's st_mode: a folder (S_IFDIR), a file (S_IFREG)
_FILE = const(0x8000)


class _Imports:
    # A read-only view of the packages at the root for the import system (see the header):
    # stat() a dict's lookup, open() the built-in, both C called straight from the import system
    # (no frame of ours). MicroPython v1.28 (py/builtinimport.c) asks of a module X whether X is
    # a folder (the listing says a file: no), whether X.py is a file (a folder: no), then X.mpy:
    # every question about a module on the flash has an answer, none raises (an exception a
    # miss would be more garbage between the modules' code). Anything else: KeyError, not here.
    # The listing is the one `knockbox deploy` writes (knockfw.IMPORTS; knockbox.link.deploy.
    # imports_listing): the package folders, then what is a file, then what is not. A new module
    # copied into a package by hand (mpremote) is not in it, and the boot does not find it: a
    # package has one folder, the view's. Deploy, or remove the listing (then nothing is mounted
    # and every import looks on the flash). A module replaced by hand is found as before.
    def __init__(self):
        d: dict = {}
        with open(knockfw.IMPORTS) as f:
            for mode in (_DIR, _FILE, _DIR):
                st = (mode, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                for p in f.readline().split():
                    d[p] = st
        self.stat = d.__getitem__
        self.open = open

    def mount(self, *args):
        pass

    umount = mount

    def ilistdir(self, p):
        return iter(())


if sys.platform == "rp2":  # (once a boot: a soft reset unmounts it)
    try:
        import vfs

        vfs.mount(_Imports(), "/kb")
        sys.path.insert(0, "/kb")
        for _n in ("knockfw", "knockcore"):  # (in already: the Pico build's boot.py has both)
            if _n in sys.modules:
                sys.modules[_n].__path__ = "/kb/" + _n
    except Exception:  # noqa: BLE001 - slower imports, nothing worse
        pass
del _Imports  # (the view holds what it needs: all of it goes with it, _slow())


def _slow():
    # The listing dropped once the first screen's modules are in (its RAM back): the imports
    # after it look on the flash again (see the header).
    try:
        import vfs

        vfs.umount("/kb")
        sys.path.remove("/kb")
        for m in sys.modules.values():
            p = getattr(m, "__path__", "")
            if p[:3] == "/kb":
                m.__path__ = p[3:]  # type: ignore[assignment]
    except Exception:  # noqa: BLE001 - not mounted (the unix port, a second board)
        pass


def _ring(gpio, taps):
    """Start sampling the group of 8 GPIOs that holds `gpio` (DMA into the rings, paced by the
    ADC); returns the reader: read() gives the changes since its last call as [(ticks_ms,
    levels)], levels bit 4 * (g % 8) + 1 the level of GPIO g; read(word), as the chain starts
    again (resume()), takes a look at the group's INTR word (taps: the level bits of the GPIOs
    whose press made and let go while it was stopped counts once; see the header)."""
    global _dma
    import _rp2  # type: ignore[import-not-found]  # the built-in behind rp2, found at once

    m = machine.mem32
    adc = _ADC
    for d in _dma[:4]:  # a sampler started before in this run (a second Board:
        d.close()  # knockfw.fault's): one chain only
    machine.ADC(4)  # the ADC out of reset, on (the temperature sensor)
    m[adc] = 0  # stopped (a soft reset leaves it running) while it is set
    m[adc + _DIV] = _DIV_SLOWEST  # 48 MHz / 65536
    m[adc + _FCS] = _FCS_DREQ  # the FIFO on, DREQ at 1 result
    buf = array("H", bytes(_N * 12))  # two rings of _N words, each aligned to its size
    da, db, dc, dd = _rp2.DMA(), _rp2.DMA(), _rp2.DMA(), _rp2.DMA()  # claimed
    _dma = (da, db, dc, dd, buf)  # kept while the module lives (the app stopped by Ctrl-C too)
    da.write = buf
    at = da.write  # A's scratch word (the ADC's results), then the rings:
    s = at + 4 + (-(at + 4) & (_N * 4 - 1))  # S (levels), aligned; T (times) right after it
    t = s + _N * 4
    h = (s - at) >> 1
    intr = _INTR + 4 * (gpio >> 3)  # the group's raw interrupts
    m[intr] = -1  # its edges latched so far cleared (write 1 to clear)
    # CTRL: enabled, words, IRQ quiet, CHAIN_TO (bits 11-14), TREQ_SEL (15-20: 36 the ADC, 63
    # none); B and D: the write address incremented, C the read address, in a ring of 2 ** _LOG
    # bytes (RING_SEL: 1 on the write address, 0 on the read)
    da.read = adc + _FIFO  # the ADC's FIFO, into A's scratch word (its write)
    da.count = _K
    da.ctrl = _CTRL_ADC | db.channel << _CHAIN_TO
    db.read = intr  # B: the levels and edges into S
    db.write = s
    db.count = 1
    db.ctrl = _CTRL_INTO_RING | dc.channel << _CHAIN_TO
    dc.read = s  # C: the same word back, which clears the edges it holds
    dc.write = intr
    dc.count = 1
    dc.ctrl = _CTRL_FROM_RING | dd.channel << _CHAIN_TO
    dd.read = _TIMERAWL  # D: the timer's TIMERAWL into T
    dd.write = t
    dd.count = 1
    dd.ctrl = _CTRL_INTO_RING | da.channel << _CHAIN_TO
    da.active(1)
    m[adc] = _ADC_RUN
    r = 0
    last = -1  # the levels taken last (-1: none yet)
    prev = pi = 0  # the entry before: its levels, where it is (-1: a look, at ticks_ms lt)
    lt = time.ticks_ms()
    looked = 0
    out: list = []  # what the next read() returns

    def read(word=-1):
        nonlocal r, last, prev, pi, lt, looked, out
        w = (dd.write - t) >> 2 & (_N - 1)  # D's next word: every entry before it is whole
        while r != w:
            i = h + 2 * r
            lo, hi = buf[i], buf[i + 1]
            lv = (hi & _HIGHS) << 16 | lo & _HIGHS
            # a button's level is taken once two entries in a row have it, at the first of
            # them: a spike is no press (see the header); right after a look, also a level
            # the entry saw change since (its edges)
            if last < 0:
                new, j = lv, i
            else:
                d = lv ^ prev
                if looked:
                    d &= ~((hi >> 1 | hi >> 2) << 16 | lo >> 1 | lo >> 2)
                    looked = 0
                new, j = prev & ~d | last & d, pi
            if new != last:
                last = new
                if j < 0:
                    u = lt
                else:  # ticks_us is TIMERAWL's low 30 bits: the sample's age gives its ticks_ms
                    u = (buf[j + 2 * _N + 1] & 0x3FFF) << 16 | buf[j + 2 * _N]
                    u = time.ticks_add(time.ticks_ms(), time.ticks_diff(u, time.ticks_us()) // 1000)
                out.append((u, new))
            prev, pi = lv, i
            r = (r + 1) & (_N - 1)
        if word < 0:
            got, out = out, []
            return got
        lv = word & _LEVELS
        lt = time.ticks_ms()
        if last >= 0:
            d = (word >> 1 | word >> 2) & taps & ~(lv ^ last)
            if d:  # made and let go while stopped (both edges, the level back): once
                out.append((lt, last ^ d))
                out.append((lt, last))
        prev, pi, looked = lv, -1, 1
        return None

    return read


def pause():
    """Stop the sampler between two entries: no DMA channel busy (see the header)."""
    da, db, dc, dd = _dma[:4]
    machine.mem32[_ADC] = 0  # no more conversions: A's DREQ stops
    da.ctrl = da.ctrl & ~1  # A disabled: a trigger from D is ignored, and the abort
    while db.active() or dc.active() or dd.active():  # chains to nothing (RP2040-E13)
        pass
    da.active(0)  # A's wait for the ADC aborted


def resume():
    """Start the sampler again: its first entry after one conversion, then every 9.6 ms (the
    ADC's FIFO set up again: a reading of another input, in between, turns it off)."""
    da = _dma[0]
    da.count = 1
    da.ctrl = da.ctrl | 1
    da.active(1)
    da.count = _K  # the reload for A's next triggers
    m = machine.mem32
    m[_ADC + _FCS] = _FCS_DREQ
    m[_ADC] = _ADC_RUN


def early_buttons(pins, names, pull, pressed, seen=None, at=None, probe=None):
    """boot.py, through the board file's early(): the board file's W probe (before the sampler
    takes the ADC), then the buttons set up, the one held now noted (Board() hands it to the
    app as wake_button()): a button pressed in either of two reads of the SIO's GPIO_IN at least
    _EARLY_GAP_MS apart, as Pimoroni's wakeup module does (seen: the first, as boot.py read it at
    ticks_ms at; none: read now, the pins set up); then the sampler started (_ring), so that a
    press made while the app is still being imported counts too (Board().latched_buttons()
    hands the Buttons reading the samples over)."""
    global _early, _early_at, _latched, _w, _fb
    P = machine.Pin
    if _fb is None:  # before the heap is in pieces (the app's imports, its journal)
        _fb = bytearray(_FB_BYTES)
    if probe and _w is None:
        _w = probe()
    pins_on = dict((n, P(pins[n], P.IN, pull)) for n in names)
    m = machine.mem32
    # edges latched before now are no presses: a soft reset keeps the last firmware's GPIO
    # set-up and raw interrupts (another board's panel lines on these pins), and a pin made an
    # input just now may have fallen (write 1 to clear the EDGE_LOW and EDGE_HIGH bits)
    for n in names:
        m[_INTR + 4 * (pins[n] >> 3)] = _EDGES << 4 * (pins[n] & 7)
    inv = pressed - 1  # 0, or -1: GPIO_IN ^ inv has a 1 for each pin that reads pressed
    if seen is None:
        seen, at = m[_GPIO_IN] ^ inv, time.ticks_ms()
    time.sleep_ms(max(0, _EARLY_GAP_MS - time.ticks_diff(time.ticks_ms(), at)))
    seen |= m[_GPIO_IN] ^ inv  # again
    held = ""
    for n in names:
        if seen >> pins[n] & 1:
            held = n
            break
    _early, _early_at = held, at
    from knockfw.buttons import Buttons

    taps = 0
    for n in names:
        taps |= 2 << 4 * (pins[n] & 7)
    read = _ring(pins[names[0]], taps)
    _latched = (
        Buttons(
            dict((n, 4 * (pins[n] & 7) + 1) for n in names),
            active_low=not pressed,
            sample=read,
        ),
        pins_on,
        read,
    )
    return held or None


class Rp2Board(knockfw.Board):
    name = "rp2"
    active_low = False
    awake_ms = 300  # on battery: no light sleep until the buttons have been still this long

    def _buttons_from(self, pins, names, pull, pressed, probe=None):
        """The buttons boot.py set up and samples since (or, if it did not run, set up and
        sampled from now) and the waking press: the one held then. (A W board the probe found
        is refused by knockfw.board.load().)"""
        global _early, _latched
        if not _latched:  # boot.py did not run: what it does, now
            early_buttons(pins, names, pull, pressed, probe=probe)
        self._pressed = pressed
        self._names = names
        # the buttons' group's INTR word, and its bits that say a button is in use: pressed,
        # or an edge latched since the sampler last cleared them (see idle_sleep); the mask in
        # its two halves, read with mem16 (no heap a turn: mem32 makes a long int of a word
        # whose top two bits differ, e.g. GP15's edges)
        self._intr = _INTR + 4 * (pins[names[0]] >> 3)
        m = 0
        for n in names:
            m |= (_EDGES | (_HIGH if pressed else _LOW)) << 4 * (pins[n] & 7)
        self._stir = (m & 0xFFFF, m >> 16)
        self._stirred = time.ticks_ms()
        self._paused = False
        self._latched, self._buttons, self._read = _latched  # sampling since boot.py
        _latched = ()
        self._woke = _early or None
        self.woke_at = _early_at
        _early = None

    def _held(self):
        """The first button (in button order) that reads pressed now, or None."""
        for n in self._names:
            if self._buttons[n].value() == self._pressed:
                return n
        return None

    def _panel_from(self, pins, driver, spi_id, hz):
        """The e-ink driver on its SPI bus, plus the LED, USB sense and the serial streams."""
        P = machine.Pin
        self._led = P(pins["led"], P.OUT, value=0)
        # VBUS sense with its pull-down (as Pimoroni's): a pin nothing drives reads battery,
        # the safe side (sleeps, switches off) rather than USB for ever (hardware/README.md)
        self._vbus = P(pins["vbus"], P.IN, P.PULL_DOWN)
        self._spi_hz = hz
        # every SPI pin named: without miso= machine.SPI takes the bus's default MISO pin
        # (SPI1: GP8, the Pico-ePaper's DC) and gives it to the SPI (ports/rp2 machine_spi.c);
        # the panels send nothing back, so miso is a pin the board leaves unconnected
        self._spi = machine.SPI(
            spi_id,
            baudrate=hz,
            polarity=0,
            phase=0,
            sck=P(pins["sck"]),
            mosi=P(pins["mosi"]),
            miso=P(pins["miso"]),
        )
        self.display = driver(
            self._spi,
            P(pins["cs"], P.OUT, value=1),
            P(pins["dc"], P.OUT, value=0),
            P(pins["rst"], P.OUT, value=1),
            P(pins["busy"], P.IN, P.PULL_UP),
            feed=knockfw.feed,
            buf=_fb,
        )
        self.display.hold_reset()  # (in reset while the app loads: its first show() is sooner)
        self.serial_in = sys.stdin.buffer
        self.serial_out = sys.stdout.buffer

    def buttons_pins(self):
        """name -> machine.Pin for "a" "b" "c" "up" "down"."""
        return self._buttons

    def latched_buttons(self):
        """The knockfw.buttons.Buttons that boot.py started (reading the samples of every
        press since), or None; once."""
        b = self._latched
        self._latched = None
        return b

    def wake_button(self):
        """The button that woke the board (held at power-up, or the press that ended a sleep
        in power_off()), or None; woke_at: when it was first seen. Once: it is forgotten when
        read."""
        w = self._woke
        self._woke = None
        return w

    def mount(self):
        # The rp2 firmware mounts littlefs at / on boot; make sure the data folder exists. The
        # app asks once its boot's modules are in, before its journal: the imports' listing is
        # dropped then (see the header).
        _slow()
        try:
            os.mkdir(self.data_dir)
        except OSError:
            pass  # exists already

    def on_usb(self):
        return self._vbus.value() == 1

    def led(self, on):
        self._led.value(1 if on else 0)

    def sampling(self, on, fresh=True):
        """Start or stop the buttons' sampler. Stopped, no DMA channel is busy, the ADC draws
        nothing and the rings stand still (light sleep: see the header; power_off()). Started
        again, after a look at the buttons (the reader's), its first entry comes at once; fresh:
        the edges latched meanwhile dropped first (power_off() read the pins itself)."""
        if on == self._paused:
            self._paused = not on
            if not on:
                pause()
                return
            m, a = machine.mem16, self._intr
            if fresh:
                machine.mem32[a] = -1
            self._read(m[a + 2] << 16 | m[a])
            resume()

    def lightsleep(self, ms, slices=1):
        """machine.lightsleep(ms), `slices` times in a row unless a look at the buttons after
        one finds them in use (idle_sleep), then the SPI divider recomputed for the clock it
        leaves behind (see the header). The watchdog is fed before each (the Pico build's
        power_off() sleeps in slices for hours)."""
        m, a = machine.mem16, self._intr
        lo, hi = self._stir
        while True:
            knockfw.feed()
            machine.lightsleep(ms)
            slices -= 1
            if slices <= 0 or m[a] & lo or m[a + 2] & hi:
                break
        self._spi.init(baudrate=self._spi_hz)

    def watch(self, on):
        """on: arm the watchdog (knockfw.feed() feeds it); off: stop it. MicroPython's
        WDT cannot stop, so this clears CTRL.ENABLE itself (RP2040 datasheet 4.7: WATCHDOG_BASE
        0x40058000, CTRL bit 30; 2.1.2: + 0x3000, the register's atomic clear alias)."""
        if on:
            knockfw._wdt = machine.WDT(timeout=_WDT_MS)
        else:
            knockfw._wdt = None
            machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE

    def watchdog_fired(self):
        """True if the armed watchdog reset the chip (the firmware hung): its REASON set, and
        SCRATCH4 still holding the mark pico-sdk's watchdog_enable() (machine.WDT) writes there,
        which machine.reset() (watchdog_reboot) clears; reset_cause() is WDT_RESET for both."""
        return (
            machine.reset_cause() == machine.WDT_RESET
            and machine.mem32[_WATCHDOG_SCRATCH4] == _WDT_MAGIC
        )

    def restart(self):
        machine.reset()

    def idle_sleep(self, ms):
        """Sleep between polls. On USB a plain sleep, so the serial link keeps running. On
        battery, once the buttons have been still for awake_ms, the sampler stopped and a light
        sleep (clocks gated, RAM kept), the sampler started again as it ends; a plain one, the
        sampler running, while they are in use (see the header)."""
        now = time.ticks_ms()
        m, a = machine.mem16, self._intr
        lo, hi = self._stir
        if m[a] & lo or m[a + 2] & hi:
            self._stirred = now
        if self.on_usb() or time.ticks_diff(now, self._stirred) < self.awake_ms:
            time.sleep_ms(ms)
            return
        self.sampling(False)
        try:
            d = self.display  # while it refreshes, a slice: the app sends its next step sooner
            self.lightsleep(ms, 1 if d.awake and d.pin_busy() else _NAP_MS // ms)
        finally:
            self.sampling(True, False)
