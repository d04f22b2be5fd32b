# What the knockfw.link cases (link_pages_cases.py, link_requests_cases.py) share: run one case at
# a time under the MicroPython unix port by tests/test_link.py (through
# tests/mp_scripts/run_case.py, from source and from .mpy), they drive the real Store and Journal
# on a littlefs RAM disk, a small stand-in for the app (what the link may ask of it, listed in
# knockfw/app.py: store, settings, apply_settings, request_erase, link_active, board.name) and
# in-memory streams that select.poll understands. The unix port's select.poll is slow on a
# stream that is not an OS file and the link polls once per byte read, so most cases give the link the ports' own
# readiness instead (fresh(); fresh(real_poll=True) keeps select.poll).
import gc
import io
import json
import select

from micropython import const

from knockfw import link as L
from simflash import RAMBlockDevice, mount
from knockfw.journal import Journal
from knockfw.settings import check as check_settings
from knockfw.store import Store

_POLL = const(3)  # MP_STREAM_POLL
_FILENO = const(10)  # MP_STREAM_GET_FILENO


class Port(io.IOBase):
    """One direction of a serial port: tests feed `rx`, the link writes to `tx` (or, with a
    `sink`, only counts what it writes and calls sink() at every write)."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self.writable = True
        self.room = 1 << 30  # bytes the port takes before it is "full"
        self.sink = None
        self.written = 0

    def ioctl(self, req, arg):
        if req == _FILENO:
            return -1  # not an OS file: poll must ask ioctl(_POLL)
        if req != _POLL:
            return 0
        r = 0
        if arg & select.POLLIN and self.rx:
            r |= select.POLLIN
        if arg & select.POLLOUT and self.ready_out():
            r |= select.POLLOUT
        return r

    def ready_out(self):
        return self.writable and self.room > 0

    def read(self, n):
        b = bytes(self.rx[:n])
        self.rx = self.rx[n:]
        return b

    def readinto(self, buf):
        b = self.read(len(buf))
        buf[: len(b)] = b
        return len(b)

    def write(self, b):
        n = min(len(b), self.room)
        if self.sink is not None:
            self.sink(b[:n])
        else:
            self.tx += bytes(b[:n])
        self.written += n
        self.room -= n
        return n

    def lines(self):
        """Complete reply lines written so far, decoded; the port forgets them."""
        out = []
        while True:
            i = self.tx.find(b"\n")
            if i < 0:
                return out
            out.append(json.loads(bytes(self.tx[:i])))
            self.tx = self.tx[i + 1 :]


class Board:
    name = "testboard"
    battery = None  # the last battery reading (knockfw.Board)


class App:
    def __init__(self, store):
        self.store = store
        self.board = Board()
        self.settings = {
            "lang": "en",
            "rules": {"preset": "seed"},
            "sleep_s": 300,
            "roster": ["Ann", "Bob", "Cy"],
        }
        self.sessions = []
        self.erase_done = None

    def apply_settings(self, d):
        check_settings(d)  # the app's own check
        self.settings.update(d)

    def request_erase(self, done):
        self.erase_done = done

    def press(self, ok):
        done, self.erase_done = self.erase_done, None
        if ok:
            self.store.erase()
        done(ok)

    def link_active(self, on):
        self.sessions.append(on)


KBD = []
_TIME = L.time


class Frozen:
    """The link's clock, stopped: a poll() ends only when it can get nothing more done, so the
    cases do not depend on how busy the machine is (case_poll_does_a_bounded_amount_each_call
    runs a clock of its own)."""

    ticks_diff = _TIME.ticks_diff
    ticks_add = _TIME.ticks_add

    @staticmethod
    def ticks_ms():
        return 0


def fresh(real_poll=False, blocks=64):
    gc.collect()
    mount(RAMBlockDevice(blocks), "/data", fresh=True)
    store = Store(Journal("/data/journal"), meta_path="/data/meta.json").load()
    app = App(store)
    inp, out = Port(), Port()
    KBD[:] = []
    L._kbd = KBD.append
    link = L.Link(app, inp, out)
    L.time = Frozen
    if not real_poll:
        link._ready = lambda t: (inp,) if inp.rx else ()
        link._writable = lambda t: out.ready_out()
    return app, link, inp, out


def check(got, want):
    if got != want:
        raise AssertionError("got %r\nwant %r" % (got, want))


def play(store, hands=10):
    """A method-3 game with `hands` valid hands (knocks with small counts); returns its gid."""
    rec = {
        "method": 3,
        "players": ["Ann", "Bob", "Cy"],
        "start": {"dealer": 0},
        "rules": {"preset": "seed", "m3_target": 100000},
    }
    gid = store.record({"t": "game", "rec": rec})["g"]
    for i in range(hands):
        k = i % 3
        c = [3, 4, 5]
        c[k] = 1
        store.record({"t": "hand", "h": {"knock": k, "counts": c}})
    return gid


def ask(link, inp, out, req, now=0, polls=20):
    # several polls at the same time `now`: a poll may stop early when the machine is busy
    inp.rx += json.dumps(req).encode() + b"\n"
    for _ in range(polls):
        link.poll(now)
    got = out.lines()
    check(len(got), 1)
    return got[0]
