"""Invariants of the rules core over random games (hypothesis drives the seeds and options)."""

import random

from hypothesis import given, settings, strategies as st

from kit import gamegen
from knockcore.errors import GameError
from knockcore.game import Game, from_record

RULES = st.fixed_dictionaries(
    {
        "preset": st.sampled_from(["seed", "classic"]),
    },
    optional={
        "m1_extra": st.sampled_from(["idle", "shutout"]),
        "m3_formula": st.sampled_from(["literal", "pairwise"]),
        "m3_penalty_on": st.sampled_from(["tie", "tie_or_undercut"]),
        "target": st.integers(1, 300),
        "m3_target": st.integers(1, 400),
        "knock_limit": st.integers(0, 20),
        "m3_tie_penalty": st.integers(0, 60),
    },
)
GAMES = st.tuples(st.integers(0, 2**32), st.sampled_from([1, 2, 3]), RULES)
FAST = settings(max_examples=150, deadline=None)


def build(seed, method, rules, until_over=True):
    return gamegen.random_game(random.Random(seed), method, rules=rules, until_over=until_over)


@FAST
@given(GAMES)
def test_finished_game_settles_to_zero_and_totals_add_up(args):
    g = build(*args)
    s = g.standings()
    assert s["over"] and "next" not in s
    assert sum(s["net"]) == 0
    # Who pays whom adds up to each seat's net, one payment per pair at most.
    got = [0, 0, 0]
    for payer, payee, amount in s["payments"]:
        assert amount > 0 and payer != payee
        got[payer] -= amount
        got[payee] += amount
    assert got == s["net"]
    assert len({frozenset(p[:2]) for p in s["payments"]}) == len(s["payments"])
    # The running totals are the sum of what each hand scored.
    for seat in range(3):
        assert sum(h["points"][seat] for h in s["hands"]) == s["totals"][seat]
    # Boxes are the hands won.
    for seat in range(3):
        assert sum(seat in h["winners"] for h in s["hands"]) == s["boxes"][seat]
    # The winners took the game to its target: theirs is the top running total. (Not always the
    # top final: box bonuses can lift a loser's final above the winner's, and RULES.md settles
    # on the finals as they are; hypothesis found such a game: seed 5, method 1, target 153.)
    assert s["winners"] and all(s["totals"][w] == max(s["totals"]) for w in s["winners"])


@FAST
@given(GAMES)
def test_no_hand_after_the_game_is_over(args):
    g = build(*args)
    before = g.record()
    for h in ({"void": True}, {"knock": g.active[0], "counts": [0, 0, 0]}):
        try:
            g.add(h)
        except GameError as e:
            assert "the game is over" in str(e)
        else:
            raise AssertionError("accepted a hand after the end")
    assert g.record() == before


@FAST
@given(GAMES, st.integers(0, 10**6))
def test_fold_of_a_prefix_is_the_standings_before_that_hand(args, cut):
    g = build(*args)
    rec = g.record()
    n = cut % (len(rec["hands"]) + 1)
    prefix = dict(rec, hands=rec["hands"][:n])
    p = from_record(prefix).standings()
    full = g.standings()
    assert p["hands"] == full["hands"][:n]
    # Undoing back to the prefix gives the same standings as folding the prefix.
    for _ in range(len(rec["hands"]) - n):
        g.undo()
    assert g.standings() == p


@FAST
@given(GAMES, st.integers(0, 10**6))
def test_edit_with_the_same_hand_changes_nothing_and_a_bad_edit_is_refused(args, pick):
    g = build(*args, until_over=False)
    if not g.hands:
        return
    i = pick % len(g.hands)
    before = g.standings()
    g.replace(i, g.hand(i))
    assert g.standings() == before
    try:
        g.replace(i, {"knock": 0, "counts": [99, 99, 99]})
    except GameError as e:
        assert ("hand %d:" % (i + 1)) in str(e)
    assert g.standings() == before


@FAST
@given(GAMES)
def test_partners_share_score_and_roles_are_consistent(args):
    seed, method, rules = args
    rnd = random.Random(seed)
    g = Game(method, ["A", "B", "C"], gamegen.random_start(method, rnd), rules)
    while not g.over:
        assert g.dealer in g.active
        if method == 3:
            assert g.idle is None and g.active == [0, 1, 2]
        else:
            assert len(g.active) == 2 and g.idle not in g.active
        if method == 2:
            partners = [s for s in range(3) if s != g.start["box"]]
            assert g.totals[partners[0]] == g.totals[partners[1]]
            assert g.start["box"] in g.active
        h = gamegen.random_hand(g, rnd)
        kind, winners, points = g.preview(h)
        before = list(g.totals)
        g.add(h)
        assert [a + p for a, p in zip(before, points)] == g.totals


@FAST
@given(GAMES)
def test_record_round_trips(args):
    g = build(*args)
    assert from_record(g.record()).standings() == g.standings()


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from([1, 2, 3]),
    st.dictionaries(
        st.sampled_from(["knock", "gin", "void", "counts", "x"]),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-5, 120),
            st.lists(st.one_of(st.none(), st.integers(-3, 110)), max_size=4),
        ),
    ),
)
def test_garbage_hands_are_refused_cleanly_or_accepted_validly(seed, method, h):
    g = gamegen.random_game(random.Random(seed), method, max_hands=5)
    before = g.standings()
    try:
        g.add(h)
    except GameError:
        assert g.standings() == before
        return
    # Accepted: it must have been a well-formed hand.
    assert len(g.hands) == len(before["hands"]) + 1
