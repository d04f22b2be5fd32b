"""Hands keyed blind at the quickest finger, on the emulated Badger 2040: realistic hands (the first
knocks and gin of bench/hands.json's report set, method 3: three counts each) planned as README's "Playing" says
(bench/entry_plan.py), every tap 60 ms down and 60 ms up, the long presses the buttons' long_ms
plus 60 ms or, every other one, a slow 1.5 s, and never a wait for the panel, not even before the
save or between the hands. The journal then holds exactly those hands: each press had its one
effect, however long it was held and however the panel's refreshes (BUSY held 0.6 s each) fell
between them."""

import json
import os

from emu_plan import Planner
from knockfw.buttons import Buttons

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAYERS = ["Ann", "Bob", "Cy"]
TAP_MS = 60
LONG_MS = Buttons({}).long_ms + 60
SLOW_MS = 1500  # a long press held on (an Up held this long repeats 6 times: only one counts)
HANDS = 3


def realistic_hands():
    """The report set's first two method-3 knocks and its first gin, seated: Ann knocks, then
    Bob; Cy goes gin."""
    with open(os.path.join(ROOT, "bench", "hands.json"), encoding="utf-8") as f:
        three = [h for h in json.load(f)["report"]["three"] if h]
    three = [h for h in three if h[0]][:2] + [h for h in three if not h[0]][:1]
    out = []
    for i, (k, o1, o2) in enumerate(three):
        counts = [0, 0, 0]
        counts[i], counts[(i + 1) % 3], counts[(i + 2) % 3] = k, o1, o2
        out.append({"gin" if k == 0 else "knock": i, "counts": counts})
    return out


def test_realistic_hands_keyed_blind_at_the_quickest_finger_record_exactly(device_factory):
    dev = device_factory(busy_ms=600)
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    p = Planner()
    p.new_game(3, PLAYERS, {"dealer": 0})
    assert dev.act(p.presses) == []
    dev.wait_quiet(700)

    hands = realistic_hands()
    a = len(p.presses)
    for h in hands:
        p.hand(h)
    presses = p.presses[a:]
    # taps and long presses of both kinds: Up/Down, another seat's button (+10, held -10)
    kinds = set(presses)
    assert {("down", "long"), ("up", "press"), ("down", "press"), ("c", "long")} <= kinds
    assert ("a", "press") in kinds and len(presses) >= 30
    held = 0
    for name, kind in presses:
        if kind == "long":
            held += 1
        dev.press(name, (SLOW_MS if held % 2 == 0 else LONG_MS) if kind == "long" else TAP_MS)
        dev.sleep(TAP_MS)
    dev.wait_quiet(1000)

    got = [e["h"] for _s, e in dev.journal() if e["t"] == "hand"]
    assert got == hands, "recorded %r\nkeyed %r" % (got, hands)
