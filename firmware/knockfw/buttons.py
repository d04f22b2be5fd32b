# Buttons that never lose a press: changes kept with their times as they happen, debounced in
# the loop, with long press and auto-repeat. poll(now_ms) (the app calls it every loop turn)
# reads them in order, so a press made during a save, a render or a sync is still seen, with its
# own times, in order. Two sources:
# - sample= (the RP2040): knockfw.rp2board's DMA samples the buttons into RAM rings, also while a
#   flash write holds the CPU with interrupts off, when no IRQ handler could run; sample()
#   returns the changes since its last call as [(ticks_ms, levels)], in order, and pins[name] is
#   that button's bit in levels. Nothing else is read and no pin is armed.
# - pins (the simulator's, tests' fakes): where a pin can interrupt, a hard IRQ handler writes
#   each edge into a small ring with its time and the level read right then; poll() also reads
#   every pin, so a pin without interrupts, or an edge the ring had no room for, is caught at the
#   time of the poll.
#
# Debouncing: a change of level counts at once (the press acts on its first edge: no waiting),
# then the button is deaf for debounce_ms from that edge, through the contact's bounce; if the
# level read after that differs, that change counts when the deaf time ends, and the deaf time
# after it runs from its own edge (a late count must not swallow the next quick change: the
# RP2040's levels count up to 19.2 ms late). So a press or a release is never slower than its
# first edge, and two presses need debounce_ms between their edges.
#
# Repeat buttons (up, down):  "press" when the press counts; held on, "repeat" long_ms after it,
#   then every repeat_ms (polls that come late give one repeat, not a burst).
# Other buttons (a, b, c):    "press" on release when held less than long_ms; "long" once when the
#   hold reaches long_ms, and nothing on that release.
# inject(name, t): the press that woke the device, down since t: Up/Down give their "press" at
#   the next poll and nothing more for that press; A/B/C count it from t like any press ("press"
#   on release, "long" once held long_ms: a hold that wakes the device is a long press).
#
# Times are ticks (time.ticks_ms()), which wrap: compare them only through ticks_diff.
import time
from array import array

from micropython import const

SEATS = ("a", "b", "c")  # the seats' buttons, seat 0 first
STEPS = ("up", "down")  # they step counts and move in lists; held, they repeat
NAMES = SEATS + STEPS  # the five buttons, in the order events come out
PRESS = "press"
LONG = "long"
REPEAT = "repeat"
_RING = const(64)  # edges kept between two polls (contact bounce included)
_TICKS = const(0x3FFFFFFF)


def _period():
    add = getattr(time, "ticks_add", None)
    return add(0, -1) + 1 if add else 1 << 30  # rp2 ticks_ms wrap at 2**30


_PERIOD = _period()


def _diff(a, b):
    """a - b for ticks that wrap at _PERIOD, exactly like time.ticks_diff."""
    half = _PERIOD >> 1
    return ((a - b + half) & (_PERIOD - 1)) - half


def _add(a, d):
    return (a + d) & (_PERIOD - 1)


_tdiff = getattr(time, "ticks_diff", _diff)  # the C one on MicroPython: no allocation
_tadd = getattr(time, "ticks_add", _add)


def _now():
    return time.ticks_ms()


class _Key:
    def __init__(self, name, pin, rep):
        self.name = name
        self.pin = pin
        self.rep = rep  # auto-repeat button
        self.raw = False  # level last seen (True = pressed)
        self.down = False  # debounced state
        self.deaf = None  # ticks until which changes wait (None: not deaf)
        self.rt = 0  # ticks the level last changed
        self.t = 0  # ticks the press started
        self.next = 0  # repeat buttons: ticks of the next repeat
        self.quiet = False  # rest of this press says nothing ("long" given, or Up/Down injected)


class Buttons:
    def __init__(
        self,
        pins,
        active_low=False,
        debounce_ms=50,
        long_ms=600,
        repeat_ms=150,
        clock=None,
        sample=None,
    ):
        names = [n for n in NAMES if n in pins]
        names += sorted(n for n in pins if n not in NAMES)
        self._keys = [_Key(n, pins[n], n in STEPS) for n in names]
        self._low = bool(active_low)
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_ms = repeat_ms
        self._clock = clock or _now
        self._queue = []
        # (ticks, key * 2 + level) per edge; empty when sampled (no IRQ writes there)
        self._ring = array("i", bytes(0 if sample else 8 * _RING))
        self._w = 0  # edges written by the IRQ handlers (wraps at _TICKS)
        self._r = 0  # edges read by poll()
        self._sample = sample
        for i in range(len(self._keys)):
            self._arm(i, self._keys[i].pin)  # (not the sampled ones: an int has no irq)

    def _arm(self, i, pin):
        # Hard IRQ on both edges where the pin has interrupts. The handler must allocate
        # nothing: it closes over two names only (a closure call with more than 4 values to pass
        # copies them to the heap), and stores small ints into the preallocated ring.
        irq = getattr(pin, "irq", None)
        cls = type(pin)
        if irq is None or not hasattr(cls, "IRQ_RISING"):
            return

        def edge(p):
            w = self._w
            j = (w % _RING) * 2
            ring = self._ring
            ring[j] = self._clock()
            ring[j + 1] = i * 2 + ((p.value() != 0) != self._low)
            self._w = (w + 1) & _TICKS

        irq(edge, cls.IRQ_RISING | cls.IRQ_FALLING, hard=True)

    def poll(self, now_ms):
        """Take the edges since the last poll, read every pin, and return the events as a list
        of (name, kind), in the order they happened (same time: button order)."""
        ev = self._queue
        if ev:
            self._queue = []
        else:
            ev = []
        w = self._w
        n = (w - self._r) & _TICKS
        if n > _RING:  # more edges than the ring holds: the oldest are gone
            n = _RING
        r = (w - n) & _TICKS
        ring, keys = self._ring, self._keys
        while r != w:
            j = (r % _RING) * 2
            v = ring[j + 1]
            self._edge(keys[v >> 1], ring[j], v & 1 == 1, ev)
            r = (r + 1) & _TICKS
        self._r = w
        smp = self._sample
        for t, lv in smp() if smp else ((now_ms, 0),):  # the samples, or the pins now
            for k in keys:
                self._settle(k, t, ev)  # what was due before, for every button, first
                raw = ((lv >> k.pin & 1 if smp else k.pin.value()) != 0) != self._low
                if raw != k.raw:
                    self._edge(k, t, raw, ev)
        for k in keys:
            self._settle(k, now_ms, ev)
        return ev

    def _edge(self, k, t, raw, ev):
        self._settle(k, t, ev)  # what was due before this edge happens first
        k.raw = raw
        k.rt = t
        if k.deaf is None and raw != k.down:
            self._flip(k, t, ev)

    def _settle(self, k, t, ev):
        if k.deaf is not None and _tdiff(t, k.deaf) >= 0:
            at = k.deaf
            k.deaf = None
            if k.raw != k.down:  # changed while deaf: that change counts now
                self._flip(k, at, ev)
        if k.down and not k.quiet:
            self._hold(k, t, ev)

    def _flip(self, k, t, ev):
        k.down = k.raw
        k.deaf = _tadd(k.rt, self.debounce_ms)  # from the edge (a change counted late too)
        if k.down:
            k.t = t
            k.quiet = False
            if k.rep:
                ev.append((k.name, PRESS))
                k.next = _tadd(t, self.long_ms)
        else:
            if not k.quiet and not k.rep:
                ev.append((k.name, LONG if _tdiff(t, k.t) >= self.long_ms else PRESS))
            k.quiet = False

    def _hold(self, k, now, ev):
        if k.rep:
            if _tdiff(now, k.next) >= 0:
                ev.append((k.name, REPEAT))
                k.next = _tadd(k.next, self.repeat_ms)
                if _tdiff(now, k.next) >= 0:  # polls came late: do not queue up repeats
                    k.next = _tadd(now, self.repeat_ms)
        elif _tdiff(now, k.t) >= self.long_ms:
            ev.append((k.name, LONG))
            k.quiet = True

    def inject(self, name, t=None):
        """The press of `name` that woke the device, down since ticks t (None: now): for Up and
        Down a "press" out of the next poll (the rest of that press says nothing more), for
        A/B/C a press like any other from t on: "press" when it is let go, "long" once held
        long_ms from t (a hold that wakes the device is a long press)."""
        for k in self._keys:
            if k.name == name:
                k.down = k.raw = True
                k.t = k.rt = self._clock() if t is None else t
                k.deaf = None
                k.quiet = k.rep
                if k.rep:
                    self._queue.append((name, PRESS))
                return
        raise ValueError("no button %r" % (name,))
