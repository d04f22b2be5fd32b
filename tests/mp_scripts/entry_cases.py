# Blind entry of a hand's counts (knockfw.ui_hand, README "Playing"), from the buttons up: the
# presses as contact traces through knockfw.buttons (the RP2040's way: sampled levels with their
# times), their events into the UI, on a game of the rules core. Run under the MicroPython unix
# port and CPython by tests/test_entry.py, as buttons_cases.py is by tests/test_buttons.py.
#
# press(): one button, tapped or held for ms; keyed(): the presses one after another at the
# quickest finger (60 ms down, 60 ms up) unless told, polled every `step` ms (a redraw holds the
# loop for hundreds of ms: the presses made meanwhile come out of the next poll, with their times).
from buttons_cases import check, replay
from knockcore.game import Game
from knockfw import ui as U

NAMES = ["Ann", "Bob", "Cy"]


def keyed(presses, tap=60, gap=60, step=10, method=3, start=None):
    """The UI after presses from the scoreboard of a new game: presses are (name, ms held), or a
    name (a tap); returns (ui, game, effects)."""
    traces, t = {}, 100
    for p in presses:
        name, ms = (p, tap) if isinstance(p, str) else p
        traces.setdefault(name, []).extend([(t, 1), (t + ms, 0)])
        t += ms + gap
    end = t + 200
    polls = list(range(0, end, step)) + [end]
    events, _b = replay(traces, end, polls=polls, sampled=True)
    g = Game(method, NAMES, start or {1: {"idle": 2, "dealer": 1}, 3: {"dealer": 2}}[method], {})
    ui = U.UI()
    effects = []
    for _t, name, kind in events:
        effects.extend(ui.handle((name, kind), g, {}))
    return ui, g, effects


def count(presses, **kw):
    """The highlighted count after presses."""
    act = keyed(presses, **kw)[0].act
    return act.counts[act.fields[act.cursor]]


def case_a_tap_or_a_long_press_whatever_its_length():
    # Ann knocked (A), then Down/Up on her count (from 10); Bob's count (from 0) after A again.
    for ms in (40, 120, 590):
        check(count(["a", ("down", ms)]), 9)
        check(count(["a", "a", ("up", ms)]), 1)
        check(count(["a", "a", ("c", ms)]), 10)  # another seat's button: +10
    for ms in (610, 700, 1500, 4000):
        check(count(["a", ("down", ms)]), 5)
        check(count(["a", "a", "c", "c", ("up", ms)]), 25)
        check(count(["a", "a", "c", "c", "c", ("a", ms)]), 20)  # held: -10


def case_21_keyed_while_the_panel_draws():
    # C, C, Up: 21, polled every 10 ms or only every 400 ms (a redraw in between) alike
    for step in (10, 170, 400):
        ui, _g, _e = keyed(["a", "a", "c", "c", "up"], step=step)
        check((ui.mode, ui.act.counts), ("counts", [10, 21, 0]))


def case_counts_start_where_most_end_and_stop_at_their_ends():
    check(keyed(["b"])[0].act.counts, [0, 10, 0])  # the knocker's at the knock limit
    check(keyed([("b", 700)])[0].act.counts, [50, 0, 50])  # after a gin: 50
    check(keyed(["a", "up", "b", "b"])[0].act.counts, [10, 0, 0])  # 10 is the knock limit
    check(count(["a", ("b", 700), ("b", 700)]), 0)
    check(count(["a", "a"] + ["c"] * 12), 98)
    ui = keyed(["a", "a"], method=1)[0]  # method 1: Cy sits out, his button still adds 10
    check((ui.act.fields, count(["a", "a", "c"], method=1)), ([0, 1], 10))


def case_the_highlighted_button_moves_on_held_goes_back():
    ui = keyed(["a", "a", "up", "b", "up", "up"])[0]
    check((ui.act.cursor, ui.act.counts), (2, [10, 1, 2]))
    ui = keyed(["a", "a", "up", "b", "up", "up", ("c", 700)])[0]  # Cy's held: Bob's count
    check((ui.mode, ui.act.cursor), ("counts", 1))
    ui = keyed(["a", "a", ("b", 700), ("a", 700)])[0]  # back to Ann's, then out
    check(ui.mode, "score")


def case_a_whole_hand_keyed_blind():
    # Ann knocks 8, Bob 21, Cy 44 (the plan of bench/entry_plan.py), saved: 12 presses
    keys = ["a", "down", "down", "a", "c", "c", "up", "b"]
    keys += ["a", "a", "a", "a", ("up", 700), "down", "c", "a"]
    ui, g, effects = keyed(keys)
    check(effects, [{"t": "hand", "h": {"knock": 0, "counts": [8, 21, 44]}}])
    check(ui.mode, "score")
    # a gin: Bob's whole count 37 and Cy's 62 from 50
    keys = [("a", 700), ("c", 700), "down", "down", "down", "b", "a", "up", "up", "c", "a"]
    check(keyed(keys)[2], [{"t": "hand", "h": {"gin": 0, "counts": [0, 37, 62]}}])
