# knockfw.link cases: the events op and how a reply gets out (pages that cover the journal, a
# page's heap and time per poll, a port that takes part or none of a write, a session that ends
# mid-reply, the journal changing under a page). Run one at a time under the MicroPython unix
# port by tests/test_link.py; what they share (ports, stand-in app, fresh(), ask()) is in
# link_kit.py.
import gc
import json

from knockcore.proto import EVENTS_MAX
from knockfw import link as L
from link_kit import _TIME, ask, check, fresh, play
from storekit import events_of, end_game


def case_events_pages_cover_the_journal():
    app, link, inp, out = fresh()
    st = app.store
    play(st, 230)
    play(st, 5)
    st.record({"t": "undo"})
    st.record({"t": "edit", "i": 0, "h": {"gin": 2, "counts": [10, 20, 0]}})
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
    rec = {
        "method": 3,
        "players": ['A"n\\n', "Борис", "Zoë"],
        "start": {"dealer": 1},
        "rules": {"preset": "classic"},
    }
    gid = st.record({"t": "game", "rec": rec})["g"]
    st.record({"t": "hand", "h": {"knock": 1, "counts": [20, 3, 30]}})
    end_game(st, gid)
    r = ask(link, inp, out, {"id": 1, "op": "events"})
    check([list(e) for e in events_of(st, 0, 10)], r["ev"])
    check(r["ev"][1][1]["rec"]["players"], ['A"n\\n', "Борис", "Zoë"])


def case_page_costs_the_heap_the_same_whatever_its_length():
    # A 200-event page streams through a queue that never holds much: the link's
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
            inp.rx += b"garbage %d\n" % i
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
        raise AssertionError(
            "queued %d, held %d, unread %d" % (link._qn, len(link._held), len(inp.rx))
        )
    check(link.poll(40), False)  # nothing moves: the app may sleep
    out.writable = True
    for i in range(200):
        link.poll(60 + i)
    got = out.lines()
    check([r["id"] for r in got], list(range(20)))


def asked_for_events(hands, room):
    """A device with `hands` hands, asked for an events page and polled once while its port
    takes only `room` bytes: (app, link, inp, out)."""
    app, link, inp, out = fresh()
    play(app.store, hands)
    out.room = room
    inp.rx += b'{"id":1,"op":"events"}\n'
    link.poll(0)
    return app, link, inp, out


def next_hosts_hello(link, inp, out):
    """A new host's hello once the session has ended: the lines the port has taken so far."""
    out.room = 1 << 30
    inp.rx += b'{"id":2,"op":"hello"}\n'
    for i in range(5):
        link.poll(20000 + i)
    return bytes(out.tx).split(b"\n")


def half_written_reply():
    """A device with 40 hands whose port takes only 100 bytes of an events reply."""
    app, link, inp, out = asked_for_events(40, 100)
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
    link.poll(10001)  # idle: the session ends, the rest of the reply is dropped
    check(link.active, False)
    check(link._page, None)
    lines = next_hosts_hello(link, inp, out)
    check(len(lines), 3)  # fragment, hello reply, ""
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
    out.room = len(head)  # exactly the first piece
    link.poll(1)
    check(bytes(out.tx), head)
    link.poll(10002)  # idle: the session ends
    check(link.active, False)
    lines = next_hosts_hello(link, inp, out)
    check((lines[0], len(lines)), (head, 3))
    check(json.loads(lines[1])["id"], 2)


def case_page_that_streams_longer_than_the_idle_time_goes_on():
    # a host that takes a long page slowly is not idle: the session lasts while it reads
    app, link, inp, out = asked_for_events(100, 0)
    for t in range(1000, 16000, 1000):  # 300 bytes a second, for longer than 10 s
        out.room = 300
        link.poll(t)
    check((link.active, link._page is None), (True, False))
    out.room = 1 << 30
    link.poll(16000)
    r = out.lines()
    check((len(r), r[0]["ok"], len(r[0]["ev"])), (1, True, 102))


def case_page_ends_with_an_error_when_the_journal_is_erased_mid_page():
    app, link, inp, out = asked_for_events(100, 300)
    st = app.store
    st.erase()  # a long press of A, while the page is on its way
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
    app, link, inp, out = asked_for_events(40, 300)
    st = app.store
    if link._page is None or link._page._it is None:
        raise AssertionError("no reader kept open")
    st.record({"t": "hand", "h": {"knock": 0, "counts": [1, 30, 40]}})
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
