"""The history commands over a history filled by a sync (in-process, from a stand-in link that
serves a journal of the worked examples of tests/vectors/games.json): history, show, stats,
export, settle; and where the history lives. Expected numbers come from the vectors' "expect"."""

import csv
import io
import json
import sqlite3
from decimal import Decimal

import pytest

from knockbox import cli, history
from knockbox.link import sync
from knockcore.game import from_record

from kit.evenings import DEV, VECTORS, Link, journal  # noqa: E402 (the stand-in device, shared)
from kit.clirun import knockbox

NAMES = [
    "m1 worked example (RULES 5)",
    "m2 worked example (RULES 5)",
    "m3 worked example (RULES 5)",
    "m1 ends on an undercut, custom bonus",
    "m3 double ties",
    "cyrillic names",
]


@pytest.fixture
def worked_examples(tmp_path):
    """A history of the vectors' games NAMES, synced from the stand-in device."""
    path = str(tmp_path / "h.sqlite3")
    s = sync.Sync(Link(journal(NAMES)), history.History(path), io.StringIO()).run()
    assert s.results["new"] == len(NAMES)
    return path


def test_where_the_history_lives(monkeypatch, tmp_path):
    monkeypatch.delenv("KNOCKBOX_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert history.default_path() == str(tmp_path / "xdg" / "knockbox" / "history.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert history.default_path() == str(
        tmp_path / "home" / ".local" / "share" / "knockbox" / "history.sqlite3"
    )
    monkeypatch.setenv("KNOCKBOX_HOME", str(tmp_path / "kb"))
    assert history.default_path() == str(tmp_path / "kb" / "history.sqlite3")


def test_not_a_history_file(capsys, tmp_path):
    bad = tmp_path / "x.sqlite3"
    bad.write_bytes(b"this is no database" * 100)
    code, out, err = knockbox("history", "--db", str(bad))
    assert code == 1 and err.startswith("knockbox: ") and "not a Knockbox history" in err
    code, out, err = knockbox("stats", "--db", str(tmp_path / "none.sqlite3"))
    assert code == 1 and "no history yet" in err


def test_history_lists_every_game(capsys, worked_examples):
    code, out, err = knockbox("history", "--db", worked_examples)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1 + len(NAMES)
    assert "A, B, C" in lines[1] and lines[1].split()[-1] == "over" and " C " in lines[1]
    assert "Аня, Борис, Ёжик" in lines[6] and lines[6].split()[-1] == "playing"
    code, out, err = knockbox("history", "--db", worked_examples, "--json")
    rows = json.loads(out)
    assert [r["gid"] for r in rows] == list(range(1, 7))
    for r, name in zip(rows, NAMES):
        v = VECTORS[name]
        assert r["hands"] == len(v["game"]["hands"]) and r["method"] == v["game"]["method"]
        assert r["device"] == DEV and r["epoch"] == 0
        want = v["expect"].get("winners")
        if want is not None:
            assert r["winners"] == [v["game"]["players"][s] for s in want]


def test_show(capsys, worked_examples):
    code, out, err = knockbox("show", "1", "--db", worked_examples, "--json")
    st = json.loads(out)
    want = VECTORS[NAMES[0]]["expect"]
    for k in ("totals", "final", "net", "payments", "hands", "winners"):
        assert st[k] == want[k]
    assert st["meta"]["gid"] == 1 and st["meta"]["device"] == DEV
    code, out, err = knockbox("show", "1", "--db", worked_examples)
    assert code == 0
    assert "winner: C" in out
    for payer, payee, amount in want["payments"]:
        assert "%s pays %s %d" % ("ABC"[payer], "ABC"[payee], amount) in out
    net_line = [ln for ln in out.splitlines() if ln.startswith("net")][0]
    assert net_line.split()[1:] == [str(v) for v in want["net"]]
    assert len([ln for ln in out.splitlines() if ln.strip()[:1].isdigit()]) == 5
    code, out, err = knockbox("show", "5", "--db", worked_examples)
    assert "next: " in out and "deals" in out
    for bad, msg in (("x", "not a game id"), ("0", "not a game id"), ("99", "no game 99")):
        code, out, err = knockbox("show", bad, "--db", worked_examples)
        assert code == 1 and err.startswith("knockbox: ") and msg in err


def expected_stats():
    """Per player, from the vectors' expected per-hand results and nets."""
    want = {}
    for name in NAMES:
        v = VECTORS[name]
        g, e = v["game"], v["expect"]
        per_hand = e.get("hands")
        if per_hand is None:  # no expected hands: take the core's
            per_hand = from_record(g).standings()["hands"]
        # who was dealt in for each hand: the core's "next" active seats before it is added
        game = from_record({k: g[k] for k in g if k != "hands"})
        active = []
        for h in g["hands"]:
            active.append(game.standings(hands=False)["next"]["active"])
            game.add(h)
        for seat, p in enumerate(g["players"]):
            w = want.setdefault(
                p,
                {
                    "games": 0,
                    "wins": 0,
                    "hands": 0,
                    "hands_won": 0,
                    "gins": 0,
                    "undercuts": 0,
                    "points": 0,
                    "net": 0,
                },
            )
            w["games"] += 1
            w["wins"] += seat in (e.get("winners") or [])
            w["net"] += (e.get("net") or [0, 0, 0])[seat]
            for x, h, act in zip(per_hand, g["hands"], active):
                w["hands_won"] += seat in x["winners"]  # partnership credit in method 2
                if seat not in act:  # sat this hand out
                    continue
                w["hands"] += 1
                w["points"] += x["points"][seat]
                w["gins"] += h.get("gin") == seat
                w["undercuts"] += (
                    x["kind"] == "undercut" and seat in x["winners"] and h.get("knock") != seat
                )
    return want


def test_stats(capsys, worked_examples):
    code, out, err = knockbox("stats", "--db", worked_examples, "--json")
    assert code == 0
    got = {p["player"]: p for p in json.loads(out)}
    want = expected_stats()
    assert sorted(got) == sorted(want)
    for name, w in want.items():
        g = got[name]
        for k in ("games", "wins", "hands", "hands_won", "gins", "undercuts", "net"):
            assert g[k] == w[k], (name, k)
        assert g["avg_points"] == round(w["points"] / w["hands"], 2)
        if w["net"] or g["net_by_day"]:
            assert g["net_by_day"][-1][1] == w["net"]
    assert sum(p["net"] for p in got.values()) == 0
    # the examples have gins and undercuts, so those counts are really checked
    assert sum(p["gins"] for p in got.values()) > 0
    assert sum(p["undercuts"] for p in got.values()) > 0
    code, out, err = knockbox("stats", "--db", worked_examples)
    assert "net over time" in out and out.splitlines()[0].split()[:3] == ["player", "games", "wins"]
    code, out, err = knockbox("stats", "--db", worked_examples, "--since", "31/12/2020")
    assert code == 1 and "not a date" in err


def test_export(capsys, worked_examples, tmp_path):
    code, out, err = knockbox("export", "--json", "--db", worked_examples)
    recs = json.loads(out)
    for rec, name in zip(recs, NAMES):
        meta = rec.pop("meta")
        assert rec == from_record(VECTORS[name]["game"]).record()
        # the export is what `knockbox replay` reads
        assert from_record(dict(rec, meta=meta)).standings() == from_record(rec).standings()
    path = tmp_path / "games.csv"
    code, out, err = knockbox("export", "--csv", "-o", str(path), "--db", worked_examples, "1", "3")
    assert code == 0 and "2 games written" in err
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["gid"] for r in rows] == ["1", "3"]
    assert [int(rows[0]["net%d" % s]) for s in (1, 2, 3)] == VECTORS[NAMES[0]]["expect"]["net"]
    assert rows[1]["winners"] == "A" and rows[1]["status"] == "over"
    with pytest.raises(SystemExit) as e:  # argparse: one of --csv/--json is required
        cli.main(["export", "--db", worked_examples])
    assert e.value.code == 2 and "--csv --json is required" in capsys.readouterr().err


def test_settle_an_evening(capsys, worked_examples):
    code, out, err = knockbox("settle", "--db", worked_examples, "--json", "--per-point", "0.05")
    assert code == 0
    res = json.loads(out)
    finished = [i + 1 for i, n in enumerate(NAMES) if VECTORS[n]["expect"].get("over")]
    assert res["games"] == finished
    assert [s[0] for s in res["skipped"]] == [5, 6]
    want = {}
    for i in finished:
        v = VECTORS[NAMES[i - 1]]
        for seat, p in enumerate(v["game"]["players"]):
            want[p] = want.get(p, 0) + v["expect"]["net"][seat]
    assert res["net"] == want
    # the payments settle every balance, each one positive
    bal = dict(want)
    for payer, payee, points, money in res["payments"]:
        assert points > 0 and Decimal(money) == Decimal(points) * Decimal("0.05")
        bal[payer] += points
        bal[payee] -= points
    assert set(bal.values()) == {0}
    assert len(res["payments"]) <= len(want) - 1
    code, out, err = knockbox("settle", "--db", worked_examples, "--per-point", "0.05")
    assert "left out: game 5 (playing)" in out and " pays " in out and " = " in out


def test_settle_picks_games(capsys, worked_examples):
    c = sqlite3.connect(worked_examples)
    c.execute("UPDATE games SET synced = '2024-03-01 21:00:00' WHERE gid IN (1, 2)")
    c.commit()
    code, out, err = knockbox("settle", "--db", worked_examples, "--json")
    assert json.loads(out)["games"] == [1, 2, 3, 4]  # one evening on the device
    code, out, err = knockbox("settle", "--db", worked_examples, "--json", "--since", "2024-01-01")
    assert json.loads(out)["games"] == [1, 2, 3, 4]
    code, out, err = knockbox("settle", "--db", worked_examples, "--json", "2")
    res = json.loads(out)
    assert res["games"] == [2] and res["net"] == dict(
        zip("ABC", VECTORS[NAMES[1]]["expect"]["net"])
    )
    for args, msg in (
        (["5"], "no finished games"),
        (["--per-point", "abc"], "not an amount"),
        (["1", "--since", "2024-01-01"], "only one of them"),
        (["--evening", "--since", "2024-01-01"], "only one of them"),
        (["1", "--evening", "1"], "only one of them"),
    ):
        code, out, err = knockbox("settle", "--db", worked_examples, *args)
        assert code == 1 and err.startswith("knockbox: ") and msg in err


def test_sync_of_a_stand_in_twice_and_after_an_erase(worked_examples):
    h = history.History(worked_examples)
    before = h.db.execute("SELECT * FROM games").fetchall()
    s = sync.Sync(Link(journal(NAMES)), h, io.StringIO()).run()
    assert s.new_events == 0 and "nothing new" in s.summary()
    assert h.db.execute("SELECT * FROM games").fetchall() == before
    err = io.StringIO()
    s = sync.Sync(Link(journal(NAMES[:1]), epoch=1), h, err).run()
    assert "was erased" in err.getvalue()
    assert s.results["new"] == 1
    assert h.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == len(NAMES) + 1


def test_another_device_is_another_source(worked_examples):
    h = history.History(worked_examples)
    err = io.StringIO()
    s = sync.Sync(Link(journal(NAMES[:2]), dev="fedcba9876543210"), h, err).run()
    assert "new device fedcba9876543210" in err.getvalue()
    assert s.results["new"] == 2
    got = h.db.execute("SELECT device_id, gid FROM games ORDER BY id").fetchall()
    assert got == [(DEV, g) for g in range(1, 7)] + [
        ("fedcba9876543210", 1),
        ("fedcba9876543210", 2),
    ]


@pytest.mark.parametrize("rate", ["0.01", "0.05", "1.1", "1000", "0.050"])
def test_settle_money_adds_up_and_matches_the_payments(capsys, worked_examples, rate):
    code, out, err = knockbox("settle", "--db", worked_examples, "--json", "--per-point", rate)
    assert code == 0, err
    res = json.loads(out)
    cent = Decimal("0.01")
    paid = {n: Decimal(0) for n in res["net"]}
    for payer, payee, points, money in res["payments"]:
        assert Decimal(money) == points * Decimal(rate)  # exact: whole hundredths
        paid[payer] -= Decimal(money)
        paid[payee] += Decimal(money)
    assert {n: Decimal(v) for n, v in res["money"].items()} == paid
    assert sum(Decimal(v) for v in res["money"].values()) == 0
    # each player's money is exactly their points times the rate, to the cent
    for n, v in res["money"].items():
        assert Decimal(v) == res["net"][n] * Decimal(rate) and Decimal(v) == Decimal(v).quantize(
            cent
        )
    assert res["stake"] == int(Decimal(rate) * 100)


@pytest.mark.parametrize("rate", ["1e30", "1e999999999", "1000.01", "1001"])
def test_settle_refuses_absurd_rates(capsys, worked_examples, rate):
    code, out, err = knockbox("settle", "--db", worked_examples, "--per-point", rate)
    assert code == 1 and err.startswith("knockbox: --per-point: ") and "per point" in err


@pytest.mark.parametrize("rate", ["0.005", "0.0013", "1e-9"])
def test_settle_money_is_in_whole_hundredths(capsys, worked_examples, rate):
    code, out, err = knockbox("settle", "--db", worked_examples, "--per-point", rate)
    assert code == 1 and "not a whole number of hundredths" in err


@pytest.mark.parametrize("cmd", [["show"], ["export", "--csv"], ["settle"]])
def test_game_ids_too_big_for_the_history(capsys, worked_examples, cmd):
    for big in ("99999999999999999999", str(2**63)):
        code, out, err = knockbox(*cmd, big, "--db", worked_examples)
        assert code == 1 and err.startswith("knockbox: ") and "not a game id" in err, err
    code, out, err = knockbox("show", str(2**63 - 1), "--db", worked_examples)
    assert code == 1 and "no game %d" % (2**63 - 1) in err


def test_stats_leave_out_hands_sat_out(capsys, tmp_path):
    m2 = {
        "method": 2,
        "players": ["Box", "Cap", "Par"],
        "start": {"box": 0, "captain": 1},
        "rules": {"preset": "seed"},
    }
    m1 = {
        "method": 1,
        "players": ["Idle", "Kay", "Lou"],
        "start": {"idle": 0, "dealer": 1},
        "rules": {"preset": "seed"},
    }
    evs = [
        {"t": "epoch", "e": 0, "dev": DEV, "next": 1},
        {"t": "game", "g": 1, "rec": m2},
        {"t": "hand", "g": 1, "h": {"knock": 0, "counts": [5, 3, None]}},  # Cap undercuts
        {"t": "game", "g": 2, "rec": m1},
        {"t": "hand", "g": 2, "h": {"knock": 1, "counts": [None, 5, 30]}},
        {"t": "hand", "g": 2, "h": {"void": True}},
    ]
    path = str(tmp_path / "h.sqlite3")
    sync.Sync(Link(evs), history.History(path), io.StringIO()).run()
    code, out, err = knockbox("stats", "--db", path, "--json")
    got = {p["player"]: p for p in json.loads(out)}
    st = from_record(dict(m2, hands=[evs[2]["h"]])).standings()["hands"][0]
    assert st["kind"] == "undercut" and st["winners"] == [1, 2]
    # the sitting-out partner shares the hand won, not the hand played, points or undercut
    assert [got["Par"][k] for k in ("hands", "hands_won", "undercuts", "points")] == [0, 1, 0, 0]
    assert [got["Cap"][k] for k in ("hands", "hands_won", "undercuts")] == [1, 1, 1]
    assert got["Cap"]["avg_points"] == st["points"][1]
    # method 1: the idle player played neither hand (the void one included)
    g = from_record(dict(m1, hands=[evs[4]["h"], evs[5]["h"]]))
    idle_in_void = 0 in g.active_at(1)
    assert got["Idle"]["hands"] == int(idle_in_void) and got["Kay"]["hands"] == 2
