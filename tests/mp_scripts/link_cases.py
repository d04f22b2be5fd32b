# knockfw.link cases, run under the MicroPython unix port by tests/test_link.py (from source and
# from .mpy): the real Store and Journal on a littlefs RAM disk, a small stand-in for the app
# (docs/ARCHITECTURE.md: store, settings, apply_settings, request_erase, link_active, VERSION,
# board.name) and in-memory streams that select.poll understands. Prints "ok <case>", "done".
# (The unix port's select.poll spends ~1 ms on a stream that is not an OS file: the link polls
# once per byte read, so the volumes here stay small.)
import gc
import io
import json
import random
import select

import vfs
from micropython import const

from knockfw import link as L
from knockfw.flash import PROG, RAMBlockDevice
from knockfw.journal import Journal
from knockfw.store import Store

_POLL = const(3)    # MP_STREAM_POLL
_FILENO = const(10)  # MP_STREAM_GET_FILENO


class Port(io.IOBase):
    """One direction of a serial port: tests feed `rx`, the link writes to `tx`."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self.writable = True
        self.room = 1 << 30     # bytes the port takes before it is "full"

    def ioctl(self, req, arg):
        if req == _FILENO:
            return -1           # not an OS file: poll must ask ioctl(_POLL)
        if req != _POLL:
            return 0
        r = 0
        if arg & select.POLLIN and self.rx:
            r |= select.POLLIN
        if arg & select.POLLOUT and self.writable and self.room > 0:
            r |= select.POLLOUT
        return r

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
        self.tx += bytes(b[:n])
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


def fresh():
    try:
        vfs.umount("/data")
    except OSError:
        pass
    gc.collect()
    dev = RAMBlockDevice(64)
    vfs.VfsLfs2.mkfs(dev, progsize=PROG)
    vfs.mount(vfs.VfsLfs2(dev, progsize=PROG), "/data")
    store = Store(Journal("/data/journal"), meta_path="/data/meta.json").load()
    app = App(store)
    inp, out = Port(), Port()
    KBD[:] = []
    L._kbd = KBD.append
    return app, L.Link(app, inp, out), inp, out


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
    inp.rx += json.dumps(req).encode() + b"\n"
    for i in range(polls):
        link.poll(now + i)
    got = out.lines()
    check(len(got), 1)
    return got[0]


def case_hello():
    app, link, inp, out = fresh()
    r = ask(link, inp, out, {"id": 1, "op": "hello"})
    check(r["id"], 1)
    check(r["ok"], True)
    check(r["device"], app.store.device_id)
    check((r["fw"], r["format"], r["board"], r["proto"]),
          ("9.8.7", "knockbox-game/1", "testboard", 1))
    check((r["epoch"], r["last_seq"]), (app.store.epoch, app.store.last_seq))
    check(link.faults, 0)


def case_events_pages_cover_the_journal():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 130)
    gid = play(st, 5)
    st.undo(gid)
    st.edit(gid, 0, {"gin": 2, "counts": [10, 20, 0]})
    want = st.events(0, 1000)
    got, after, pages = [], 0, 0
    while True:
        r = ask(link, inp, out, {"id": 10 + pages, "op": "events", "after": after, "limit": 500})
        check(r["last_seq"], st.last_seq)
        check(r["epoch"], st.epoch)
        if not r["ev"]:
            break
        if len(r["ev"]) > 50:
            raise AssertionError("page of %d events" % len(r["ev"]))
        for seq, ev in r["ev"]:
            got.append((seq, ev))
        after = r["ev"][-1][0]
        pages += 1
    check(got, want)
    if pages < (len(want) + 49) // 50 or pages > (len(want) + 29) // 30:
        raise AssertionError("%d pages for %d events" % (pages, len(want)))
    r = ask(link, inp, out, {"id": 99, "op": "events", "after": 3, "limit": 2})
    check([e[0] for e in r["ev"]], [4, 5])


def case_events_page_stops_at_byte_budget():
    app, link, inp, out = fresh()
    st = app.store
    gid = st.new_game({"method": 3, "players": ["A" * 20, "B" * 20, "C" * 20],
                       "start": {"dealer": 0}, "rules": {"preset": "seed", "m3_target": 100000}})
    for i in range(60):
        st.add_hand(gid, {"knock": 0, "counts": [1, 2, 3]})
        st.edit(gid, i, {"knock": 0, "counts": [1, 2, 4]})
    inp.rx += b'{"id":5,"op":"events","after":0,"limit":50}\n'
    for i in range(5):
        link.poll(i)
    line = bytes(out.tx[:out.tx.find(b"\n")])
    r = out.lines()[0]
    if len(line) > 3072 + 200 or len(r["ev"]) >= 50:
        raise AssertionError("page of %d bytes, %d events" % (len(line), len(r["ev"])))
    check([e[0] for e in r["ev"]], list(range(1, len(r["ev"]) + 1)))


def case_games():
    app, link, inp, out = fresh()
    st = app.store
    o = play(st, 1)
    a = play(st, 4)
    b = play(st, 2)
    st.end(b)
    r = ask(link, inp, out, {"id": 2, "op": "games"})
    check(r["games"], [
        {"g": o, "old": True},
        {"g": a, "method": 3, "players": ["Ann", "Bob", "Cy"], "hands": 4, "over": False,
         "ended": False},
        {"g": b, "method": 3, "players": ["Ann", "Bob", "Cy"], "hands": 2, "over": False,
         "ended": True}])


def case_errors_for_bad_requests():
    app, link, inp, out = fresh()
    bad = [(b"not json", None), (b"[1,2]", None), (b'"str"', None), (b"{}", None),
           (b'{"id":"x","op":"hello"}', None), (b'{"id":-1,"op":"hello"}', None),
           (b'{"id":1.5,"op":"hello"}', None), (b'{"id":3,"op":"nope"}', 3),
           (b'{"id":4}', 4), (b'{"id":5,"op":7}', 5), (b'{"id":6,"op":"_line"}', 6),
           (b'{"id":7,"op":"events","after":-1}', 7), (b'{"id":8,"op":"events","limit":0}', 8),
           (b'{"id":9,"op":"events","after":"x"}', 9), (b'{"id":10,"op":"settings","set":[1]}', 10),
           (b'{"id":11,"op":"settings","set":{"colour":"red"}}', 11),
           (b'{"id":12,"op":"roster","players":"Ann"}', 12), (b'{"id":13,"op":"roster"}', 13),
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


def case_line_endings_and_blank_lines():
    app, link, inp, out = fresh()
    inp.rx += b'\r\n\n  \r{"id":1,"op":"hello"}\r\n{"id":2,"op":"hello"}\r{"id":3,"op":"hel'
    for i in range(5):
        link.poll(i)
    check([r["id"] for r in out.lines()], [1, 2])
    inp.rx += b'lo"}\n'      # the rest of a half line arriving later
    link.poll(10)
    check([r["id"] for r in out.lines()], [3])


def case_overlong_line_one_error_then_fine():
    app, link, inp, out = fresh()
    inp.rx += b'{"id":1,"op":"hello","pad":"' + b"x" * 1500
    for i in range(30):
        link.poll(i)
    check(out.lines(), [])
    if len(link._buf) > 1024:
        raise AssertionError("buffered %d bytes" % len(link._buf))
    inp.rx += b'"}\n{"id":2,"op":"hello"}\n'
    for i in range(5):
        link.poll(100 + i)
    got = out.lines()
    check(len(got), 2)
    check(got[0]["id"], None)
    if "too long" not in got[0]["error"]:
        raise AssertionError(got[0])
    check(got[1]["ok"], True)
    # exactly at the limit is taken
    pad = 1024 - len(b'{"id":3,"op":"hello","p":""}')
    inp.rx += b'{"id":3,"op":"hello","p":"' + b"y" * pad + b'"}\n'
    for i in range(5):
        link.poll(200 + i)
    check(out.lines()[0]["ok"], True)


def case_fuzz_random_bytes_lose_nothing():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 20)
    before = (st.last_seq, st.epoch, st.gids(), st.events(0, 100))
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
    check((st.last_seq, st.epoch, st.gids(), st.events(0, 100)), before)


def case_bounded_work_per_poll():
    app, link, inp, out = fresh()
    play(app.store, 200)
    inp.rx += b"x" * 1100
    link.poll(0)
    check(len(inp.rx), 1100 - 512)
    inp.rx += b"\n"
    for i in range(20):
        inp.rx += b'{"id":%d,"op":"events","after":%d}\n' % (i, i * 10)
    out.writable = False
    for i in range(20):
        link.poll(10 + i)
    check(len(out.tx), 0)
    # replies wait (bounded), the rest of the input stays unread in the port
    if link._qn > 2048 + 3072 + 200 or not inp.rx:
        raise AssertionError("queued %d, unread %d" % (link._qn, len(inp.rx)))
    out.writable = True
    link.poll(50)
    if len(out.tx) > 4096:
        raise AssertionError("wrote %d in one poll" % len(out.tx))
    for i in range(200):
        link.poll(60 + i)
    got = out.lines()
    check([r["id"] for r in got], [None] + list(range(20)))


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
    out.room = 1 << 30
    inp.rx += b'{"id":2,"op":"hello"}\n'
    for i in range(5):
        link.poll(20000 + i)
    lines = bytes(out.tx).split(b"\n")
    check(len(lines), 3)                # fragment, hello reply, ""
    check(lines[0][:20], b'{"id":1,"ok":true,"e')
    r = json.loads(lines[1])
    check((r["id"], r["ok"]), (2, True))
    # a session that ends with nothing half written adds nothing
    out.tx = bytearray()
    link.poll(40000)
    check(link.active, False)
    ask(link, inp, out, {"id": 3, "op": "hello"}, now=50000)


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


def case_settings_and_roster():
    app, link, inp, out = fresh()
    r = ask(link, inp, out, {"id": 1, "op": "settings"})
    check(r["settings"]["roster"], ["Ann", "Bob", "Cy"])
    r = ask(link, inp, out, {"id": 2, "op": "settings", "set": {"lang": "ru", "sleep_s": 60}})
    check((r["settings"]["lang"], r["settings"]["sleep_s"]), ("ru", 60))
    check(app.settings["lang"], "ru")
    r = ask(link, inp, out, {"id": 3, "op": "roster", "players": ["Ивану", "Петр", "Zoë", "Al"]})
    check(app.settings["roster"], ["Ивану", "Петр", "Zoë", "Al"])
    check(r["settings"]["roster"], ["Ивану", "Петр", "Zoë", "Al"])
    r = ask(link, inp, out, {"id": 4, "op": "roster", "players": ["A"]})
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


def case_session_switches_ctrl_c():
    app, link, inp, out = fresh()
    inp.rx += b"garbage\n"
    link.poll(0)
    check(len(out.lines()), 1)
    check(KBD, [])
    check(link.active, False)
    ask(link, inp, out, {"id": 1, "op": "hello"}, now=100, polls=1)
    check(KBD, [-1])
    check(app.sessions, [True])
    ask(link, inp, out, {"id": 2, "op": "games"}, now=9000, polls=1)
    link.poll(18000)
    check(KBD, [-1])
    link.poll(19001)
    check(KBD, [-1, 3])
    check(app.sessions, [True, False])
    ask(link, inp, out, {"id": 3, "op": "hello"}, now=20000, polls=1)
    r = ask(link, inp, out, {"id": 4, "op": "bye"}, now=20001, polls=1)
    check(r, {"id": 4, "ok": True})
    check(KBD, [-1, 3, -1, 3])
    check(app.sessions, [True, False, True, False])
    check(link.active, False)


def case_tick_wrap():
    app, link, inp, out = fresh()
    import time
    big = time.ticks_add(0, -5000)
    ask(link, inp, out, {"id": 1, "op": "hello"}, now=big, polls=1)
    link.poll(time.ticks_add(big, 9000))
    check(link.active, True)
    link.poll(time.ticks_add(big, 10001))
    check(link.active, False)


def main():
    import sys
    quick = "quick" in sys.argv     # the .mpy run skips the long fuzz (1 ms per poll of a fake)
    g = globals()
    for name in sorted(g):
        if name.startswith("case_") and not (quick and name.startswith("case_fuzz")):
            g[name]()
            print("ok", name)
    print("done")


main()
