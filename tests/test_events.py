"""knockcore.events.apply: the one meaning of a game event, for the device's store and the host."""

import pytest

from knockcore import events
from knockcore.errors import GameError

REC = {
    "method": 3,
    "players": ["Ann", "Bob", "Cy"],
    "start": {"dealer": 2},
    "rules": {"preset": "seed"},
}
H1 = {"knock": 0, "counts": [5, 20, 30]}
H2 = {"gin": 1, "counts": [14, 0, 9]}


def play(*evs):
    g = None
    for ev in evs:
        g = events.apply(g, ev)
    return g


def test_a_game_from_its_events():
    g = play(
        {"t": "game", "g": 1, "rec": REC},
        {"t": "hand", "g": 1, "h": H1},
        {"t": "hand", "g": 1, "h": H2},
        {"t": "undo", "g": 1},
        {"t": "edit", "g": 1, "i": 0, "h": {"void": True}},
        {"t": "hand", "g": 1, "h": H1},
    )
    assert g.record()["hands"] == [{"void": True}, H1]
    assert g.totals == [45, 0, 0] and not g.closed


def test_end_closes_the_game_and_it_takes_no_more():
    g = play({"t": "game", "g": 1, "rec": REC}, {"t": "end", "g": 1})
    assert g.closed
    for ev in ({"t": "hand", "g": 1, "h": H1}, {"t": "undo", "g": 1}, {"t": "end", "g": 1}):
        with pytest.raises(GameError, match="closed"):
            events.apply(g, ev)
    assert g.hands == []


@pytest.mark.parametrize(
    "evs, msg",
    [
        ([{"t": "hand", "g": 1, "h": H1}], "hand before the game started"),
        ([{"t": "game", "g": 1, "rec": REC}, {"t": "game", "g": 1, "rec": REC}], "starts twice"),
        ([{"t": "game", "g": 1, "rec": dict(REC, hands=[H1])}], "no hands"),
        ([{"t": "game", "g": 1}], "game: missing rec"),
        ([{"t": "game", "g": 1, "rec": REC}, {"t": "hand", "g": 1}], "hand: missing h"),
        ([{"t": "game", "g": 1, "rec": REC}, {"t": "undo", "g": 1}], "nothing to undo"),
        ([{"t": "game", "g": 1, "rec": REC}, {"t": "what", "g": 1}], "unknown event 'what'"),
        ([{"t": "game", "g": 1, "rec": REC}, [1, 2]], "must be an object"),
        ([{"t": "game", "g": 1, "rec": REC}, {"t": "edit", "g": 1, "i": 0, "h": H1}], "no hand 1"),
        (
            [
                {"t": "game", "g": 1, "rec": REC},
                {"t": "hand", "g": 1, "h": {"knock": 0, "counts": [50, 1, 2]}},
            ],
            "hand 1",
        ),
    ],
)
def test_refused_events_change_nothing(evs, msg):
    g = play(*evs[:-1])
    before = g.record() if g is not None else None
    with pytest.raises(GameError, match=msg):
        events.apply(g, evs[-1])
    assert (g.record() if g is not None else None) == before


def test_game_of():
    assert events.game_of({"t": "hand", "g": 4}) == 4
    assert events.game_of({"t": "epoch", "e": 1}) is None
    assert events.game_of({"t": "hand", "g": "4"}) is None
    assert events.game_of([1]) is None


def test_the_evening_record_is_made_and_read_in_one_place():
    ev = events.evening(4)
    assert ev == {"t": "evening", "next": 4}  # the journal's format (docs/PROTOCOL.md)
    assert events.evening_next(ev) == 4 and events.game_of(ev) is None
    assert events.evening_next(events.evening(0)) == 0
    for other in (
        {"t": "evening", "next": "4"},
        {"t": "evening", "next": -1},
        {"t": "evening", "next": True},
        {"t": "evening"},
        {"t": "epoch", "next": 4},
        {"t": "hand", "g": 4, "h": {}},
        ["evening", 4],
        None,
    ):
        assert events.evening_next(other) is None, other


def test_a_snapshot_restores_the_same_game_at_every_hand():
    """knockcore.game.snapshot/restore (the device's boot checkpoint): through JSON, at every
    point of random games of each method (finished or not, custom rules, closed), the restored
    game equals the one played, and goes on the same (add, undo, edit, preview)."""
    import json
    import random

    from kit import gamegen
    from knockcore.game import restore

    rnd = random.Random(11)
    for n in range(24):
        rules = (
            {"preset": "seed"}
            if n % 3
            else {"preset": "seed", "target": 150, "m3_formula": "pairwise"}
        )
        full = gamegen.random_game(rnd, method=n % 3 + 1, rules=rules, until_over=True)
        g = events.apply(
            None,
            {"t": "game", "g": 1, "rec": {k: v for k, v in full.record().items() if k != "hands"}},
        )
        for i in range(len(full.hands) + 1):
            g.closed = n == 5 and i == len(full.hands)
            r = restore(json.loads(json.dumps(g.snapshot())))
            assert r.standings() == g.standings() and r.record() == g.record()
            assert (r.closed, r.hands, r.over) == (g.closed, g.hands, g.over)
            if i < len(full.hands):
                h = full.hand(i)
                if i:
                    assert r.preview(h) == g.preview(h)
                    a, b = r.copy(), g.copy()
                    a.undo()
                    b.undo()
                    assert a.standings() == b.standings()
                g.add(h)
                r.add(h)
                assert r.standings() == g.standings()


@pytest.mark.parametrize(
    "snap",
    [
        None,
        [],
        [3, ["A", "B", "C"], {"dealer": 0}, None, [], False, []],
        [3, ["A", "B", "C"], {"dealer": 0}, None, ["x"], False, [[0, 0, 0]] * 10],
        [3, ["A", "B", "C"], {"dealer": 0}, None, [], "no", [0] * 10],
        [3, ["A", "A", "C"], {"dealer": 0}, None, [], False, [[0, 0, 0]] * 10],
    ],
)
def test_a_snapshot_that_is_not_one_is_refused(snap):
    from knockcore.game import restore

    with pytest.raises((GameError, TypeError, ValueError)):
        restore(snap)
