"""`knockbox sync` and what the history keeps of the device's records: a game the rules refuse
or whose record is malformed is kept as invalid, a journal repaired on the device is read again
without losing a synced game, numbers out of range are refused, and an interrupt or an SQLite
failure mid-sync leaves a history that is whole (the stand-in device: tests/kit/ptydevice.py)."""

import json
import random
import sqlite3

import pytest

from knockbox.link import serialio
from knockbox.usererror import UserError
from knockcore.game import Game
from kit.ptydevice import DEV, HELLO, FakeDevice, failed, good_device, journal, reply, run


def test_a_game_the_rules_refuse_is_kept_as_invalid(db):
    evs, g = journal(10)
    evs.append({"t": "hand", "g": 1, "h": {"knock": 0, "counts": [50, 1, 2]}})  # > limit
    with FakeDevice(good_device(evs)) as d:
        failed(run("sync", "--port", d.path, "--db", db), "failed the rules check", "record 13")
    c = sqlite3.connect(db)
    status, rec = c.execute("SELECT status, record FROM games").fetchone()
    assert status == "invalid" and json.loads(rec) == g.record()
    h = run("history", "--db", db)
    assert h.returncode == 0 and "invalid: record 13" in h.stdout


def test_journal_that_changed_under_the_history_is_read_again(db):
    evs, g = journal(30)
    with FakeDevice(good_device(evs)) as d:
        assert run("sync", "--port", d.path, "--db", db).returncode == 0
    evs2, g2 = journal(10)  # same device and epoch, a shorter journal (repaired on device)
    evs2.append({"t": "undo", "g": 1})
    with FakeDevice(good_device(evs2)) as d:
        p = run("sync", "--port", d.path, "--db", db)
    assert p.returncode == 0, p.stderr
    assert "no longer matches" in p.stderr
    assert (
        "device %s game 1: the device now has 9 hands, the history keeps its 30\n" % DEV in p.stderr
    )
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM events").fetchone() == (len(evs2),)
    # the events mirror the device; the game keeps the 30 hands that were synced
    assert json.loads(c.execute("SELECT record FROM games").fetchone()[0]) == g.record()


# ---- review fixes: a device whose journal, numbers or records are not what the history expects


def device(state):
    """A stand-in device whose journal, id and epoch tests change between syncs:
    state = {"dev", "epoch", "evs"} (seq = index + 1); erase answers state["erase_reply"]."""

    def answer(req, line):
        if req is None:
            return b'{"id":null,"error":"not JSON"}\n'
        evs = state["evs"]
        if req["op"] == "hello":
            return reply(
                req, **dict(HELLO, device=state["dev"], epoch=state["epoch"], last_seq=len(evs))
            )
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
    with FakeDevice(device(state)) as d:
        return run("sync", "--port", d.path, "--db", db, "--timeout", "1", *extra)


def game_events(g, gid):
    rec = g.record()
    hands = rec.pop("hands")
    rec.pop("format", None)
    return [{"t": "game", "g": gid, "rec": rec}] + [{"t": "hand", "g": gid, "h": h} for h in hands]


def new_game(players, dealer=0):
    return Game(3, players, {"dealer": dealer}, {"preset": "seed", "m3_target": 100000})


def play(g, rnd, n):
    from kit.gamegen import random_hand

    for _ in range(n):
        g.add(random_hand(g, rnd))
    return g


def rows(db):
    c = sqlite3.connect(db)
    try:
        return [
            (gid, json.loads(rec))
            for gid, rec in c.execute("SELECT gid, record FROM games ORDER BY id")
        ]
    finally:
        c.close()


def test_a_synced_game_is_never_replaced_by_another_one(db):
    rnd = random.Random(6)
    head = {"t": "epoch", "e": 0, "dev": DEV, "next": 1}
    g1, g2 = (
        play(new_game(["Ann", "Bob", "Cy"]), rnd, 3),
        play(new_game(["Ann", "Bob", "Cy"]), rnd, 2),
    )
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
    assert (
        "journal read again (%d records; the history held %d): 1 new game, 0 updated"
        % (len(st["evs"]), 1 + 4 + 3 + 2)
        in p.stdout
    ), p.stdout
    got = rows(db)
    assert got[0] == (1, g1.record())
    assert got[1][1] == g2.record() and got[1][0] < 0  # kept, off the device's key
    assert got[2] == (2, g3.record())
    h = run("history", "--db", db)
    assert h.returncode == 0 and h.stdout.count("replaced on the device") == 1, h.stdout
    j = json.loads(run("history", "--json", "--db", db).stdout)
    assert [(x["gid"], x["replaced"], x["hands"]) for x in j] == [
        (1, False, 3),
        (None, True, 1),
        (2, False, 4),
    ]
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
    from knockbox.link import sync as S
    from knockbox.history.device import DeviceMirror

    evs, g = journal(30)
    d = FakeDevice(good_device(evs))
    orig = DeviceMirror.add_events

    def add_then_ctrl_c(self, *a):
        orig(self, *a)
        raise KeyboardInterrupt  # lands between storing the page and noting its games

    monkeypatch.setattr(DeviceMirror, "add_events", add_then_ctrl_c)
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
    monkeypatch.setattr(DeviceMirror, "add_events", orig)
    with FakeDevice(good_device(evs)) as d:
        p = run("sync", "--port", d.path, "--db", db)
    assert p.returncode == 0 and "nothing new; 1 new game," in p.stdout, p.stdout + p.stderr
    assert rows(db) == [(1, g.record())]


@pytest.mark.parametrize(
    "rec",
    [
        {
            "method": 3,
            "players": ["A", "B", "C"],
            "start": {"dealer": 0},
            "rules": {"preset": "seed"},
            "hands": 5,
        },
        {"method": 3, "players": [1, 2, 3], "start": {"dealer": 0}, "rules": {"preset": "seed"}},
        {"method": [3], "players": "ABC", "start": 7, "rules": {"preset": "seed"}},
    ],
)
def test_a_malformed_game_record_is_kept_invalid_and_clean(db, rec):
    st = {
        "dev": DEV,
        "epoch": 0,
        "evs": [{"t": "epoch", "e": 0, "dev": DEV, "next": 1}, {"t": "game", "g": 1, "rec": rec}],
    }
    failed(sync_with(st, db), "failed the rules check", "record 2")
    c = sqlite3.connect(db)
    status, players, hands, method = c.execute(
        "SELECT status, players, hands, method FROM games"
    ).fetchone()
    assert status == "invalid" and hands == 0
    assert json.loads(players) == (rec["players"] if rec["players"] == ["A", "B", "C"] else [])
    assert method == (3 if rec["method"] == 3 else None)
    for args in (
        ["history"],
        ["history", "--json"],
        ["stats"],
        ["export", "--csv"],
        ["export", "--json"],
    ):
        p = run(*args, "--db", db)
        assert p.returncode == 0 and "Traceback" not in p.stderr, (args, p.stderr)
    p = run("show", "1", "--db", db)  # shows what it can, or says why not
    if p.returncode:
        failed(p, "game 1")


def test_numbers_too_big_for_the_history_are_refused_cleanly(db):
    head = {"t": "epoch", "e": 0, "dev": DEV, "next": 1}
    g = play(new_game(["Ann", "Bob", "Cy"]), random.Random(1), 2)
    st = {
        "dev": DEV,
        "epoch": 0,
        "evs": [head, {"t": "hand", "g": 2**64, "h": {}}] + game_events(g, 1),
    }
    p = sync_with(st, db)
    assert p.returncode == 0, p.stderr
    assert "record 2 (hand) has no usable game number" in p.stderr
    assert rows(db) == [(1, g.record())]
    for k, v in (("epoch", 2**63), ("epoch", -1)):
        st2 = dict(st, dev="f00dfeed00000002", **{k: v})
        failed(sync_with(st2, db), "hello has epoch %d, out of range" % v)
    # an erase reply without the new epoch: said, not a traceback, and the history is intact
    st["erase_reply"] = {"ok": True, "erased": True, "last_seq": 1}
    failed(sync_with(st, db, "--erase"), "sent no valid new epoch")
    assert rows(db) == [(1, g.record())]


def test_an_sqlite_failure_during_sync_rolls_back_and_is_reported(db, monkeypatch):
    import io

    from knockbox import history as H
    from knockbox.link import sync as S
    from knockbox.history.device import DeviceMirror

    evs, g = journal(80)
    d = FakeDevice(good_device(evs))
    calls = []

    def full_disk(self, *a):
        calls.append(1)
        if len(calls) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        return orig(self, *a)

    orig = DeviceMirror.add_events
    monkeypatch.setattr(DeviceMirror, "add_events", full_disk)
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


# ---- a device that comes back with a shorter journal (reflashed, damaged): same id and epoch


def record_events(rec, gid, hands=None):
    """Journal events of a game record (its first `hands` hands)."""
    start = {k: rec[k] for k in ("method", "players", "start", "rules") if k in rec}
    return [{"t": "game", "g": gid, "rec": start}] + [
        {"t": "hand", "g": gid, "h": h} for h in rec["hands"][:hands]
    ]


def test_a_shorter_journal_never_takes_a_synced_hand_away(db):
    from kit import evenings as E

    head = {"t": "epoch", "e": 0, "dev": DEV, "next": 1}
    done = E.game(E.M3, ["Ann", "Bob", "Cy"])  # 7 hands, over
    rnd = random.Random(8)
    on = play(new_game(["Dan", "Eve", "Fay"]), rnd, 3).record()
    st = {"dev": DEV, "epoch": 0, "evs": [head] + record_events(done, 1) + record_events(on, 2)}
    assert sync_with(st, db).returncode == 0
    before = run("history", "--json", "--db", db).stdout
    # reflashed: the same device at the same epoch has the first hand of game 1 and nothing more
    st["evs"] = [head] + record_events(done, 1, hands=1)
    p = sync_with(st, db)
    assert p.returncode == 0, p.stderr
    assert (
        "device %s game 1: the device now has 1 hand, the history keeps its 7\n" % DEV in p.stderr
    )
    assert (
        "device %s game 2: the device no longer has it, the history keeps its 3 hands\n" % DEV
        in p.stderr
    )
    assert run("history", "--json", "--db", db).stdout == before
    assert rows(db) == [(1, done), (2, on)]
    # nothing new: nothing said again
    p = sync_with(st, db)
    assert p.returncode == 0 and "game 1" not in p.stderr and "nothing new" in p.stdout
    # the device has a hand more of it again: still less than the history keeps
    st["evs"].append({"t": "hand", "g": 1, "h": done["hands"][1]})
    p = sync_with(st, db)
    assert "game 1: the device now has 2 hands, the history keeps its 7" in p.stderr, p.stderr
    assert rows(db) == [(1, done), (2, on)]
    # the device gives number 2 to a new game: the history's game 2 is kept apart, nothing lost
    new = play(new_game(["Gus", "Hal", "Ivy"]), rnd, 2).record()
    st["evs"] += record_events(new, 2)
    assert sync_with(st, db).returncode == 0
    got = rows(db)
    assert [r for _, r in got] == [done, on, new] and got[1][0] < 0 and got[2][0] == 2
    # a hand played on the device's copy that the history's game did not have: the game went
    # on another way after their two common hands; the device's counts (its hands once), the
    # history's is kept aside
    st["evs"].append({"t": "hand", "g": 1, "h": done["hands"][3]})
    p = sync_with(st, db)
    assert (
        "device %s game 1: the device's 3 hands went another way than the 7 hands the "
        "history held: the device's game counts; the history keeps its 7 hands aside, not "
        "counted\n" % DEV
    ) in p.stderr, p.stderr
    got = rows(db)
    assert got[0] == (1, dict(done, hands=[done["hands"][i] for i in (0, 1, 3)]))
    assert [r for _, r in got[1:]] == [on, new]


def test_the_device_game_going_on_past_the_history_is_stored(db):
    head = {"t": "epoch", "e": 0, "dev": DEV, "next": 1}
    rnd = random.Random(9)
    g = play(new_game(["Ann", "Bob", "Cy"]), rnd, 4)
    full = g.record()
    st = {"dev": DEV, "epoch": 0, "evs": [head] + record_events(full, 1)}
    assert sync_with(st, db).returncode == 0
    st["evs"] = [head] + record_events(full, 1, hands=2)  # lost two hands
    assert "now has 2 hands, the history keeps its 4" in sync_with(st, db).stderr
    # the lost hands come back (its journal repaired): the game goes on as the history has it
    play(g, rnd, 2)
    st["evs"] = [head] + record_events(g.record(), 1)
    p = sync_with(st, db)
    assert p.returncode == 0 and "keeps" not in p.stderr, p.stderr
    assert rows(db) == [(1, g.record())]
    # the device's game 1 is now another game with the same players and dealer (the journal
    # lost it, and the number was given again): its first hand differs, both are kept
    other = play(new_game(["Ann", "Bob", "Cy"]), random.Random(10), 8).record()
    assert other["hands"][0] != full["hands"][0]
    st["evs"] = [head] + record_events(other, 1, hands=1)
    p = sync_with(st, db)
    assert (
        "game 1: the device's game (1 hand) is another game than the history's (6 hands; "
        "another first hand): both are kept" in p.stderr
    ), p.stderr
    st["evs"] = [head] + record_events(other, 1)
    p = sync_with(st, db)
    assert p.returncode == 0 and "kept" not in p.stderr
    assert [r for _, r in rows(db)] == [g.record(), other]


def test_progress_on_a_terminal_only(db, tmp_path):
    from test_import_input import on_a_terminal

    evs, _ = journal(300)  # pages of 50: seven pages
    with FakeDevice(good_device(evs)) as d:
        p, err = on_a_terminal(["sync", "--port", d.path, "--db", db, "--timeout", "2"])
        assert p.returncode == 0, err
        assert "\rsync: records 50 of 302" in err and "\rsync: records 302 of 302" in err, err
        assert err.endswith(" \r"), err  # cleared: what follows starts a line of its own
        q = run("sync", "--port", d.path, "--db", str(tmp_path / "b.sqlite3"), "--timeout", "2")
        assert q.returncode == 0 and q.stderr.startswith("new device ")  # a pipe: no progress
        assert q.stderr.count("\n") == 1 and "\r" not in q.stderr, q.stderr
