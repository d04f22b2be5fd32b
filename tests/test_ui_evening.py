"""The Evening screen and "New evening?" (knockfw.ui_evening) on CPython, over a stand-in of the
device's store (tests/kit/fake_store.py: it keeps only the newest games in RAM as the store does):
the numbers it shows are `knockbox settle --evening --json`'s for the same journal, the evening's
older games are replayed from the journal, the game on the table is apart, the stake turns points
into money, and the buttons go where the hints say. The same screen under the MicroPython unix
port and on the emulated Pico: tests/test_evening_device.py, tests/emu/test_emu_evening.py."""

import io
import json
import sys

import pytest

from kit import evenings as E
from kit.fake_store import FakeStore
from knockbox import cli
from knockcore import evening as ledger
from test_ui import SETTINGS, Table, draw

# evening 1: one game; evening 2 (the one showing): a game of each method among four players,
# then a game on the table
PLAN = [
    E.game(E.M1, ["Ann", "Bob", "Cy"]),
    E.EVENING,
    E.game(E.M1, ["Ann", "Bob", "Cy"]),
    E.game(E.M3, ["Bob", "Cy", "Dee"]),
    E.game(E.M2, ["Dee", "Ann", "Bob"]),
    E.game(E.UNFINISHED, ["Ann", "Cy", "Dee"]),
]


def knockbox(*args):
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        assert cli.main(list(args)) == 0
    finally:
        sys.stdout = old
    return out.getvalue()


@pytest.fixture(scope="module")
def settled(tmp_path_factory):
    """`knockbox settle --evening --json` (the latest evening), after a sync of the journal."""
    path = str(tmp_path_factory.mktemp("evening") / "h.sqlite3")
    E.sync_into(path, E.journal(PLAN))
    plain = json.loads(knockbox("settle", "--db", path, "--evening", "--json"))
    money = json.loads(
        knockbox("settle", "--db", path, "--evening", "--json", "--per-point", "0.1")
    )
    return plain, money


def opened(store, settings=None, over=None):
    """A UI with the store, its Evening screen opened from the menu."""
    t = Table(over or store.game(store.current()), settings)
    t.ui.store = store
    t.press("up")
    while t.act.items[t.act.sel] != "evening":
        t.press("down")
    t.press("a")
    assert t.mode == "evening"
    return t


def test_the_numbers_are_settle_evenings(settled):
    plain, _ = settled
    assert plain["games"] == [2, 3, 4] and plain["skipped"] == [[5, "playing"]]
    store = FakeStore(E.journal(PLAN))
    assert store.game(2) is None and store.game(3) is None  # on flash only: replayed
    t = opened(store)
    a = t.act
    assert a.games == 3
    assert a.rows == [[p["player"], p["net"], p["games"], p["wins"]] for p in plain["players"]]
    assert a.pays == plain["payments"] and len(a.pays) >= 2
    g5 = store.game(5)
    assert a.pages[-1][1] == [(n, str(v), "") for n, v in zip(["Ann", "Cy", "Dee"], g5.totals)]
    # the journal was read from the evening's start, up to the first game kept in RAM
    assert store.reads <= len(store.evs) - store.evening_seq


class Reading:
    """Only what the UI may ask of the store: no journal, nothing that reads flash but the
    store's own evening_games()."""

    def __init__(self, store):
        self.evening_gid = store.evening_gid
        self.gids, self.game, self.current = store.gids, store.game, store.current
        self.evening_games = store.evening_games


def test_the_screen_does_no_io_the_store_reads_the_journal(settled):
    # ui.py: the UI does no I/O. The evening's older games come from the store.
    plain, _ = settled
    store = FakeStore(E.journal(PLAN))
    a = opened(Reading(store)).act
    assert store.reads > 0  # games 2 and 3, read by the store for the screen
    assert a.games == 3 and a.pays == plain["payments"]
    assert a.rows == [[p["player"], p["net"], p["games"], p["wins"]] for p in plain["players"]]


def test_the_pages_show_players_settlement_and_the_game_so_far(settled, monkeypatch):
    plain, _ = settled
    t = opened(FakeStore(E.journal(PLAN)))
    pages = []
    for _ in range(len(t.act.pages)):
        pages.append(draw(t, monkeypatch))
        t.press("down")
    assert pages[0] == draw(t, monkeypatch)  # round to the first page
    assert [p[0] for p in pages] == [
        "Evening · games: 3",
        "Evening · games: 3",
        "Settlement",
        "The game so far",
    ]
    assert [p[1] for p in pages] == ["1/4", "2/4", "3/4", "4/4"]
    rows = plain["players"]
    assert pages[0][2:] == [
        x
        for p in rows[:3]
        for x in (
            "%+d" % p["net"] if p["net"] >= 0 else "−%d" % -p["net"],
            p["player"],
            "games %d · wins %d" % (p["games"], p["wins"]),
        )
    ] + ["▲▼: page · A/B/C: back"]
    assert pages[1][3] == rows[3]["player"]
    assert pages[2][2:-1] == [
        x for a, b, v in plain["payments"] for x in (str(v), "%s pays %s" % (a, b))
    ]
    g5 = t.ui.store.game(5)
    assert pages[3][2:] == [x for s in range(3) for x in (str(g5.totals[s]), g5.players[s])] + [
        "▲▼: page · A/B/C: back"
    ]
    t.press("up")
    assert t.act.page == len(pages) - 1  # Up from the first: the last
    t.press("B", "up*")  # held or repeating: nothing
    assert t.mode == "evening" and t.act.page == len(pages) - 1
    for key in ("a", "b", "c"):
        t2 = opened(FakeStore(E.journal(PLAN)))
        t2.press(key)
        assert t2.mode == "score" and not t2.effects


def test_a_stake_shows_money_as_settle_per_point(settled, monkeypatch):
    _, money = settled
    s = dict(SETTINGS, stake=10)
    t = opened(FakeStore(E.journal(PLAN)), s)
    shown = draw(t, monkeypatch)
    p = money["players"][0]
    sign = "+" if p["net"] >= 0 else "−"
    assert shown[2:5] == [
        "%+d" % p["net"],
        p["player"],
        "games %d · wins %d · %s" % (p["games"], p["wins"], sign + p["money"].lstrip("-")),
    ]
    t.press("down", "down")
    shown = draw(t, monkeypatch)
    a, b, v, m = money["payments"][0]
    assert shown[:5] == ["Settlement", "3/4", m, "%s pays %s" % (a, b), "%d points" % v]
    assert ledger.money(v * 10) == m


def test_the_first_evening_is_every_game_and_a_new_one_starts_empty(monkeypatch):
    plan = [E.game(E.M1), E.game(E.M2), E.game(E.M3)]
    store = FakeStore(E.journal(plan))
    t = opened(store, over=store.game(3))
    assert t.act.games == 3 and len(t.act.pages) == 2
    t.press("b")
    # New evening? B back to the menu, C cancels; A starts one (the app journals it)
    for key, mode, effects in (
        ("b", "menu", []),
        ("c", "score", []),
        ("a", "score", [{"t": "evening"}]),
    ):
        if t.mode != "menu":
            t.press("up")
        while t.act.items[t.act.sel] != "new_evening":
            t.press("down")
        t.effects = []
        t.press("a")
        assert t.mode == "new_evening"
        assert draw(t, monkeypatch) == [
            "Start a new evening?",
            "The next games are settled apart",
            "Nothing is erased",
            "A: save · B: back · C: cancel",
        ]
        t.press("up", "down", "B", key)
        assert t.mode == mode and t.effects == effects
    store.new_evening()
    t = opened(store, over=store.game(3))
    assert t.act.games == 0 and t.act.rows == [] and len(t.act.pages) == 1
    assert draw(t, monkeypatch) == [
        "Evening · games: 0",
        "No finished games yet",
        "▲▼: page · A/B/C: back",
    ]


def test_one_press_from_the_game_over_screen(monkeypatch):
    store = FakeStore(E.journal([E.game(E.M3)]))
    g = store.game(1)
    assert g.over
    t = Table(g)
    t.ui.store = store
    assert draw(t, monkeypatch)[-1] == "A: next game · ▲▼: menu · B: Evening"
    t.press("b")
    assert t.mode == "evening" and t.act.rows[0][:2] == ["A", 727] and t.act.games == 1
    t.press("c")
    assert t.mode == "score"


def test_an_evening_that_evens_out_says_all_square(monkeypatch):
    # the box player of method 2 wins 2V, each partner loses V: each player in the box once
    plan = [
        E.game(E.M2, names)
        for names in (["Ann", "Bob", "Cy"], ["Bob", "Ann", "Cy"], ["Cy", "Ann", "Bob"])
    ]
    store = FakeStore(E.journal(plan))
    t = opened(store, over=store.game(3))
    assert t.act.games == 3 and t.act.pays == []
    assert [r[1] for r in t.act.rows] == [0, 0, 0]
    t.press("down")
    assert draw(t, monkeypatch)[:3] == ["Settlement", "2/2", "All square: nobody pays"]
