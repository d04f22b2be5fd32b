"""Budgets of bench/README.md (bench/budgets.py): the core's and the firmware's compiled sizes,
and a 300-hand game replayed under the unix port's budget heap (mp.HEAP) (bench/bench_core.py and
bench/bench_firmware.py print the numbers)."""

import json
import random

import budgets
import pytest

from kit import gamegen
from kit import mp


def test_shared_compiled_with_O3_fits_its_budget(tmp_path):
    total = sum(mp.sizes("device", modules=["knockcore"]).values())
    assert 0 < total <= budgets.CORE_KB * 1024, total


@pytest.mark.parametrize("board", ["badger2040", "pico-epd"])
def test_each_boards_firmware_compiled_fits_its_budget(board):
    """bench/README.md's budget: the whole firmware at most FIRMWARE_KB of .mpy, as deploy puts it
    on that board (its own pins and driver, native modules for the RP2040)."""
    total = sum(mp.sizes("device", modules=["knockfw"], board=board).values())
    assert 40 * 1024 < total <= budgets.FIRMWARE_KB * 1024, total


def test_a_sessions_game_replays_in_the_budget_heap(tmp_path):
    n = budgets.SESSION_HANDS
    rec = gamegen.random_game(
        random.Random(7), method=3, max_hands=n, rules={"preset": "seed", "m3_target": 100000}
    ).record()
    path = tmp_path / "hands.jsonl"
    with open(path, "w") as f:
        for h in rec["hands"]:
            f.write(json.dumps(h) + "\n")
    script = """
import json, sys
from knockcore.game import Game
g = Game(3, ["A", "B", "C"], %r, {"preset": "seed", "m3_target": 100000})
with open(sys.argv[1]) as f:
    for line in f:
        g.add(json.loads(line))
s = g.standings(hands=False)
print(len(g.hands), s["totals"])
""" % (rec["start"],)
    p = mp.run(script.replace("sys.argv[1]", repr(str(path))))
    assert p.returncode == 0, p.stderr
    from knockcore.game import from_record

    want = from_record(rec).standings()["totals"]
    assert p.stdout.strip() == "%d %s" % (n, want)
