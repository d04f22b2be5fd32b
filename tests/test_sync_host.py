"""`knockbox sync` facing a device that misbehaves: a stand-in device on a pseudo-terminal (a
thread here) answers nothing, garbage, the REPL, malformed replies, or breaks off mid-sync.
The command must say what is wrong (`knockbox: ...`, exit 1, no traceback) and leave the history
as it was (or holding only whole, checked pages)."""
import json
import os
import pty
import random
import sqlite3
import subprocess
import sys
import threading
import time
import tty
from types import SimpleNamespace

import pytest

from knockbox import serialio
from knockbox.errors import UserError
from knockcore.game import Game

KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
DEV = "f00dfeed00000001"
HELLO = {"ok": True, "proto": 1, "device": DEV, "fw": "0.1.0", "format": "knockbox-game/1",
         "board": "fake", "epoch": 0, "last_seq": 0}


class FakeDevice:
    """A pty whose other end answers each request line with answer(request_dict or None,
    raw_line) -> bytes (may be b"" for silence)."""

    def __init__(self, answer):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.answer = answer
        self.seen = []
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        buf = b""
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if not line.strip():
                    continue
                try:
                    req = json.loads(line)
                except ValueError:
                    req = None
                self.seen.append(req)
                out = self.answer(req, line)
                if isinstance(out, list):   # a reply that streams: (pause in s, bytes) pieces
                    for pause, b in out:
                        time.sleep(pause)
                        os.write(self.master, b)
                elif out:
                    os.write(self.master, out)

    def close(self):
        os.close(self.slave)
        os.close(self.master)


def reply(req, **kw):
    d = dict(kw)
    d["id"] = req["id"]
    return (json.dumps(d) + "\n").encode()


def journal(n_hands=120):
    """Journal events of one method-3 game with n_hands hands."""
    rnd = random.Random(4)
    g = Game(3, ["Ann", "Bob", "Cy"], {"dealer": 0}, {"preset": "seed", "m3_target": 100000})
    from gamegen import random_hand
    evs = [{"t": "epoch", "e": 0, "dev": DEV, "next": 1},
           {"t": "game", "g": 1, "rec": {"method": 3, "players": g.players, "start": g.start,
                                         "rules": {"preset": "seed", "m3_target": 100000}}}]
    for _ in range(n_hands):
        h = random_hand(g, rnd)
        g.add(h)
        evs.append({"t": "hand", "g": 1, "h": h})
    return evs, g


def good_device(evs, page_hook=None, hello=HELLO, cap=50):
    def answer(req, line):
        if req is None:
            return b'{"id":null,"error":"not JSON"}\n'
        if req["op"] == "hello":
            return reply(req, **dict(hello, last_seq=len(evs)))
        if req["op"] == "events":
            a, n = req["after"], min(req["limit"], cap)
            page = [[i + 1, evs[i]] for i in range(a, min(a + n, len(evs)))]
            if page_hook:
                out = page_hook(req, page)
                if out is not None:
                    return out
            return reply(req, ok=True, epoch=0, last_seq=len(evs), ev=page)
        if req["op"] == "bye":
            return reply(req, ok=True)
        return reply(req, error="unknown op")
    return answer


def run(*args):
    return subprocess.run([KNOCKBOX] + list(args), capture_output=True, text=True, timeout=60)


def failed(p, *words):
    assert p.returncode == 1, p.stdout + p.stderr
    assert p.stderr.startswith("knockbox: ") or "\nknockbox: " in p.stderr, p.stderr
    assert "Traceback (most recent call last):\n" not in p.stderr, p.stderr
    for w in words:
        assert w in p.stderr, p.stderr
    return p


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "h.sqlite3")


def test_silent_device(db):
    d = FakeDevice(lambda req, line: b"")
    try:
        p = failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "no answer")
    finally:
        d.close()
    assert not os.path.exists(db)


@pytest.mark.parametrize("junk", [
    b">>> \r\nTraceback (most recent call last):\r\nSyntaxError: invalid syntax\r\n>>> ",
    bytes(random.Random(1).getrandbits(8) for _ in range(3000)),
    b'{"id": 12345, "ok": true}\n[1, 2]\n"hello"\n\x00\x01\x02\n',
])
def test_device_answering_garbage(db, junk):
    d = FakeDevice(lambda req, line: junk)
    try:
        p = failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
                   "did not answer hello")
    finally:
        d.close()
    assert not os.path.exists(db)


def test_malformed_hello_and_other_format(db):
    d = FakeDevice(lambda req, line: reply(req, ok=True, device=7))
    try:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "not a Knockbox")
    finally:
        d.close()
    d = FakeDevice(lambda req, line: reply(req, **dict(HELLO, format="knockbox-game/9")))
    try:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "knockbox-game/9")
    finally:
        d.close()
    assert not os.path.exists(db)


def test_no_such_port(db):
    failed(run("sync", "--port", "/dev/nonexistent-knockbox", "--db", db), "cannot open")


def test_garbage_page_mid_sync_keeps_only_whole_pages(db):
    evs, g = journal(120)

    def hook(req, page):
        if req["after"] >= 50:
            return b'{"id": %d, "ok": true, "epoch": 0, "last_seq": 122, "ev": [[51, "x"]]}\n' \
                % req["id"]
        return None
    d = FakeDevice(good_device(evs, hook))
    try:
        p = failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
                   "malformed", "50 new records saved")
    finally:
        d.close()
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*), MAX(seq) FROM events").fetchone() == (50, 50)
    rec = json.loads(c.execute("SELECT record FROM games").fetchone()[0])
    assert rec["hands"] == g.record()["hands"][:48]
    # and a good device then completes it
    d = FakeDevice(good_device(evs))
    try:
        p = run("sync", "--port", d.path, "--db", db)
    finally:
        d.close()
    assert p.returncode == 0, p.stderr
    assert "72 new records: 0 new games, 1 updated" in p.stdout
    rec = json.loads(c.execute("SELECT record FROM games").fetchone()[0])
    assert rec == g.record()


def test_device_silent_mid_sync(db):
    evs, g = journal(200)

    def hook(req, page):
        return b"" if req["after"] >= 100 else None
    d = FakeDevice(good_device(evs, hook))
    try:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
               "no answer to events", "100 new records saved", "resumes")
    finally:
        d.close()
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM events").fetchone() == (100,)


def test_a_game_the_rules_refuse_is_kept_as_invalid(db):
    evs, g = journal(10)
    evs.append({"t": "hand", "g": 1, "h": {"knock": 0, "counts": [50, 1, 2]}})   # > limit
    d = FakeDevice(good_device(evs))
    try:
        p = failed(run("sync", "--port", d.path, "--db", db), "failed the rules check",
                   "record 13")
    finally:
        d.close()
    c = sqlite3.connect(db)
    status, rec = c.execute("SELECT status, record FROM games").fetchone()
    assert status == "invalid" and json.loads(rec) == g.record()
    h = run("history", "--db", db)
    assert h.returncode == 0 and "invalid: record 13" in h.stdout


def test_journal_that_changed_under_the_history_is_read_again(db):
    evs, g = journal(30)
    d = FakeDevice(good_device(evs))
    try:
        assert run("sync", "--port", d.path, "--db", db).returncode == 0
    finally:
        d.close()
    evs2, g2 = journal(10)      # same device and epoch, different journal (repaired on device)
    evs2.append({"t": "undo", "g": 1})
    g2.undo()
    d = FakeDevice(good_device(evs2))
    try:
        p = run("sync", "--port", d.path, "--db", db)
    finally:
        d.close()
    assert p.returncode == 0, p.stderr
    assert "no longer matches" in p.stderr
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM events").fetchone() == (len(evs2),)
    assert json.loads(c.execute("SELECT record FROM games").fetchone()[0]) == g2.record()


def _port(dev, vid, pid, manufacturer=None):
    return SimpleNamespace(device=dev, vid=vid, pid=pid, manufacturer=manufacturer)


def test_find_port_by_usb_id():
    assert serialio.find_port([_port("/dev/ttyS0", None, None),
                               _port("/dev/ttyACM0", 0x2E8A, 0x0005)]) == "/dev/ttyACM0"
    with pytest.raises(UserError, match="no Knockbox found on USB .*2e8a:0005"):
        serialio.find_port([_port("/dev/ttyUSB0", 0x0403, 0x6001)])
    with pytest.raises(UserError, match="several .*ttyACM0, /dev/ttyACM1.*--port"):
        serialio.find_port([_port("/dev/ttyACM1", 0x2E8A, 0x0005),
                            _port("/dev/ttyACM0", 0xF055, 0x9800)])


@pytest.mark.parametrize("port", [_port("/dev/ttyACM3", 0xF055, 0x9802),
                                  _port("/dev/ttyACM3", 0x1234, 0x5678, "MicroPython")])
def test_sync_finds_every_board_deploy_finds(port, monkeypatch):
    """One list of USB ids: a board `knockbox deploy` finds, `knockbox sync` finds too."""
    from serial.tools import list_ports

    from knockbox import deploy
    monkeypatch.setattr(list_ports, "comports", lambda: [_port("/dev/ttyS0", None, None), port])
    assert [d for d, _ in deploy.find_boards()] == ["/dev/ttyACM3"]
    assert serialio.find_port() == "/dev/ttyACM3"


@pytest.mark.parametrize("proto, words", [
    (2, ["serial protocol 2, newer", "update knockbox"]),
    (0, ["serial protocol 0, older", "knockbox deploy"]),
    ("1", ["no protocol version", "not a Knockbox"]),
    (None, ["no protocol version", "not a Knockbox"]),
])
def test_device_speaking_another_protocol_is_refused(db, proto, words):
    hello = dict(HELLO, proto=proto)
    if proto is None:
        del hello["proto"]
    evs, g = journal(3)
    d = FakeDevice(good_device(evs, hello=hello))
    try:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), *words)
        failed(run("push", "--port", d.path, "--lang", "ru", "--timeout", "0.5"), *words)
    finally:
        d.close()
    assert not os.path.exists(db)
    assert [r["op"] for r in d.seen if r] == ["hello", "bye", "hello", "bye"]   # nothing else


def test_pages_of_the_protocols_size(db):
    from knockcore.proto import EVENTS_MAX

    evs, g = journal(2 * EVENTS_MAX)
    d = FakeDevice(good_device(evs, cap=EVENTS_MAX))
    try:
        p = run("sync", "--port", d.path, "--db", db)
    finally:
        d.close()
    assert p.returncode == 0, p.stderr
    asked = [r for r in d.seen if r and r["op"] == "events"]
    assert [(r["after"], r["limit"]) for r in asked] == [
        (0, EVENTS_MAX), (EVENTS_MAX, EVENTS_MAX), (2 * EVENTS_MAX, EVENTS_MAX)]


def test_a_page_that_streams_longer_than_the_timeout_is_waited_for(db):
    # the device sends a long page in pieces (a busy Pico): --timeout is silence, not the page
    evs, g = journal(60)

    def hook(req, page):     # the device's own key order: "id" first, "ok" last
        b = json.dumps({"id": req["id"], "epoch": 0, "ev": page, "last_seq": len(evs),
                        "ok": True}, separators=(",", ":")).encode() + b"\n"
        k = len(b) // 5
        return [(0.3, b[i:i + k]) for i in range(0, len(b), k)]
    d = FakeDevice(good_device(evs, hook))
    try:
        p = run("sync", "--port", d.path, "--db", db, "--timeout", "0.5")
    finally:
        d.close()
    assert p.returncode == 0, p.stderr
    assert "62 new records" in p.stdout
    # and a device that falls silent half way through a page is still given up on
    d = FakeDevice(good_device(evs, lambda req, page: [(0, b'{"id":%d,"epoch":0,"ev":['
                                                             % req["id"])]))
    try:
        failed(run("sync", "--port", d.path, "--db", db + "2", "--timeout", "0.5"),
               "stopped part way through its reply to events", "then nothing for 0.5 s")
    finally:
        d.close()


def test_page_the_device_ends_with_an_error_is_not_stored(db):
    # the device streams a page and cannot finish it (erased meanwhile, a flash error): the reply
    # carries the events sent so far and "error"; only the whole pages before it are kept
    evs, g = journal(120)

    def hook(req, page):
        if req["after"] >= 50:
            return reply(req, epoch=0, ev=page[:7], error="the journal was erased during the sync")
        return None
    d = FakeDevice(good_device(evs, hook))
    try:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
               "erased during the sync", "50 new records saved")
    finally:
        d.close()
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*), MAX(seq) FROM events").fetchone() == (50, 50)


# ---- review fixes: a device whose journal, numbers or records are not what the history expects

def device(state):
    """A stand-in device whose journal, id and epoch tests change between syncs:
    state = {"dev", "epoch", "evs"} (seq = index + 1); erase answers state["erase_reply"]."""
    def answer(req, line):
        if req is None:
            return b'{"id":null,"error":"not JSON"}\n'
        evs = state["evs"]
        if req["op"] == "hello":
            return reply(req, **dict(HELLO, device=state["dev"], epoch=state["epoch"],
                                     last_seq=len(evs)))
        if req["op"] == "events":
            a, n = req["after"], min(req["limit"], 50)
            page = [[i + 1, evs[i]] for i in range(a, min(a + n, len(evs)))]
            return reply(req, ok=True, epoch=state["epoch"], last_seq=len(evs), ev=page)
        if req["op"] == "bye":
            return reply(req, ok=True)
        if req["op"] == "erase":
            return reply(req, **state["erase_reply"])
        return reply(req, error="unknown op")
    return answer


def sync_with(state, db, *extra):
    d = FakeDevice(device(state))
    try:
        return run("sync", "--port", d.path, "--db", db, "--timeout", "1", *extra)
    finally:
        d.close()


def game_events(g, gid):
    rec = g.record()
    hands = rec.pop("hands")
    rec.pop("format", None)
    return [{"t": "game", "g": gid, "rec": rec}] + [{"t": "hand", "g": gid, "h": h}
                                                    for h in hands]


def new_game(players, dealer=0):
    return Game(3, players, {"dealer": dealer}, {"preset": "seed", "m3_target": 100000})


def play(g, rnd, n):
    from gamegen import random_hand
    for _ in range(n):
        g.add(random_hand(g, rnd))
    return g


def rows(db):
    c = sqlite3.connect(db)
    try:
        return [(gid, json.loads(rec)) for gid, rec in
                c.execute("SELECT gid, record FROM games ORDER BY id")]
    finally:
        c.close()


def test_a_synced_game_is_never_replaced_by_another_one(db):
    rnd = random.Random(6)
    head = {"t": "epoch", "e": 0, "dev": DEV, "next": 1}
    g1, g2 = play(new_game(["Ann", "Bob", "Cy"]), rnd, 3), play(new_game(["Ann", "Bob", "Cy"]), rnd, 2)
    st = {"dev": DEV, "epoch": 0, "evs": [head] + game_events(g1, 1) + game_events(g2, 2)}
    assert sync_with(st, db).returncode == 0
    # an undo and an edit of game 2 on the device update it (same game)
    g2.undo()
    g2.replace(0, g1.hand(0))
    st["evs"] += [{"t": "undo", "g": 2}, {"t": "edit", "g": 2, "i": 0, "h": g1.hand(0)}]
    p = sync_with(st, db)
    assert p.returncode == 0 and "2 new records: 0 new games, 1 updated" in p.stdout, p.stdout
    assert rows(db) == [(1, g1.record()), (2, g2.record())]
    # the journal is repaired on the device and game number 2 is given to another game
    g3 = play(new_game(["Dan", "Eve", "Fay"]), rnd, 4)
    st["evs"] = [head] + game_events(g1, 1) + game_events(g3, 2)
    p = sync_with(st, db)
    assert p.returncode == 0, p.stderr
    assert "no longer matches" in p.stderr
    assert "journal read again (%d records; the history held %d): 1 new games, 0 updated" \
        % (len(st["evs"]), 1 + 4 + 3 + 2) in p.stdout, p.stdout
    got = rows(db)
    assert got[0] == (1, g1.record())
    assert got[1][1] == g2.record() and got[1][0] < 0      # kept, off the device's key
    assert got[2] == (2, g3.record())
    h = run("history", "--db", db)
    assert h.returncode == 0 and h.stdout.count("replaced on the device") == 1, h.stdout
    j = json.loads(run("history", "--json", "--db", db).stdout)
    assert [(x["gid"], x["replaced"], x["hands"]) for x in j] == \
        [(1, False, 3), (None, True, 1), (2, False, 4)]
    # a device that comes back (reflashed) at an epoch the history already has
    g4 = play(new_game(["Gus", "Hal", "Ivy"], 1), rnd, 2)
    st["evs"] = [head] + game_events(g4, 1)
    p = sync_with(st, db)
    assert p.returncode == 0 and "no longer matches" in p.stderr, p.stderr
    got = rows(db)
    assert [r for _, r in got] == [g1.record(), g2.record(), g3.record(), g4.record()]
    assert [gid for gid, _ in got][3] == 1 and got[0][0] < 0 and got[2][0] == 2
    assert run("show", str(3), "--db", db).returncode == 0


def test_an_interrupt_after_storing_events_still_builds_the_game(db, monkeypatch):
    import io

    from knockbox import history as H
    from knockbox import sync as S
    evs, g = journal(30)
    d = FakeDevice(good_device(evs))
    orig = H.History.add_events

    def add_then_ctrl_c(self, *a):
        orig(self, *a)
        raise KeyboardInterrupt     # lands between storing the page and noting its games
    monkeypatch.setattr(H.History, "add_events", add_then_ctrl_c)
    conn = serialio.open_device(d.path, 1.0)
    try:
        with pytest.raises(KeyboardInterrupt):
            S.Sync(conn, H.History(db), io.StringIO()).run()
        conn.bye()
    finally:
        conn.close()
        d.close()
    assert rows(db) == [(1, g.record())]
    # a history left by an older knockbox with events but no game row is mended by a sync
    c = sqlite3.connect(db)
    c.execute("DELETE FROM games")
    c.commit()
    c.close()
    monkeypatch.setattr(H.History, "add_events", orig)
    d = FakeDevice(good_device(evs))
    try:
        p = run("sync", "--port", d.path, "--db", db)
    finally:
        d.close()
    assert p.returncode == 0 and "nothing new; 1 new games" in p.stdout, p.stdout + p.stderr
    assert rows(db) == [(1, g.record())]


@pytest.mark.parametrize("rec", [
    {"method": 3, "players": ["A", "B", "C"], "start": {"dealer": 0},
     "rules": {"preset": "seed"}, "hands": 5},
    {"method": 3, "players": [1, 2, 3], "start": {"dealer": 0}, "rules": {"preset": "seed"}},
    {"method": [3], "players": "ABC", "start": 7, "rules": {"preset": "seed"}},
])
def test_a_malformed_game_record_is_kept_invalid_and_clean(db, rec):
    st = {"dev": DEV, "epoch": 0, "evs": [{"t": "epoch", "e": 0, "dev": DEV, "next": 1},
                                          {"t": "game", "g": 1, "rec": rec}]}
    failed(sync_with(st, db), "failed the rules check", "record 2")
    c = sqlite3.connect(db)
    status, players, hands, method = c.execute(
        "SELECT status, players, hands, method FROM games").fetchone()
    assert status == "invalid" and hands == 0
    assert json.loads(players) == (rec["players"] if rec["players"] == ["A", "B", "C"] else [])
    assert method == (3 if rec["method"] == 3 else None)
    for args in (["history"], ["history", "--json"], ["stats"], ["export", "--csv"],
                 ["export", "--json"]):
        p = run(*args, "--db", db)
        assert p.returncode == 0 and "Traceback" not in p.stderr, (args, p.stderr)
    p = run("show", "1", "--db", db)     # shows what it can, or says why not
    if p.returncode:
        failed(p, "game 1")


def test_numbers_too_big_for_the_history_are_refused_cleanly(db):
    head = {"t": "epoch", "e": 0, "dev": DEV, "next": 1}
    g = play(new_game(["Ann", "Bob", "Cy"]), random.Random(1), 2)
    st = {"dev": DEV, "epoch": 0,
          "evs": [head, {"t": "hand", "g": 2 ** 64, "h": {}}] + game_events(g, 1)}
    p = sync_with(st, db)
    assert p.returncode == 0, p.stderr
    assert "record 2 (hand) has no usable game number" in p.stderr
    assert rows(db) == [(1, g.record())]
    for k, v in (("epoch", 2 ** 63), ("epoch", -1)):
        st2 = dict(st, dev="f00dfeed00000002", **{k: v})
        failed(sync_with(st2, db), "hello has epoch %d, out of range" % v)
    # an erase reply without the new epoch: said, not a traceback, and the history is intact
    st["erase_reply"] = {"ok": True, "erased": True, "last_seq": 1}
    failed(sync_with(st, db, "--erase"), "sent no valid new epoch")
    assert rows(db) == [(1, g.record())]


def test_a_deeply_nested_reply_is_garbage_not_a_crash(db):
    d = FakeDevice(lambda req, line: b"[" * 200000 + b"\n")
    try:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
               "did not answer hello")
    finally:
        d.close()


def test_an_sqlite_failure_during_sync_rolls_back_and_is_reported(db, monkeypatch):
    import io

    from knockbox import history as H
    from knockbox import sync as S
    evs, g = journal(80)
    d = FakeDevice(good_device(evs))
    calls = []

    def full_disk(self, *a):
        calls.append(1)
        if len(calls) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        return orig(self, *a)
    orig = H.History.add_events
    monkeypatch.setattr(H.History, "add_events", full_disk)
    conn = serialio.open_device(d.path, 1.0)
    try:
        with pytest.raises(UserError, match="disk is full: nothing was saved"):
            S.Sync(conn, H.History(db), io.StringIO()).run()
        conn.bye()
    finally:
        conn.close()
        d.close()
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)
    assert c.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
