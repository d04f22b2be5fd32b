# Polled, debounced buttons with long press and auto-repeat.
#
# poll(now_ms) every ~10 ms samples every pin. A level counts once it has been read the same for
# debounce_ms: chatter and glitches shorter than that are ignored. Events come out when a level
# counts, but durations are measured from the first read of that level, so a hold lasts as long
# as the contact was closed; while the contact is open (a release not yet counted) a held button
# says nothing.
#
# Repeat buttons (up, down):  "press" when the press counts; held on, "repeat" long_ms after the
#   contact closed, then every repeat_ms (late polls do not pile up repeats). held_ms() tells the
#   UI how long the button has been held, to accelerate.
# Other buttons (a, b, c):    "press" on release when held less than long_ms; "long" once when the
#   hold reaches long_ms, and nothing on that release.
# inject(name): the press that woke the device comes out of the next poll as a "press"; the rest
#   of that physical press (if the finger is still on it) gives nothing more.
#
# Times are ticks (time.ticks_ms()), which wrap: compare them only through ticks_diff.
import time

_ORDER = ("a", "b", "c", "up", "down")


def _period():
    add = getattr(time, "ticks_add", None)
    return add(0, -1) + 1 if add else 1 << 30    # rp2 ticks_ms wrap at 2**30


_PERIOD = _period()


def _diff(a, b):
    """a - b for ticks that wrap at _PERIOD, exactly like time.ticks_diff."""
    half = _PERIOD >> 1
    return ((a - b + half) & (_PERIOD - 1)) - half


def _add(a, d):
    return (a + d) & (_PERIOD - 1)


_tdiff = getattr(time, "ticks_diff", _diff)     # the C one on MicroPython: no allocation
_tadd = getattr(time, "ticks_add", _add)

_PRESS = "press"


class _Key:
    def __init__(self, name, pin, rep):
        self.name = name
        self.pin = pin
        self.rep = rep        # auto-repeat button
        self.raw = False      # last level read (True = pressed)
        self.since = None     # ticks of the first read at that level
        self.down = False     # debounced state
        self.t = None         # ticks the contact closed for this press (None: injected)
        self.next = 0         # repeat buttons: ticks of the next repeat
        self.quiet = False    # rest of this press says nothing ("long" given, or injected)


class Buttons:
    def __init__(self, pins, active_low=False, debounce_ms=50, long_ms=600, repeat_ms=150,
                 repeat=("up", "down")):
        names = [n for n in _ORDER if n in pins]
        names += sorted(n for n in pins if n not in _ORDER)
        self._keys = [_Key(n, pins[n], n in repeat) for n in names]
        self._low = bool(active_low)
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_ms = repeat_ms
        self._queue = []

    def _pressed(self, pin):
        return (pin.value() != 0) != self._low

    def _key(self, name):
        for k in self._keys:
            if k.name == name:
                return k
        raise ValueError("no button %r" % (name,))

    def poll(self, now_ms):
        """Sample all buttons; returns the list of (name, kind) events, in button order."""
        ev = self._queue
        if ev:
            self._queue = []
        else:
            ev = []
        for k in self._keys:
            raw = self._pressed(k.pin)
            if raw != k.raw or k.since is None:
                k.raw = raw
                k.since = now_ms
            if raw != k.down and _tdiff(now_ms, k.since) >= self.debounce_ms:
                k.down = raw
                if raw:
                    self._press(k, ev)
                else:
                    self._release(k, ev)
            elif raw and k.down and not k.quiet:
                self._hold(k, now_ms, ev)
        return ev

    def _press(self, k, ev):
        k.t = k.since
        k.quiet = False
        if k.rep:
            ev.append((k.name, _PRESS))
            k.next = _tadd(k.t, self.long_ms)

    def _hold(self, k, now, ev):
        if k.rep:
            if _tdiff(now, k.next) >= 0:
                ev.append((k.name, "repeat"))
                k.next = _tadd(k.next, self.repeat_ms)
                if _tdiff(now, k.next) >= 0:      # polls came late: do not queue up repeats
                    k.next = _tadd(now, self.repeat_ms)
        elif _tdiff(now, k.t) >= self.long_ms:
            ev.append((k.name, "long"))
            k.quiet = True

    def _release(self, k, ev):
        if not k.quiet and not k.rep:
            # k.since: when the contact opened. A hold that reached long_ms just before is long.
            ev.append((k.name, "long" if _tdiff(k.since, k.t) >= self.long_ms else _PRESS))
        k.quiet = False

    def held_ms(self, name, now_ms):
        """How long `name` has been held (debounced), 0 when it is up or its press was injected."""
        k = self._key(name)
        if not k.down or k.t is None:
            return 0
        return _tdiff(now_ms, k.t)

    def inject(self, name):
        """Queue a "press" of `name` (the button that woke the device) for the next poll."""
        k = self._key(name)
        self._queue.append((name, _PRESS))
        k.down = True
        k.raw = True
        k.since = None
        k.t = None
        k.quiet = True

    def pressed_now(self):
        """Names of the buttons pressed at this instant (raw levels, no debouncing)."""
        return [k.name for k in self._keys if self._pressed(k.pin)]
