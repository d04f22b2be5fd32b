# knockfw.link cases: requests and sessions (hello, lines that are not requests, ops gone,
# settings, erase and its button, the session's Ctrl-C switch and idle time). Run one at a time
# under the MicroPython unix port by tests/test_link.py; what they share (ports, stand-in app,
# fresh(), ask()) is in link_kit.py.
import random
import time

from knockcore.proto import PROTO
from knockfw.version import VERSION
from link_kit import KBD, ask, check, fresh, play
from storekit import events_of


def case_hello():
    app, link, inp, out = fresh(real_poll=True)
    r = ask(link, inp, out, {"id": 1, "op": "hello"})
    check(r["id"], 1)
    check(r["ok"], True)
    check(r["device"], app.store.device_id)
    check(
        (r["fw"], r["format"], r["board"], r["proto"]),
        (VERSION, "knockbox-game/1", "testboard", PROTO),
    )
    check((r["epoch"], r["last_seq"]), (app.store.epoch, app.store.last_seq))
    check(r["battery"], None)  # no reading (the Pico build, an ADC that reads nothing)
    check(link.faults, 0)
    # the board's last battery reading, as the board keeps it (docs/PROTOCOL.md)
    app.board.battery = {"vbat_mv": 2910, "supply_mv": 2790, "usb": False, "low_mv": 2800}
    r = ask(link, inp, out, {"id": 2, "op": "hello"})
    check(r["battery"], app.board.battery)


def case_ops_no_host_uses_are_gone():
    app, link, inp, out = fresh()
    play(app.store, 2)
    for i, op in enumerate(("games", "roster", "events_raw")):
        r = ask(link, inp, out, {"id": i, "op": op, "players": ["A", "B", "C"]})
        check((r["id"], r["error"]), (i, "unknown op"))


def case_errors_for_bad_requests():
    app, link, inp, out = fresh()
    bad = [
        (b"not json", None),
        (b"[1,2]", None),
        (b'"str"', None),
        (b"{}", None),
        (b'{"id":"x","op":"hello"}', None),
        (b'{"id":-1,"op":"hello"}', None),
        (b'{"id":1.5,"op":"hello"}', None),
        (b'{"id":3,"op":"nope"}', 3),
        (b'{"id":4}', 4),
        (b'{"id":5,"op":7}', 5),
        (b'{"id":6,"op":"_line"}', 6),
        (b'{"id":7,"op":"events","after":-1}', 7),
        (b'{"id":8,"op":"events","limit":0}', 8),
        (b'{"id":9,"op":"events","after":"x"}', 9),
        (b'{"id":10,"op":"settings","set":[1]}', 10),
        (b'{"id":11,"op":"settings","set":{"colour":"red"}}', 11),
        (b'{"id":1073741824,"op":"hello"}', None),
        (b"\x01\x02\x7f\x1b[A", None),
        (b'{"id":14,"op":"he\x00llo"}', None),
        (b'\xff\xfe{"id":15}', None),
        (b'{"id":16,"op":"hello"', None),
    ]
    for line, rid in bad:
        inp.rx += line + b"\n"
        for i in range(3):
            link.poll(i)
        got = out.lines()
        if (
            len(got) != 1
            or got[0].get("id") != rid
            or "error" not in got[0]
            or not isinstance(got[0]["error"], str)
            or "ok" in got[0]
        ):
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
    inp.rx += b'lo"}\n'  # the rest of a half line arriving later
    for i in range(5):
        link.poll(10 + i)
    check([r["id"] for r in out.lines()], [3])


def case_overlong_line_one_error_then_fine():
    app, link, inp, out = fresh()
    inp.rx += b'{"id":1,"op":"hello","pad":"' + b"x" * 1500
    for i in range(30):
        link.poll(i)
    check(out.lines(), [])
    check(len(link._line_buf), 1024)  # nothing more was buffered
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
            chunks.append(b'{"id":%d,"op":"events","after":' % k)  # half line
        elif kind == 2:
            chunks.append(bytes(random.getrandbits(5) for _ in range(n)))  # control chars
        elif kind == 3:
            chunks.append(b"{" * n + b"\n")
        elif kind == 4:
            chunks.append(b'{"id":%d,"op":"%s"}\n' % (k, b"xyz"[: k % 4]))
        else:
            chunks.append(b"z" * (1100 if k == 5 else n))  # one overlong line
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
    link.poll(10001)  # the session ends after the idle time: Ctrl-C works again
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
    r = ask(
        link,
        inp,
        out,
        {"id": 3, "op": "settings", "set": {"roster": ["Ивану", "Петр", "Zoë", "Al"]}},
    )
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
    out.room = 200  # the page is under way when the answer comes
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
    check([x["id"] for x in r], [2, 1])  # the page line whole, then the erase reply
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
