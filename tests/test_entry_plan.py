"""The plans of bench/entry_plan.py (what bench_entry.py, bench_battery.py and the emulated Pico's
tests key) are the ones README's "Playing" tells a player to key: a plan written from that text
alone, here, gives the same presses for every count from every start, and each plan keys its
count on the firmware's own counts screen."""

import os
import re

import entry_plan
import pytest

from test_ui import Table, game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SEATS = ("a", "b", "c")


def readme_plan(seat, start, want):
    """README: key the difference from the start; the tens on another player's button (the plans
    use the next seat's, clockwise), tapped to add ten, held to take ten away, one ten more when
    the ones are 8 or 9; then the ones: 4 to 7 begin with Up (Down) held for five, and the rest
    are taps."""
    other = SEATS[(seat + 1) % 3]
    d = want - start
    up = d >= 0
    tens = (abs(d) + 2) // 10
    ones = abs(d) - 10 * tens  # -2 .. 7, towards want
    out = [(other, "press" if up else "long")] * tens
    if ones >= 4:
        out.append(("up" if up else "down", "long"))
        ones -= 5
    if ones < 0:
        up, ones = not up, -ones
    return out + [("up" if up else "down", "press")] * ones


STEP = {"press": 1, "long": -1}


def inside(plan, start, top):
    """Whether the README's plan keeps the count inside 0..top all the way (unclamped sums)."""
    v = start
    for name, how in plan:
        v += (
            {"up": 5, "down": -5}.get(name, 10 * STEP[how])
            if how == "long"
            else {"down": -1}.get(name, 1 if name == "up" else 10)
        )
        if not 0 <= v <= top:
            return False
    return True


def keyed(t, plan):
    """The highlighted count after plan's presses on a copy of t's counts screen."""
    k = Table(t.game)
    k.ui.act = type(t.act)()
    k.ui.act.__dict__.update(t.act.__dict__)
    k.ui.act.counts = list(t.act.counts)
    for press in plan:
        for name, how in entry_plan.events(*press):
            k.press(name + "*" if how == "repeat" else name.upper() if how == "long" else name)
    return k.ui.act.counts[t.act.fields[t.act.cursor]]


def fields():
    """(name, the counts screen with a count highlighted, its top) for each kind of count."""
    yield "knocker", Table(game(3)).press("b"), 10
    yield "knock's other", Table(game(3)).press("b", "b"), 98
    yield "gin's other", Table(game(1)).press("A"), 98
    t = Table(game(3, {"knock": 0, "counts": [5, 37, 30]}))
    t.press("up", "down", "down", "a", "a", "a", "a")  # correcting hand 1: Ann knocked
    yield "a corrected count", t, 98


def test_the_plans_are_the_ones_readme_tells_a_player_to_key():
    checked = 0
    for name, t, top in fields():
        act = t.act
        seat = act.fields[act.cursor]
        start = act.counts[seat]
        for want in range(top + 1):
            plan = entry_plan.count(act, t.game, want)
            assert act.counts[seat] == start  # planning changed nothing
            mine = readme_plan(seat, start, want)
            # each plan keys its count on the firmware's own screen
            assert keyed(t, plan) == want, (name, want, plan)
            if inside(mine, start, top) and inside(plan, start, top):
                assert plan == mine, (name, start, want)
                checked += 1
            else:  # a count stops at its ends (0, 98): near them the plan may make use of it
                assert len(plan) <= len(mine) and not 8 <= want <= top - 8, (name, start, want)
    assert checked > 290  # of 308


def test_readme_has_the_keys_the_plans_use():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    playing = text.split("## Playing", 1)[1].split("\n## ", 1)[0]
    for words in (
        "| Up / Down | the highlighted count +1 / −1 |",
        "| hold Up / Down | +5 / −5 |",
        "+10 |",
        "−10 |",
        "at the knock limit",
        "at 50",
        "8 or 9",
    ):
        assert words in playing, words
    assert re.search(r"fewest\s+presses.*fewest\s+held", playing, re.S)


@pytest.mark.parametrize("want", [-1, 11])
def test_a_count_out_of_its_range_is_refused(want):
    t = Table(game(3)).press("b")
    with pytest.raises(ValueError, match="cannot be keyed"):
        entry_plan.count(t.act, t.game, want)


@pytest.mark.parametrize(
    "method,keys,hand",
    [
        (1, "a down down a c c up b a", {"knock": 0, "counts": [8, 21, None]}),
        (3, "a down down a c c up b a a a a up up* down c a", {"knock": 0, "counts": [8, 21, 44]}),
        (1, "A C down down down b a", {"gin": 0, "counts": [0, 37, None]}),
    ],
)
def test_readmes_examples_are_the_plans_and_record_what_it_says(method, keys, hand):
    t = Table(game(method))
    t.press(*keys.split())
    assert t.effects == [{"t": "hand", "h": hand}]
    # the planner keys the same hand with the same presses ("up up*": Up held)
    p = Table(game(method))
    p.press(keys.split()[0])
    presses = []
    for seat in list(p.act.fields):
        for press in entry_plan.count(p.act, p.game, hand["counts"][seat]):
            presses.append(press)
            for name, how in entry_plan.events(*press):
                p.press(name + "*" if how == "repeat" else name.upper() if how == "long" else name)
        presses.append((SEATS[seat], "press"))
        p.press(SEATS[seat])
    p.press("a")
    assert p.effects == t.effects
    flat = [
        n + "*" if h == "long" and n in ("up", "down") else n.upper() if h == "long" else n
        for n, h in presses
    ]
    assert " ".join(flat).replace("up*", "up up*") == " ".join(keys.split()[1:-1])
