"""The evening: the rules core's ledger (knockcore.evening: nets, games, wins, the fewest
payments, money in hundredths) on CPython and on the MicroPython unix port, and on the laptop the
evenings derived from the journal's {"t":"evening"} events: `knockbox history` shows each game's
evening, `knockbox settle --evening [N]` settles one, `stats --evening` counts one."""

import csv
import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit import evenings as E
from kit import mp
from knockbox import cli, history
from knockcore import evening
from knockcore.game import from_record
from kit.clirun import knockbox

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


def ledger_of(balances, names=NAMES):
    return {names[i]: [b, 1, 0] for i, b in enumerate(balances)}


def most_groups(bal):
    """The most disjoint groups that each sum to zero the non-zero balances split into
    (exhaustive: the first balance's group, every way, then the rest)."""
    if not bal:
        return 0
    first, rest = bal[0], bal[1:]
    best = 0
    for r in range(len(rest) + 1):
        for combo in itertools.combinations(range(len(rest)), r):
            if first + sum(rest[i] for i in combo) == 0:
                left = [rest[i] for i in range(len(rest)) if i not in combo]
                best = max(best, 1 + most_groups(left))
    return best


def check_settles(led, pays):
    bal = {n: led[n][0] for n in led}
    for payer, payee, points in pays:
        assert points > 0 and payer != payee and bal[payer] < 0 < bal[payee]
        bal[payer] += points
        bal[payee] -= points
    assert set(bal.values()) <= {0}


def test_fewest_payments_beat_the_biggest_debtor_first():
    # -6 = 3 + 3 and -4 = 4: two groups, 3 payments; the biggest debtor paying the biggest
    # creditor first (Ann's 6 to Eve's 4) would take 4
    led = {
        "Ann": [-6, 1, 0],
        "Bob": [-4, 1, 0],
        "Cy": [3, 1, 0],
        "Dee": [3, 1, 1],
        "Eve": [4, 1, 0],
    }
    assert evening.payments(led) == [["Bob", "Eve", 4], ["Ann", "Cy", 3], ["Ann", "Dee", 3]]
    assert led["Ann"] == [-6, 1, 0]  # the ledger is not touched


def test_ties_are_broken_by_name_whatever_the_order_players_came_in():
    bal = [5, 5, -5, -5]
    want = evening.payments(ledger_of(bal, ["A", "B", "C", "D"]))
    assert want == [["C", "A", 5], ["D", "B", 5]]
    for order in itertools.permutations(range(4)):
        led = {}
        for i in order:
            led["ABCD"[i]] = [bal[i], 1, 0]
        assert evening.payments(led) == want


def test_ledger_adds_finished_games_by_name():
    led = {}
    m3 = from_record(E.game(E.M3))
    m1 = from_record(E.game(E.M1, ["Cy", "Ann", "Dee"]))
    unfinished = from_record(dict(E.game(E.M3), hands=E.game(E.M3)["hands"][:2]))
    assert evening.add(led, m3.standings(hands=False))
    assert evening.add(led, m1.standings())
    assert not evening.add(led, unfinished.standings(hands=False)) and len(led) == 6
    # m3: A +727 (won), B -284, C -443; m1 as Cy, Ann, Dee: -196, -416, +612 (Dee won)
    assert evening.rows(led) == [
        ["A", 727, 1, 1],
        ["Dee", 612, 1, 1],
        ["Cy", -196, 1, 0],
        ["B", -284, 1, 0],
        ["Ann", -416, 1, 0],
        ["C", -443, 1, 0],
    ]
    pays = evening.payments(led)
    check_settles(led, pays)
    assert len(pays) == 6 - most_groups([727, 612, -196, -284, -416, -443])


def test_money_in_hundredths():
    assert [evening.money(v) for v in (0, 5, -5, 100, 12345, -12345, -100)] == [
        "0.00",
        "0.05",
        "-0.05",
        "1.00",
        "123.45",
        "-123.45",
        "-1.00",
    ]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-6, 6).filter(bool), min_size=1, max_size=7), st.randoms())
def test_payments_are_the_fewest_and_settle_everything(bal, rnd):
    bal = bal + [-sum(bal)] if sum(bal) else bal
    names = NAMES[: len(bal)]
    order = list(range(len(bal)))
    rnd.shuffle(order)
    led = {names[i]: [bal[i], 1, 0] for i in order}
    pays = evening.payments(led)
    check_settles(led, pays)
    nonzero = [b for b in bal if b]
    assert len(pays) == len(nonzero) - most_groups(nonzero)
    assert pays == sorted(pays, key=lambda p: (-p[2], p[0], p[1]))
    assert pays == evening.payments(ledger_of(bal, names))


def test_more_than_8_players_with_a_balance_settle_biggest_first():
    rnd = random.Random(3)
    for _ in range(50):
        bal = [rnd.randint(-300, 300) for _ in range(11)]
        bal.append(-sum(bal))
        led = ledger_of(bal)
        pays = evening.payments(led)
        check_settles(led, pays)
        assert len(pays) <= len([b for b in bal if b]) - 1


MP_SCRIPT = """
import json, sys
from knockcore import evening
for line in sys.stdin:
    led = json.loads(line)
    print(json.dumps([evening.rows(led), evening.payments(led),
                      [evening.money(r[1] * 7) for r in evening.rows(led)]]))
"""


def test_the_same_ledger_on_micropython():
    """The device runs the same module: the same rows, payments and money for the same ledgers
    (insertion order shuffled), under the Pico's heap size."""
    rnd = random.Random(11)
    cases = []
    for _ in range(120):
        n = rnd.randint(1, 10)
        bal = [rnd.choice([rnd.randint(-9, 9), rnd.randint(-900, 900)]) for _ in range(n - 1)]
        bal.append(-sum(bal))
        names = rnd.sample(NAMES, n)
        cases.append({names[i]: [bal[i], rnd.randint(1, 5), rnd.randint(0, 1)] for i in range(n)})
    p = mp.run(MP_SCRIPT, stdin="".join(json.dumps(c) + "\n" for c in cases))
    assert p.returncode == 0, p.stderr
    got = [json.loads(line) for line in p.stdout.splitlines()]
    want = [
        [evening.rows(c), evening.payments(c), [evening.money(r[1] * 7) for r in evening.rows(c)]]
        for c in cases
    ]
    assert got == want


# ---- the laptop: evenings from the journal's events


def as_players(name, players):
    return E.game(name, players)


# evening 1: three games, one per method (A, B, C); then a new evening: two games with Dee
PLAN = [
    E.M1,
    E.M2,
    E.M3,
    E.EVENING,
    as_players(E.M3, ["A", "Dee", "C"]),
    as_players(E.M1, ["Dee", "B", "A"]),
]


@pytest.fixture
def two_evenings(tmp_path):
    """A history of PLAN: two evenings, five games."""
    path = str(tmp_path / "h.sqlite3")
    s = E.sync_into(path, E.journal(PLAN))
    assert s.results["new"] == 5
    assert "no usable game number" not in s.err.getvalue()  # an evening is no game's record
    return path


def expected_ledger(recs):
    led = {}
    for rec in recs:
        evening.add(led, from_record(rec).standings(hands=False))
    return led


def test_history_shows_each_games_evening(capsys, two_evenings):
    code, out, err = knockbox("history", "--db", two_evenings, "--json")
    assert [r["evening"] for r in json.loads(out)] == [1, 1, 1, 2, 2]
    code, out, err = knockbox("history", "--db", two_evenings)
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["id", "synced", "device", "evening"]
    assert [ln.split()[4] for ln in lines[1:]] == ["1", "1", "1", "2", "2"]  # date, time
    with pytest.raises(SystemExit):
        cli.main(["history", "--help"])
    out = capsys.readouterr().out
    assert "Evenings are numbered 1, 2, ..." in " ".join(out.split())
    code, out, err = knockbox("show", "4", "--db", two_evenings, "--json")
    assert json.loads(out)["meta"]["evening"] == 2
    code, out, err = knockbox("show", "4", "--db", two_evenings)
    assert "evening 2; " in out.splitlines()[0]


def test_the_csv_export_has_each_games_evening(tmp_path, two_evenings):
    path = tmp_path / "games.csv"
    code, out, err = knockbox("export", "--csv", "-o", str(path), "--db", two_evenings)
    assert code == 0, err
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["evening"] for r in rows] == ["1", "1", "1", "2", "2"]


def test_settle_an_evening(capsys, two_evenings):
    for args, n, recs in (
        (["--evening", "1"], 1, PLAN[:3]),
        (["--evening"], 2, PLAN[4:]),
        (["--evening", "2"], 2, PLAN[4:]),
    ):
        code, out, err = knockbox(
            "settle", "--db", two_evenings, "--json", "--per-point", "0.1", *args
        )
        assert code == 0, err
        res = json.loads(out)
        want = expected_ledger([E.game(r) if isinstance(r, str) else r for r in recs])
        assert res["evening"] == n
        assert res["net"] == {n: want[n][0] for n in want}
        assert res["players"] == [
            {"player": n, "net": v, "games": g, "wins": w, "money": evening.money(v * 10)}
            for n, v, g, w in evening.rows(want)
        ]
        assert [p[:3] for p in res["payments"]] == evening.payments(want)
        assert [p[3] for p in res["payments"]] == [
            evening.money(p[2] * 10) for p in res["payments"]
        ]
    # evening 1 of the worked examples: A -196 +428 +727, B -416 -214 -284, C +612 -214 -443
    code, out, err = knockbox(
        "settle", "--db", two_evenings, "--evening", "1", "--per-point", "0.1"
    )
    assert out.splitlines()[0] == "evening 1: games 1, 2, 3"
    assert "B pays A 914 points = 91.40" in out and "C pays A 45 points = 4.50" in out
    table = {ln.split()[0]: ln.split()[1:] for ln in out.splitlines()[3:6]}
    assert table == {
        "A": ["3", "2", "+959", "95.90"],
        "C": ["3", "1", "-45", "-4.50"],
        "B": ["3", "0", "-914", "-91.40"],
    }


def test_settle_evening_mistakes(capsys, two_evenings, tmp_path):
    for args, msg in (
        (["--evening", "3"], "no evening 3: the history has evenings 1 to 2"),
        (["--evening", "x"], "'x' is not an evening number"),
        (["--evening", "0"], "not an evening number"),
        (["1", "--evening", "1"], "only one of them"),
    ):
        code, out, err = knockbox("settle", "--db", two_evenings, *args)
        assert code == 1 and err.startswith("knockbox: ") and msg in err, err
    empty = str(tmp_path / "empty.sqlite3")
    E.sync_into(empty, E.journal([E.EVENING]))
    code, out, err = knockbox("settle", "--db", empty, "--evening")
    assert code == 1 and "no games yet" in err


def test_evening_membership_follows_the_next_game_number(capsys, tmp_path, monkeypatch):
    """Games before the first evening event are the epoch's first evening; an evening with no
    games gets no number; another epoch or device has its own evenings; a game replaced on the
    device has none; an evening's games are those from its G up to the next evening's."""
    clock = iter(range(10, 60))  # each sync a minute later: the history's order is fixed
    monkeypatch.setattr(history, "now", lambda: "2025-01-31 21:%02d:00" % next(clock))
    path = str(tmp_path / "h.sqlite3")
    evs = E.journal([E.M1, E.EVENING, E.EVENING, E.M2, E.M3, E.EVENING])
    # the device numbered the evening's games from 5 (numbers may jump): put G there
    evs[[i for i, e in enumerate(evs) if e["t"] == "evening"][1]]["next"] = 2
    E.sync_into(path, evs)
    E.sync_into(path, E.journal([E.M3, E.EVENING, E.M1]), dev="fedcba9876543210")
    E.sync_into(path, E.journal([E.M2]), epoch=1)  # the device erased: a new epoch
    code, out, err = knockbox("history", "--db", path, "--json")
    rows = json.loads(out)
    assert [(r["device"][:2], r["epoch"], r["gid"], r["evening"]) for r in rows] == [
        ("01", 0, 1, 1),
        ("01", 0, 2, 2),
        ("01", 0, 3, 2),
        ("fe", 0, 1, 3),
        ("fe", 0, 2, 4),
        ("01", 1, 1, 5),
    ]
    code, out, err = knockbox("settle", "--db", path, "--json", "--evening", "2")
    assert json.loads(out)["games"] == [2, 3]
    code, out, err = knockbox("settle", "--db", path, "--json", "--evening")
    assert json.loads(out)["games"] == [6]


def test_stats_of_an_evening(capsys, two_evenings):
    code, out, err = knockbox("stats", "--db", two_evenings, "--json", "--evening", "2")
    got = {p["player"]: p for p in json.loads(out)}
    assert sorted(got) == ["A", "B", "C", "Dee"]
    assert got["Dee"]["games"] == 2 and got["B"]["games"] == 1
    want = expected_ledger(PLAN[4:])
    assert {n: p["net"] for n, p in got.items()} == {n: want[n][0] for n in want}
    code, out, err = knockbox("stats", "--db", two_evenings, "--json", "1", "2")
    assert {p["player"]: p["games"] for p in json.loads(out)} == {"A": 2, "B": 2, "C": 2}
