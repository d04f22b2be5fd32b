"""Bounds on what comes from outside (knockbox.bounds) and no traceback for any of it, through
the commands: a device whose journal never ends, a device game of too many hands or records, a
name or a device id longer than the device makes, a record of 250,000 void hands, 33,000 ids
that are not in the history, a number of 5,000 digits, a file that starts with a byte order
mark, a game numbered 2**63-1, and import fed any JSON value at all (hypothesis)."""

import json
import os
import sqlite3
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit import evenings as E
from kit.clirun import knockbox
from kit.ptydevice import HELLO, FakeDevice, good_device, journal, reply
from knockbox import bounds, fromevents
from knockbox.link import sync

NAMES = ["Ann", "Bob", "Cy"]


def one_line(code, err):
    return code == 1 and err.startswith("knockbox: ") and err.count("\n") == 1


# ---- the device


def endless(hello_last=10**12, served=5000):
    """A device whose journal never ends: a new game every 50 records, for ever (its hello
    says hello_last; every page says there is more), though it sends no record past `served`
    (a sync without a bound would not end)."""
    head = {"t": "epoch", "e": 0, "dev": HELLO["device"], "next": 1}

    def event(seq):
        if seq == 1:
            return head
        g = (seq - 2) // 50 + 1
        if (seq - 2) % 50 == 0:
            return {"t": "game", "g": g, "rec": E.game(E.M3, NAMES) | {"hands": []}}
        return {"t": "hand", "g": g, "h": {"void": True}}

    def answer(req, line):
        if req["op"] == "hello":
            return reply(req, **dict(HELLO, last_seq=hello_last))
        if req["op"] == "events":
            a = req["after"]
            page = [[s, event(s)] for s in range(a + 1, min(a + 1 + req["limit"], served))]
            return reply(req, ok=True, epoch=0, last_seq=a + 1000, ev=page)
        return reply(req, error="unknown op")

    return answer


def records(db):
    return sqlite3.connect(db).execute("SELECT COUNT(*) FROM events").fetchone()[0]


def test_a_journal_that_never_ends_is_read_a_bounded_part_at_a_time(db, monkeypatch):
    monkeypatch.setattr(sync, "SYNC_MAX", 1000)
    with FakeDevice(endless()) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db)
        assert code == 0, err
        assert "the device has more records than one sync reads (1000 records)" in err
        assert 1000 <= records(db) < 1000 + 200
        code, out, err = knockbox("sync", "--port", d.path, "--db", db, "--erase")
        assert code == 1 and err.endswith("knockbox: not erasing: the sync did not finish\n")
        assert 2000 <= records(db) < 2000 + 400
    # a journal that grows while it is read: read up to what the hello said
    with FakeDevice(endless(hello_last=450)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db + "2")
        assert code == 0 and "more records" not in err, err
        assert records(db + "2") == 450


def test_a_device_game_beyond_the_bounds_is_kept_as_refused(db, monkeypatch):
    monkeypatch.setattr(fromevents, "HANDS_MAX", 20)
    monkeypatch.setattr(fromevents, "GAME_EVENTS_MAX", 40)
    evs, g = journal(25)
    long_name = "N" * 5000
    game2 = {"t": "game", "g": 2, "rec": dict(E.game(E.M1, ["Ann", long_name, "Cy"]), hands=[])}
    game3 = {"t": "game", "g": 3, "rec": dict(E.game(E.M3, NAMES), hands=[])}
    void = {"t": "hand", "g": 3, "h": {"void": True}}
    evs += [game2, game3] + [void, {"t": "undo", "g": 3}] * 25
    with FakeDevice(good_device(evs)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db)
    assert code == 1 and len(err) < 1000, err
    assert "(device game 1) failed the rules check: record 23: a game has at most 20 hands" in err
    assert "device game 2" not in err  # a long name is cut as the device allows, not refused
    assert "(device game 3) failed the rules check: record" in err
    assert "a game has at most 40 records" in err
    c = sqlite3.connect(db)
    rows = c.execute("SELECT gid, status, hands, players FROM games ORDER BY gid").fetchall()
    assert [r[:3] for r in rows] == [(1, "invalid", 20), (2, "playing", 0), (3, "invalid", 1)]
    assert json.loads(rows[1][3]) == ["Ann", "N" * 24, "Cy"]
    assert c.execute("SELECT COUNT(*) FROM events").fetchone()[0] == len(evs)  # all kept


@pytest.mark.parametrize(
    "field, value, says",
    [
        ("device", "d" * 900_000, "a device id that is not a short text (900000 characters"),
        ("device", "", "a device id that is not a short text"),
        ("board", "B" * 5000, "a 'board' that is not a short text"),
        ("fw", ["0.3"], "a 'fw' that is not a short text"),
    ],
)
def test_a_hello_with_a_long_or_strange_id_is_refused(db, field, value, says):
    with FakeDevice(good_device(journal(3)[0], hello=dict(HELLO, **{field: value}))) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db)
    assert one_line(code, err) and says in err and len(err) < 300, err
    assert not os.path.exists(db)


# ---- import


def write(tmp_path, value, name="in.json"):
    f = tmp_path / name
    f.write_text(value if isinstance(value, str) else json.dumps(value))
    return f


def test_a_record_of_250000_void_hands_is_refused_in_bounded_memory(tmp_path, db):
    rec = dict(E.game(E.M3, NAMES), hands=[{"void": True}] * 250_000)
    f = write(tmp_path, [rec])
    assert os.path.getsize(f) < 4 << 20  # (under the limit of a record, before)
    tracemalloc.start()
    try:
        code, out, err = knockbox("import", f, "--db", db)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert one_line(code, err), err
    assert "record 1 is over 1 MB" in err or "250000 hands: a game has at most 1000" in err
    assert peak < 40 << 20, "import took %d MB" % (peak >> 20)
    rec["hands"] = [{"void": True}] * 1001
    code, out, err = knockbox("import", write(tmp_path, [rec]), "--db", db)
    assert one_line(code, err) and "1001 hands: a game has at most 1000" in err, err
    assert not os.path.exists(db)


@pytest.mark.parametrize(
    "meta, says",
    [
        ({"device": "d" * 900_000, "epoch": 0, "gid": 1}, "must be a device id (at most 64"),
        ({"evening": "e" * 500}, "is not a label (a name or a number of at most 128"),
        ({"status": "invalid", "error": "x" * 5000}, "meta.error (at most 1000 characters)"),
    ],
)
def test_import_bounds_what_meta_holds(tmp_path, db, meta, says):
    code, out, err = knockbox("import", write(tmp_path, [E.game(E.M1, NAMES) | {"meta": meta}]))
    assert one_line(code, err) and says in err and len(err) < 400, err


def test_a_number_of_5000_digits_is_one_line(tmp_path, db):
    for text in ('[{"method": 1%s}]' % ("0" * 5000), "1" * 5000):
        code, out, err = knockbox("import", write(tmp_path, text), "--db", db)
        assert one_line(code, err) and "a number of more than 4300 digits" in err, err
    code, out, err = knockbox("replay", write(tmp_path, "[" + "7" * 5000 + "]"))
    assert one_line(code, err), err


def test_a_file_with_a_byte_order_mark_imports(tmp_path, db):
    f = tmp_path / "bom.json"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps([E.game(E.M1, NAMES)]).encode())
    code, out, err = knockbox("import", f, "--db", db)
    assert (code, out) == (0, "1 game imported\n"), err
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(E.game(E.M3, NAMES)).encode())  # one record
    assert knockbox("import", f, "--db", db)[:2] == (0, "1 game imported\n")


def test_a_game_numbered_2_63_minus_1_breaks_no_later_import(tmp_path, db):
    top = E.game(E.M1, NAMES) | {"meta": {"device": "import", "epoch": 0, "gid": 2**63 - 1}}
    assert knockbox("import", write(tmp_path, [top]), "--db", db)[0] == 0
    for day in ("2020-01-01", "2020-01-02"):
        typed = E.game(E.M3, NAMES) | {"meta": {"synced": day}}
        code, out, err = knockbox("import", write(tmp_path, [typed]), "--db", db)
        assert (code, out) == (0, "1 game imported\n"), err
    gids = sqlite3.connect(db).execute("SELECT gid FROM games ORDER BY gid").fetchall()
    assert gids == [(1,), (2,), (2**63 - 1,)]


def test_33000_ids_that_are_not_in_the_history_are_one_short_line(tmp_path, db):
    E.sync_into(db, E.journal([E.game(E.M1, NAMES)]))
    ids = [str(i) for i in range(2, 33_002)]
    for command in (["export", "--csv"], ["delete", "--yes"], ["stats"]):
        code, out, err = knockbox(*command, "--db", db, *ids)
        assert one_line(code, err) and len(err) < 300, err
        assert err.startswith("knockbox: no game 2, 3, 4, ") and "and 32,990 more" in err, err


# ---- import, fed any JSON value

BIG = "(a number of 5,000 digits)"  # (written into the file as one: json.dumps cannot)
json_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(["Ann", "Bob", "Cy", "", " ", "2020-01-01", "import", "invalid", "x" * 30])
    | st.just(BIG),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=25,
)
keys = st.sampled_from(["format", "method", "players", "start", "rules", "hands", "meta", "x"])
record_like = st.dictionaries(keys, json_value, max_size=7) | st.builds(
    lambda base, meta: dict(base, meta=meta),
    st.sampled_from([E.game(E.M1, NAMES), E.game(E.M2, NAMES), E.game(E.M3, NAMES)]),
    st.dictionaries(
        st.sampled_from(["synced", "updated", "evening", "device", "epoch", "gid", "status"])
        | st.sampled_from(["error", "replaced"]),
        json_value | st.integers(min_value=-(2**70), max_value=2**70),
        max_size=6,
    ),
)


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=json_value | st.lists(record_like, max_size=3) | record_like)
def test_import_of_any_json_value_is_a_result_or_one_line(tmp_path, value):
    db = str(tmp_path / "fuzz.sqlite3")
    f = tmp_path / "any.json"
    f.write_text(json.dumps(value).replace(json.dumps(BIG), "9" * 5000))
    code, out, err = knockbox("import", f, "--db", db)
    assert code in (0, 1), err
    if code == 1:
        assert one_line(code, err) and len(err) < 2000, err
    else:
        assert out.endswith("imported\n") or "imported;" in out, out
    assert "Traceback" not in err


def test_the_bounds_are_far_above_what_a_group_makes():
    assert bounds.HANDS_MAX >= 1000 and bounds.SYNC_MAX >= 100_000
    assert bounds.listed(map(str, range(3))) == "0, 1, 2"
    assert bounds.listed(map(str, range(12))) == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more"
