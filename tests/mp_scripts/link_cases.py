# knockfw.link cases, run one at a time under the MicroPython unix port by tests/test_link.py
# (through tests/mp_scripts/run_case.py, from source and from .mpy): the real Store and Journal on
# a littlefs RAM disk, a small stand-in for the app (docs/ARCHITECTURE.md: store, settings,
# apply_settings, request_erase, link_active, VERSION, board.name) and in-memory streams that
# select.poll understands. The unix port's select.poll spends ~1 ms on a stream that is not an OS
# file and the link polls once per byte read, so most cases give the link the ports' own
# readiness instead (fresh(); fresh(real_poll=True) keeps select.poll).
import gc
import io
import json
import random
import select
import time

from micropython import const

from knockcore.proto import EVENTS_MAX, PROTO
from knockfw import link as L
from knockfw.flash import RAMBlockDevice, mount
from knockfw.journal import Journal
from knockfw.store import Store
from storekit import events_of, end_game

_POLL = const(3)    # MP_STREAM_POLL
_FILENO = const(10)  # MP_STREAM_GET_FILENO


class Port(io.IOBase):
    """One direction of a serial port: tests feed `rx`, the link writes to `tx` (or, with a
    `sink`, only counts what it writes and calls sink() at every write)."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self.writable = True
        self.room = 1 << 30     # bytes the port takes before it is "full"
        self.sink = None
        self.written = 0

    def ioctl(self, req, arg):
        if req == _FILENO:
            return -1           # not an OS file: poll must ask ioctl(_POLL)
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
        buf[:len(b)] = b
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
            self.tx = self.tx[i + 1:]


class Board:
    name = "testboard"


class App:
    VERSION = "9.8.7"

    def __init__(self, store):
        self.store = store
        self.board = Board()
        self.settings = {"lang": "en", "rules": {"preset": "seed"}, "sleep_s": 300,
                         "roster": ["Ann", "Bob", "Cy"]}
        self.sessions = []
        self.erase_done = None

    def apply_settings(self, d):
        for k in d:
            if k not in self.settings:
                raise ValueError("settings: unknown field %r" % (k,))
        if "roster" in d and (not isinstance(d["roster"], list) or len(d["roster"]) < 3):
            raise ValueError("settings: roster must list 3 to 16 names")
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
    gid = store.new_game({"method": 3, "players": ["Ann", "Bob", "Cy"], "start": {"dealer": 0},
                          "rules": {"preset": "seed", "m3_target": 100000}})
    for i in range(hands):
        k = i % 3
        c = [3, 4, 5]
        c[k] = 1
        store.add_hand(gid, {"knock": k, "counts": c})
    return gid


def ask(link, inp, out, req, now=0, polls=20):
    # several polls at the same time `now`: a poll may stop early when the machine is busy
    inp.rx += json.dumps(req).encode() + b"\n"
    for i in range(polls):
        link.poll(now)
    got = out.lines()
    check(len(got), 1)
    return got[0]


def case_hello():
    app, link, inp, out = fresh(real_poll=True)
    r = ask(link, inp, out, {"id": 1, "op": "hello"})
    check(r["id"], 1)
    check(r["ok"], True)
    check(r["device"], app.store.device_id)
    check((r["fw"], r["format"], r["board"], r["proto"]),
          ("9.8.7", "knockbox-game/1", "testboard", PROTO))
    check((r["epoch"], r["last_seq"]), (app.store.epoch, app.store.last_seq))
    check(link.faults, 0)


def case_events_pages_cover_the_journal():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 230)
    gid = play(st, 5)
    st.undo(gid)
    st.edit(gid, 0, {"gin": 2, "counts": [10, 20, 0]})
    want = events_of(st, 0, 1000)
    got, after, pages = [], 0, 0
    while True:
        r = ask(link, inp, out, {"id": 10 + pages, "op": "events", "after": after, "limit": 500})
        check((r["ok"], r["last_seq"], r["epoch"]), (True, st.last_seq, st.epoch))
        if not r["ev"]:
            break
        if len(r["ev"]) > EVENTS_MAX:
            raise AssertionError("page of %d events" % len(r["ev"]))
        for seq, ev in r["ev"]:
            got.append((seq, ev))
        after = r["ev"][-1][0]
        pages += 1
    check(got, want)
    check(pages, (len(want) + EVENTS_MAX - 1) // EVENTS_MAX)
    r = ask(link, inp, out, {"id": 99, "op": "events", "after": 3, "limit": 2})
    check([e[0] for e in r["ev"]], [4, 5])
    r = ask(link, inp, out, {"id": 100, "op": "events", "after": 7})
    check([e[0] for e in r["ev"]], list(range(8, 8 + EVENTS_MAX)))


def case_events_page_is_the_journal_text():
    # records go out as the journal holds them: names with quotes, backslashes and Cyrillic
    app, link, inp, out = fresh()
    st = app.store
    gid = st.new_game({"method": 3, "players": ['A"n\\n', "Борис", "Zoë"], "start": {"dealer": 1},
                       "rules": {"preset": "classic"}})
    st.add_hand(gid, {"knock": 1, "counts": [20, 3, 30]})
    end_game(st, gid)
    r = ask(link, inp, out, {"id": 1, "op": "events"})
    check([list(e) for e in events_of(st, 0, 10)], r["ev"])
    check(r["ev"][1][1]["rec"]["players"], ['A"n\\n', "Борис", "Zoë"])


def case_page_costs_the_heap_the_same_whatever_its_length():
    # A 200-event page (~13 KB) streams through a queue that never holds much: the link's
    # output waiting and the live heap stay small at every write the port sees.
    app, link, inp, out = fresh(blocks=128)
    st = app.store
    play(st, 400)
    seen = {"qn": 0, "n": 0, "lines": 0}

    def sink(b):
        seen["qn"] = max(seen["qn"], link._qn)
        seen["n"] += 1
        seen["lines"] += bytes(b).count(b"\n")
    out.sink = sink
    inp.rx += b'{"id":1,"op":"events"}\n'
    link.poll(0)
    gc.collect()
    base = gc.mem_free()
    low = base
    polls = 0
    while link._page is not None or link._q:
        link.poll(polls)
        polls += 1
        gc.collect()
        low = min(low, gc.mem_free())
    if out.written < 10000 or seen["lines"] != 1:
        raise AssertionError("page of %d bytes, %d lines" % (out.written, seen["lines"]))
    if seen["qn"] > 1024 + 512:
        raise AssertionError("%d bytes queued at once" % seen["qn"])
    if base - low > 3000:
        raise AssertionError("the page held %d bytes of heap" % (base - low))


def case_poll_does_a_bounded_amount_each_call():
    # Each poll() works for at most _BUSY_MS of its clock, then returns True (more to do); the
    # clock here moves 1 ms per reading, so a poll can only get a little done.
    app, link, inp, out = fresh()
    play(app.store, 400)
    clock = [0]
    real = L.time

    class Clock:
        ticks_diff = _TIME.ticks_diff

        @staticmethod
        def ticks_ms():
            clock[0] += 1
            return clock[0]
    L.time = Clock
    try:
        for i in range(12):
            inp.rx += b'{"id":%d,"op":"events","after":%d}\n' % (i, i * 10)
            inp.rx += b'garbage %d\n' % i
        polls, more, got = 0, True, []
        while more:
            w = out.written
            more = link.poll(polls)
            polls += 1
            if out.written - w > 4096:
                raise AssertionError("wrote %d bytes in one poll" % (out.written - w))
            if polls > 5000:
                raise AssertionError("never finished")
            got += out.lines()
    finally:
        L.time = real
    check([r["id"] for r in got], [x for i in range(12) for x in (i, None)])
    check([len(r["ev"]) for r in got if "ev" in r], [EVENTS_MAX] * 12)
    if polls < 40:
        raise AssertionError("all of it in %d polls" % polls)
    check(link.faults, 0)


def case_port_that_does_not_take_output_holds_the_input():
    app, link, inp, out = fresh()
    play(app.store, 200)
    out.writable = False
    for i in range(20):
        inp.rx += b'{"id":%d,"op":"events","after":%d}\n' % (i, i * 10)
    for i in range(20):
        link.poll(10 + i)
    check(len(out.tx), 0)
    # replies wait (bounded), the rest of the input stays unread in the port
    if link._qn > 1024 + 512 or not inp.rx or len(link._held) > 8:
        raise AssertionError("queued %d, held %d, unread %d" % (link._qn, len(link._held),
                                                              len(inp.rx)))
    check(link.poll(40), False)     # nothing moves: the app may sleep
    out.writable = True
    for i in range(200):
        link.poll(60 + i)
    got = out.lines()
    check([r["id"] for r in got], list(range(20)))


def half_written_reply():
    """A device with 40 hands whose port takes only 100 bytes of an events reply."""
    app, link, inp, out = fresh()
    play(app.store, 40)
    out.room = 100
    inp.rx += b'{"id":1,"op":"events"}\n'
    link.poll(0)
    check(len(out.tx), 100)
    return app, link, inp, out


def case_port_that_takes_part_of_a_write():
    app, link, inp, out = half_written_reply()
    out.room = 1 << 30
    for i in range(10):
        link.poll(i)
    r = out.lines()[0]
    check(len(r["ev"]), 42)


def case_session_timeout_mid_reply_ends_the_line():
    # the host stops reading mid-reply and goes away; the next host's reply starts on a new line
    app, link, inp, out = half_written_reply()
    link.poll(10001)        # idle: the session ends, the rest of the reply is dropped
    check(link.active, False)
    check(link._page, None)
    out.room = 1 << 30
    inp.rx += b'{"id":2,"op":"hello"}\n'
    for i in range(5):
        link.poll(20000 + i)
    lines = bytes(out.tx).split(b"\n")
    check(len(lines), 3)                # fragment, hello reply, ""
    check(lines[0][:16], b'{"id":1,"epoch":')
    r = json.loads(lines[1])
    check((r["id"], r["ok"]), (2, True))
    # a session that ends with nothing half written adds nothing
    out.tx = bytearray()
    link.poll(40000)
    check(link.active, False)
    ask(link, inp, out, {"id": 3, "op": "hello"}, now=50000)


def case_timeout_between_whole_pieces_of_a_page_ends_the_line():
    # the port took whole pieces of the page, none in part: the line is still open
    app, link, inp, out = fresh()
    play(app.store, 40)
    inp.rx += b'{"id":1,"op":"events"}\n'
    out.writable = False
    link.poll(0)
    check(len(out.tx), 0)
    out.writable = True
    head = bytes(link._q[0])
    out.room = len(head)    # exactly the first piece
    link.poll(1)
    check(bytes(out.tx), head)
    link.poll(10002)        # idle: the session ends
    check(link.active, False)
    out.room = 1 << 30
    inp.rx += b'{"id":2,"op":"hello"}\n'
    for i in range(5):
        link.poll(20000 + i)
    lines = bytes(out.tx).split(b"\n")
    check((lines[0], len(lines)), (head, 3))
    check(json.loads(lines[1])["id"], 2)


def case_page_that_streams_longer_than_the_idle_time_goes_on():
    # a host that takes a long page slowly is not idle: the session lasts while it reads
    app, link, inp, out = fresh()
    play(app.store, 100)
    out.room = 0
    inp.rx += b'{"id":1,"op":"events"}\n'
    link.poll(0)
    for t in range(1000, 16000, 1000):     # 300 bytes a second, for longer than 10 s
        out.room = 300
        link.poll(t)
    check((link.active, link._page is None), (True, False))
    out.room = 1 << 30
    link.poll(16000)
    r = out.lines()
    check((len(r), r[0]["ok"], len(r[0]["ev"])), (1, True, 102))


def case_page_ends_with_an_error_when_the_journal_is_erased_mid_page():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 100)
    out.room = 300
    inp.rx += b'{"id":1,"op":"events"}\n'
    link.poll(0)
    st.erase()              # a long press of A, while the page is on its way
    out.room = 1 << 30
    for i in range(10):
        link.poll(1 + i)
    r = out.lines()
    check(len(r), 1)
    if "ok" in r[0] or "erased" not in r[0]["error"] or not r[0]["ev"]:
        raise AssertionError(r)
    r = ask(link, inp, out, {"id": 2, "op": "events"}, now=20)
    check((r["ok"], r["epoch"], [e[0] for e in r["ev"]]), (True, st.epoch, [1]))


def case_hand_saved_while_a_page_streams_is_in_it():
    # the page's reader stays open between polls; a record added meanwhile is read afresh
    app, link, inp, out = fresh()
    st = app.store
    gid = play(st, 40)
    out.room = 300
    inp.rx += b'{"id":1,"op":"events"}\n'
    link.poll(0)
    if link._page is None or link._page._it is None:
        raise AssertionError("no reader kept open")
    st.add_hand(gid, {"knock": 0, "counts": [1, 30, 40]})
    out.room = 1 << 30
    for i in range(10):
        link.poll(1 + i)
    r = out.lines()[0]
    check((r["ok"], r["last_seq"]), (True, st.last_seq))
    check(r["ev"], [list(e) for e in events_of(st, 0, 100)])
    check(link._page, None)


def case_page_cut_by_a_flash_error_is_an_error_reply():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 30)
    records = st.journal.records

    def failing(after, raw=False):
        n = 0
        for r in records(after, raw):
            if n == 3:
                raise OSError(5)
            n += 1
            yield r
    st.journal.records = failing
    r = ask(link, inp, out, {"id": 1, "op": "events"})
    if "ok" in r or "failed" not in r["error"]:
        raise AssertionError(r)
    check([e[0] for e in r["ev"]], [1, 2, 3])
    check(link.faults, 0)
    st.journal.records = records
    r = ask(link, inp, out, {"id": 2, "op": "events", "after": 3, "limit": 2})
    check([e[0] for e in r["ev"]], [4, 5])


def case_ops_no_host_uses_are_gone():
    app, link, inp, out = fresh()
    play(app.store, 2)
    for i, op in enumerate(("games", "roster", "events_raw")):
        r = ask(link, inp, out, {"id": i, "op": op, "players": ["A", "B", "C"]})
        check((r["id"], r["error"]), (i, "unknown op"))


def case_errors_for_bad_requests():
    app, link, inp, out = fresh()
    bad = [(b"not json", None), (b"[1,2]", None), (b'"str"', None), (b"{}", None),
           (b'{"id":"x","op":"hello"}', None), (b'{"id":-1,"op":"hello"}', None),
           (b'{"id":1.5,"op":"hello"}', None), (b'{"id":3,"op":"nope"}', 3),
           (b'{"id":4}', 4), (b'{"id":5,"op":7}', 5), (b'{"id":6,"op":"_line"}', 6),
           (b'{"id":7,"op":"events","after":-1}', 7), (b'{"id":8,"op":"events","limit":0}', 8),
           (b'{"id":9,"op":"events","after":"x"}', 9), (b'{"id":10,"op":"settings","set":[1]}', 10),
           (b'{"id":11,"op":"settings","set":{"colour":"red"}}', 11),
           (b'{"id":1073741824,"op":"hello"}', None),
           (b'\x01\x02\x7f\x1b[A', None), (b'{"id":14,"op":"he\x00llo"}', None),
           (b'\xff\xfe{"id":15}', None), (b'{"id":16,"op":"hello"', None)]
    for line, rid in bad:
        inp.rx += line + b"\n"
        for i in range(3):
            link.poll(i)
        got = out.lines()
        if len(got) != 1 or got[0].get("id") != rid or "error" not in got[0] \
                or not isinstance(got[0]["error"], str) or "ok" in got[0]:
            raise AssertionError("%r -> %r" % (line, got))
    check(link.errors, len(bad))
    check(link.faults, 0)
    r = ask(link, inp, out, {"id": 40, "op": "settings", "set": {"colour": 1}})
    check(r["error"], "settings: unknown field 'colour'")
    r = ask(link, inp, out, {"id": 1073741823, "op": "hello"})
    check(r["ok"], True)


def case_line_endings_and_blank_lines():
    app, link, inp, out = fresh(real_poll=True)
    inp.rx += b'\r\n\n  \r{"id":1,"op":"hello"}\r\n{"id":2,"op":"hello"}\r{"id":3,"op":"hel'
    for i in range(5):
        link.poll(i)
    check([r["id"] for r in out.lines()], [1, 2])
    inp.rx += b'lo"}\n'      # the rest of a half line arriving later
    for i in range(5):
        link.poll(10 + i)
    check([r["id"] for r in out.lines()], [3])


def case_overlong_line_one_error_then_fine():
    app, link, inp, out = fresh()
    inp.rx += b'{"id":1,"op":"hello","pad":"' + b"x" * 1500
    for i in range(30):
        link.poll(i)
    check(out.lines(), [])
    check(len(link._line_buf), 1024)    # nothing more was buffered
    inp.rx += b'"}\n{"id":2,"op":"hello"}\n'
    for i in range(5):
        link.poll(100 + i)
    got = out.lines()
    check(len(got), 2)
    check(got[0]["id"], None)
    if "too long" not in got[0]["error"]:
        raise AssertionError(got[0])
    check(got[1]["ok"], True)
    # exactly at the limit is taken, one more byte is not
    pad = 1024 - len(b'{"id":3,"op":"hello","p":""}')
    inp.rx += b'{"id":3,"op":"hello","p":"' + b"y" * pad + b'"}\n'
    inp.rx += b'{"id":4,"op":"hello","p":"' + b"y" * (pad + 1) + b'"}\n'
    for i in range(5):
        link.poll(200 + i)
    got = out.lines()
    check((got[0]["ok"], got[1]["id"]), (True, None))


def case_fuzz_random_bytes_lose_nothing():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 20)
    before = (st.last_seq, st.epoch, st.gids(), events_of(st, 0, 100))
    random.seed(7)
    chunks = []
    for k in range(48):
        kind = k % 6
        n = random.getrandbits(8) + 1
        if kind == 0:
            chunks.append(bytes(random.getrandbits(8) for _ in range(n)))
        elif kind == 1:
            chunks.append(b'{"id":%d,"op":"events","after":' % k)      # half line
        elif kind == 2:
            chunks.append(bytes(random.getrandbits(5) for _ in range(n)))   # control chars
        elif kind == 3:
            chunks.append(b"{" * n + b"\n")
        elif kind == 4:
            chunks.append(b'{"id":%d,"op":"%s"}\n' % (k, b"xyz"[:k % 4]))
        else:
            chunks.append(b"z" * (1100 if k == 5 else n))    # one overlong line
    total_lines = 0
    for k in range(len(chunks)):
        c = chunks[k]
        inp.rx += c
        total_lines += c.count(b"\n") + c.count(b"\r")
        for i in range(3):
            link.poll(k * 3 + i)
    for i in range(400):
        link.poll(1000 + i)
    check(len(inp.rx), 0)
    got = out.lines()
    for r in got:
        if ("error" in r) == ("ok" in r):
            raise AssertionError(r)
    if len(got) > total_lines + 1 or len(got) < 16:
        raise AssertionError("%d replies for %d lines" % (len(got), total_lines))
    check(link.faults, 0)
    # still answering at once, nothing lost
    inp.rx += b'\n{"id":777,"op":"hello"}\n'
    link.poll(2000)
    r = out.lines()
    check(r[-1]["id"], 777)
    check(r[-1]["last_seq"], before[0])
    check((st.last_seq, st.epoch, st.gids(), events_of(st, 0, 100)), before)


class _Broken(Exception):
    pass


def case_erase_that_the_app_refuses_ends_cleanly():
    app, link, inp, out = fresh()

    def refuse(done):
        raise _Broken("no screen")
    app.request_erase = refuse
    r = ask(link, inp, out, {"id": 1, "op": "erase"}, now=0)
    check(r["id"], 1)
    if "no screen" not in r["error"]:
        raise AssertionError(r)
    check(link._erase, None)
    check(link.active, True)
    link.poll(10001)        # the session ends after the idle time: Ctrl-C works again
    check(link.active, False)
    check(KBD, [-1, 3])
    # an app that answers at once (inside request_erase) still gets its reply out
    app.request_erase = lambda done: done(False)
    r = ask(link, inp, out, {"id": 2, "op": "erase"}, now=20000)
    check((r["id"], r["erased"]), (2, False))
    check(link._erase, None)


def case_settings():
    app, link, inp, out = fresh()
    r = ask(link, inp, out, {"id": 1, "op": "settings"})
    check(r["settings"]["roster"], ["Ann", "Bob", "Cy"])
    r = ask(link, inp, out, {"id": 2, "op": "settings", "set": {"lang": "ru", "sleep_s": 60}})
    check((r["settings"]["lang"], r["settings"]["sleep_s"]), ("ru", 60))
    check(app.settings["lang"], "ru")
    r = ask(link, inp, out, {"id": 3, "op": "settings",
                             "set": {"roster": ["Ивану", "Петр", "Zoë", "Al"]}})
    check(app.settings["roster"], ["Ивану", "Петр", "Zoë", "Al"])
    check(r["settings"]["roster"], ["Ивану", "Петр", "Zoë", "Al"])
    r = ask(link, inp, out, {"id": 4, "op": "settings", "set": {"roster": ["A"]}})
    check((r["id"], r["error"]), (4, "settings: roster must list 3 to 16 names"))
    check(app.settings["roster"], ["Ивану", "Петр", "Zoë", "Al"])


def case_erase_waits_for_the_button():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 3)
    e0 = st.epoch
    inp.rx += b'{"id":1,"op":"erase"}\n'
    for i in range(5):
        link.poll(i)
    check(out.lines(), [])
    if app.erase_done is None:
        raise AssertionError("no request_erase")
    # other requests go on meanwhile; a second erase is refused
    r = ask(link, inp, out, {"id": 2, "op": "hello"}, now=10)
    check(r["ok"], True)
    r = ask(link, inp, out, {"id": 3, "op": "erase"}, now=20)
    check(r["id"], 3)
    # the session stays on while the device waits for the press (longer than the idle time)
    for t in range(0, 40000, 1000):
        link.poll(100 + t)
    check(link.active, True)
    app.press(False)
    link.poll(50000)
    r = out.lines()
    check(r, [{"id": 1, "ok": True, "erased": False, "epoch": e0, "last_seq": st.last_seq}])
    check(len(st.gids()), 1)
    r = ask(link, inp, out, {"id": 5, "op": "erase", "last_seq": st.last_seq - 1}, now=50000)
    check(r["id"], 5)
    if "sync first" not in r["error"] or app.erase_done is not None:
        raise AssertionError(r)
    inp.rx += b'{"id":4,"op":"erase","last_seq":%d}\n' % st.last_seq
    link.poll(50001)
    app.press(True)
    link.poll(50002)
    r = out.lines()
    check(r, [{"id": 4, "ok": True, "erased": True, "epoch": e0 + 1, "last_seq": 1}])
    check(st.gids(), [])


def _erase_during_a_page(press):
    app, link, inp, out = fresh()
    st = app.store
    play(st, 60)
    e0 = st.epoch
    inp.rx += b'{"id":1,"op":"erase"}\n'
    link.poll(0)
    out.room = 200          # the page is under way when the answer comes
    inp.rx += b'{"id":2,"op":"events"}\n'
    link.poll(1)
    if link._page is None:
        raise AssertionError("the page is not in progress")
    app.press(press)
    out.room = 1 << 30
    for i in range(10):
        link.poll(2 + i)
    return out.lines(), st, e0


def case_erase_answer_during_a_page_waits_for_its_end():
    r, st, e0 = _erase_during_a_page(False)
    check([x["id"] for x in r], [2, 1])     # the page line whole, then the erase reply
    check((r[0]["ok"], len(r[0]["ev"])), (True, 62))
    check(r[1], {"id": 1, "ok": True, "erased": False, "epoch": e0, "last_seq": st.last_seq})


def case_erase_during_a_page_ends_it_with_an_error():
    r, st, e0 = _erase_during_a_page(True)
    check([x["id"] for x in r], [2, 1])
    if "ok" in r[0] or "erased" not in r[0]["error"]:
        raise AssertionError(r[0])
    check(r[1], {"id": 1, "ok": True, "erased": True, "epoch": e0 + 1, "last_seq": 1})


def case_session_switches_ctrl_c():
    app, link, inp, out = fresh()
    inp.rx += b"garbage\n"
    link.poll(0)
    check(len(out.lines()), 1)
    check(KBD, [])
    check(link.active, False)
    ask(link, inp, out, {"id": 1, "op": "hello"}, now=100, polls=3)
    check(KBD, [-1])
    check(app.sessions, [True])
    ask(link, inp, out, {"id": 2, "op": "settings"}, now=9000, polls=3)
    link.poll(18000)
    check(KBD, [-1])
    link.poll(19001)
    check(KBD, [-1, 3])
    check(app.sessions, [True, False])
    ask(link, inp, out, {"id": 3, "op": "hello"}, now=20000, polls=3)
    r = ask(link, inp, out, {"id": 4, "op": "bye"}, now=20001, polls=3)
    check(r, {"id": 4, "ok": True})
    check(KBD, [-1, 3, -1, 3])
    check(app.sessions, [True, False, True, False])
    check(link.active, False)


def case_tick_wrap():
    app, link, inp, out = fresh()
    big = time.ticks_add(0, -5000)
    ask(link, inp, out, {"id": 1, "op": "hello"}, now=big, polls=3)
    link.poll(time.ticks_add(big, 9000))
    check(link.active, True)
    link.poll(time.ticks_add(big, 10001))
    check(link.active, False)
