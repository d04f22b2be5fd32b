"""Entering a hand, measured: realistic hands (bench/hands.json, from OpenSpiel's gin rummy:
bench/gen_hands.py) keyed by a person who does not look at the panel, through the real firmware
under the MicroPython unix port; every press counted from the scoreboard to "Saved" (the knock,
the counts, moving on, the save). Prints presses and seconds per hand by method (mean, median,
90th percentile) and checks that every hand the device recorded is exactly the one in the file.

    .venv/bin/python bench/bench_entry.py [--set report|tune] [--hands N] [--write]

The presses of each hand are planned by bench/entry_plan.py, with the firmware's own rules of
entry (README "Playing"), on the firmware's own UI state machine and the rules core (as
tests/emu/emu_plan.py does), then played on the device (tests/mp_scripts/app_driver.py, "blind").
The person: a tap is held TAP_MS then up GAP_MS; a long press is held the buttons' long_ms plus
100 ms (LONG_MS), then up GAP_MS; no wait for the panel, except before the save: the confirm
screen is read first (the panel's ~0.6 s refresh on the device's clock, as its UC8151 takes).
A hand's seconds run from the knock's press to the save's release.

Methods 1 and 2 play the set's two-player hands (half each), method 3 its three-player hands;
in each hand the knocker is a seat in play drawn at random (seeded), the opponents follow him
clockwise. Games follow one another as a table plays them (a new game when one is over, its
presses not counted). --set tune: the hands the keys were tuned on; report (the default): the
others. --hands N: the first N hands of each method. --write puts the figures into README.md
(bench/docfigures.py).
"""

import json
import os
import random
import shutil
import sys
import tempfile
import time

import _paths  # the checkout's folders on sys.path (bench/_paths.py)
import budgets
import docfigures
from bench_firmware import percentile
from emu_plan import Planner
from kit import device
from knockfw.buttons import Buttons

HANDS = os.path.join(_paths.ROOT, "bench", "hands.json")
TAP_MS, GAP_MS = 80, 120
LONG_MS = Buttons({}).long_ms + 100
NAMES = ["Ann", "Bob", "Cy"]
STARTS = {1: {"idle": 2, "dealer": 1}, 2: {"box": 0, "captain": 1}, 3: {"dealer": 2}}
CHUNK = 250  # hands a device session plays (a fresh device each: the journal stays small)
GOALS = budgets.ENTRY_GOALS


def load(which, n=None):
    """{method: [file hands]}: the set's two-player hands split between methods 1 and 2, its
    three-player hands for method 3 (the first n of each)."""
    with open(HANDS, encoding="utf-8") as f:
        data = json.load(f)[which]
    two = data["two"]
    half = len(two) // 2
    out = {1: two[:half], 2: two[half:], 3: data["three"]}
    return {m: hs[:n] if n else hs for m, hs in out.items()}


def seat_hand(game, fh, rng):
    """The file's hand fh ([knocker, opponents...] or None) as the device records it, in game:
    the knocker a seat in play at random, the opponents clockwise after him."""
    if fh is None:
        return {"void": True}
    active = game.active
    who = rng.choice(active)
    counts = [None, None, None]
    order = [who] + [s for s in ((who + 1) % 3, (who + 2) % 3) if s in active]
    for s, c in zip(order, fh):
        counts[s] = c
    return {"gin" if fh[0] == 0 else "knock": who, "counts": counts}


def session(method, hands, rng):
    """(driver actions, the game records the device must then hold, [kind of each hand]) for
    hands played in games of method one after another."""
    p = Planner()
    acts, kinds = [], []
    for fh in hands:
        if p.game is None or p.game.over:
            if p.game is not None:
                acts.append(["dump"])
            p.new_game(method, NAMES, STARTS[method])
            acts.append(["new", method, NAMES, STARTS[method]])
        h = seat_hand(p.game, fh, rng)
        a = len(p.presses)
        p.hand(h)
        if p.game.record()["hands"][-1] != h:
            raise SystemExit("the plan recorded %r for %r" % (p.game.record()["hands"][-1], h))
        acts.append(["blind", p.presses[a:], TAP_MS, LONG_MS, GAP_MS])
        kinds.append("void" if fh is None else "gin" if fh[0] == 0 else "knock")
    acts.append(["dump"])
    return acts, p.records(), kinds


def play(method, hands, rng, work):
    """Play hands on fresh devices, CHUNK at a time: [(presses, ms, kind)] per hand, and the
    number of hands recorded otherwise than planned."""
    out, wrong = [], 0
    for i in range(0, len(hands), CHUNK):
        acts, records, kinds = session(method, hands[i : i + CHUNK], rng)
        r = device.run_script(acts, os.path.join(work, "m%d-%d" % (method, i)), timeout=3600)
        got = [e["dumped"] for e in r["events"] if "dumped" in e]
        stats = [e["blind"] for e in r["events"] if "blind" in e]
        if len(got) != len(records):
            wrong += len(kinds)
        else:
            for g, want in zip(got, records):
                hg, hw = g.pop("hands"), want.pop("hands")
                if g != want:  # the game itself: method, players, roles, rules
                    wrong += len(hw)
                wrong += sum(a != b for a, b in zip(hg, hw)) + abs(len(hg) - len(hw))
        out += [(s[1], s[2], k) for s, k in zip(stats, kinds)]
    return out, wrong


def summary(method, rows):
    """The lines for one method's hands."""
    p = [r[0] for r in rows]
    s = [r[1] / 1000 for r in rows]
    gin = [r[0] for r in rows if r[2] == "gin"]
    knock = [r[0] for r in rows if r[2] == "knock"]
    return [
        "method %d, %d hands (%d knocks, %d gin, %d void):"
        % (method, len(rows), len(knock), len(gin), len(rows) - len(knock) - len(gin)),
        "  presses a hand: mean %.1f, median %d, 90th percentile %d, most %d"
        % (sum(p) / len(p), percentile(p, 50), percentile(p, 90), max(p)),
        "  seconds a hand: mean %.1f, median %.1f, 90th percentile %.1f"
        % (sum(s) / len(s), percentile(s, 50), percentile(s, 90)),
        "  gin hands: mean %.1f presses, most %d" % (sum(gin) / len(gin), max(gin))
        if gin
        else "  gin hands: none",
    ]


def main(argv):
    which = "tune" if "--set" in argv and argv[argv.index("--set") + 1] == "tune" else "report"
    n = int(argv[argv.index("--hands") + 1]) if "--hands" in argv else None
    write = "--write" in argv
    if write and (n or which != "report"):
        raise SystemExit("--write: the docs' figures are the whole report set")
    if write:
        sys.stdout = tee = docfigures.Tee(sys.stdout)
    sets = load(which, n)
    print(
        "bench_entry: %s set of bench/hands.json (OpenSpiel gin_rummy, simple bot); a person "
        "who taps %d ms + %d ms up, holds %d ms + %d ms up, waits for the panel only before "
        "the save" % (which, TAP_MS, GAP_MS, LONG_MS, GAP_MS)
    )
    work = tempfile.mkdtemp(prefix="knockbox-bench-entry-")
    t0 = time.time()
    bad = 0
    try:
        rows = {}
        for m in (1, 2, 3):
            rows[m], wrong = play(m, sets[m], random.Random(m), work)
            bad += wrong
            for line in summary(m, rows[m]):
                print(line, flush=True)
        both = rows[1] + rows[2]
        gin = [r[0] for r in both if r[2] == "gin"]
        print(
            "methods 1 and 2 together: presses mean %.1f, 90th percentile %d; seconds mean %.1f;"
            " gin hands mean %.1f presses"
            % (
                sum(r[0] for r in both) / len(both),
                percentile([r[0] for r in both], 90),
                sum(r[1] for r in both) / len(both) / 1000,
                sum(gin) / max(1, len(gin)),
            )
        )
        print("the design's goals: " + GOALS)
        total = sum(len(r) for r in rows.values())
        print(
            "%d hands played, %s"
            % (
                total,
                "every one recorded exactly as in the file"
                if not bad
                else "%d RECORDED OTHERWISE" % bad,
            )
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("(%.0f s wall)" % (time.time() - t0), file=sys.stderr)
    if write:
        sys.stdout = tee.out
        docfigures.write("README.md", "bench_entry.py", tee.lines())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
