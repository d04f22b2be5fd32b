"""Power pulled at a flash operation in the middle of an evening, through the whole firmware: the
device boots again on the same flash to the scoreboard, every hand the screen had confirmed is
there, and the hand in flight is there whole or not at all (tests/test_powercut.py cuts at every
single operation of the store; here the app, the UI and the screen are in the loop too)."""

import json
import os

import pytest

from kit import device
from kit import worked
from knockcore.game import from_record

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "powercut")
NAMES = ["Ann", "Bob", "Cy"]
START, HANDS = worked.game(3)
HANDS = HANDS[:6]  # the worked example of method 3 but its last hand (it ends the game)
SESSION = [["new", 3, NAMES, START]] + [["hand", h] for h in HANDS]


def flash_ops():
    import tempfile

    with tempfile.TemporaryDirectory() as d:  # each test process counts on its own flash
        return device.run_script(SESSION, d)["flash_ops"]


OPS = None


def cut_points():
    global OPS
    if OPS is None:
        OPS = flash_ops()
    step = max(1, OPS // 24)
    return sorted(set([1, 2, 3] + list(range(4, OPS + 1, step)) + [OPS]))


@pytest.mark.parametrize("part", range(4))
def test_power_cut_then_boot(part):
    points = cut_points()[part::4]
    assert points
    for k in points:
        out = os.path.join(OUT, "cut%d" % k)
        flash = os.path.join(out, "flash.img")
        if os.path.exists(flash):
            os.remove(flash)
        cut = device.run_script(SESSION, out, flash=flash, cut_at=k)
        info = [e for e in cut["events"] if "cut" in e] if "cut" not in cut else [cut]
        assert info, "cut %d did not happen" % k
        confirmed = info[-1]["confirmed"]
        in_flight = [e["in_flight"] for e in cut["events"] if "in_flight" in e]
        # Power comes back: boot on the same flash, look at the panel.
        r = device.run_script([["shot", "boot"]], out, flash=flash)
        assert r["mode"] == "score", "cut %d: booted to screen %s" % (k, r["mode"])
        with open(os.path.join(out, "boot.json"), encoding="utf-8") as f:
            drawn = [b[4] for b in json.load(f)["boxes"]]
        if not r["games"]:
            assert not confirmed, "cut %d: lost the game" % k
            assert "No game yet" in drawn
            continue
        hands = r["games"][0]["record"]["hands"]
        assert hands[: len(confirmed)] == confirmed, "cut %d: lost a confirmed hand" % k
        extra = hands[len(confirmed) :]
        assert extra == [] or (len(extra) == 1 and in_flight and extra[0] == in_flight[-1]), (
            "cut %d: unexpected hands %r" % (k, extra)
        )
        totals = from_record(r["games"][0]["record"]).totals
        for t in totals:  # the scoreboard shows the totals in large digits
            assert str(t) in drawn, (k, totals, drawn)
