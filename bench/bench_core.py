"""Size and heap of the rules core: mpy-cross -O3 size per module of shared/ (budgets.CORE_KB), and
the heap cost of importing the core and replaying a 300-hand session under
`micropython -X heapsize=192k`. Run: .venv/bin/python bench/bench_core.py"""

import json
import os
import random
import sys
import tempfile

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import budgets
from kit import gamegen
from kit import mp
from knockbox.build import mpy

BUDGET = budgets.CORE_KB * 1024

HEAP_SCRIPT = r"""
import gc, json, sys, time
gc.collect()
base = gc.mem_alloc()
from knockcore.game import Game
gc.collect()
after_import = gc.mem_alloc()
t0 = time.ticks_us()
with open(sys.argv[1]) as f:  # a header line, then one hand per line, as a journal is read
    head = json.loads(f.readline())
    g = Game(head["method"], head["players"], head["start"], head["rules"])
    for line in f:
        g.add(json.loads(line))
t1 = time.ticks_us()
gc.collect()
held = gc.mem_alloc() - after_import
s = g.standings(hands=False)
t2 = time.ticks_us()
print(json.dumps({"import": after_import - base, "held": held, "hands": len(g.hands),
                  "replay_us": time.ticks_diff(t1, t0), "standings_us": time.ticks_diff(t2, t1)}))
"""


def long_game(n_hands=300, seed=1):
    """One method-3 game of 300 hands (a target high enough that it never ends)."""
    rules = {"preset": "seed", "m3_target": 100000}
    return gamegen.random_game(
        random.Random(seed), method=3, max_hands=n_hands, rules=rules
    ).record()


def main():
    with tempfile.TemporaryDirectory() as d:
        built = mpy.build_into(d, "device", modules=["knockcore"])
        sizes = {k.split("/")[-1]: v for k, v in sorted(built.items())}
        total = sum(sizes.values())
        print("shared/ compiled with mpy-cross -O3:")
        for name, size in sizes.items():
            print("  %-14s %6d bytes" % (name, size))
        print(
            "  %-14s %6d bytes (budget %d, %s)"
            % ("total", total, BUDGET, "OK" if total <= BUDGET else "OVER")
        )
        path = os.path.join(d, "session.json")
        rec = long_game()
        with open(path, "w") as f:
            f.write(json.dumps({k: rec[k] for k in ("method", "players", "start", "rules")}) + "\n")
            for h in rec["hands"]:
                f.write(json.dumps(h) + "\n")
        script = os.path.join(d, "heap.py")
        with open(script, "w") as f:
            f.write(HEAP_SCRIPT)
        p = mp.run_file(script, [path], paths=[mpy.lib(d)])
        if p.returncode != 0:
            print(p.stderr)
            return 1
        r = json.loads(p.stdout)
        print("MicroPython unix port (64-bit), -X heapsize=192k, from .mpy:")
        print("  heap after importing the core:     %6d bytes" % r["import"])
        print("  heap holding a %d-hand game:       %6d bytes" % (r["hands"], r["held"]))
        print(
            "  smallest heap that replays it:     %6s KB (peak need, found by bisection)"
            % mp.min_heap(script, [path], [mpy.lib(d)])
        )
        print(
            "  replay %d hands: %.1f ms; standings: %.1f ms (x86-64; a Pico is ~30x slower)"
            % (r["hands"], r["replay_us"] / 1000, r["standings_us"] / 1000)
        )
    return 0 if total <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
