"""Realistic hands for bench/bench_entry.py and bench/bench_battery.py: two-player gin rummy played
by OpenSpiel's `gin_rummy` with its simple bot on both sides (the `open-spiel` package, the
project's `bench` extra: `pip install -e .[bench]`; nothing else in Knockbox needs it), written
to bench/hands.json. Run: python bench/gen_hands.py [--check]

Each hand of the file is what a player tells Knockbox: for methods 1 and 2, [knocker's count,
opponent's count] (the opponent's after his lay-offs, as OpenSpiel scores it; a knocker's 0 is
gin, and the opponent's count then is his whole count, nobody lays off on gin), or null for a
void hand (the stock ran down). Method 3 is three-handed and OpenSpiel's gin is two-handed, so a
method-3 hand [knocker, first opponent, second opponent] is made from two simulated hands of the
same kind: the knocker's and the first opponent's counts from one, the second opponent's count
from the next hand that ended the same way (a knock, or a gin: a gin's opponents both give their
whole counts). In method 3 both opponents lay off on the knocker's melds only, as the opponent
does in two-handed gin.

Two sets from different seeds: "tune" (what the keys were tuned on) and "report" (what the bench
reports on). --check prints the counts' distribution of each set and changes nothing.
"""

import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "hands.json")
SETS = {"tune": 1, "report": 2}  # seed of each set
TWO = 2000  # two-player hands a set has (methods 1 and 2 play half each)
THREE = 1000  # method-3 hands a set has


def play(n, seed):
    """n two-player hands of OpenSpiel's gin rummy, the simple bot on both sides: [knocker's
    count, opponent's count] each, or None for a hand nobody knocked."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = game.new_initial_state()
        for b in bots:
            b.restart()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _p in s.chance_outcomes()]))
            else:
                s.apply_action(bots[s.current_player()].step(s))
        st = s.to_struct()
        knocked = list(st.knocked)
        if True not in knocked:
            out.append(None)
            continue
        k = knocked.index(True)
        out.append([st.deadwood[k], st.deadwood[1 - k]])
    return out


def three(hands):
    """Method-3 hands from two-player ones (see the module's docstring)."""
    out = []
    for i, h in enumerate(hands):
        if h is None:
            out.append(None)
            continue
        gin = h[0] == 0
        for j in range(i + 1, len(hands) + i):
            g = hands[j % len(hands)]
            if g is not None and (g[0] == 0) == gin:
                out.append([h[0], h[1], g[1]])
                break
    return out


def stats(hands):
    from statistics import mean, median

    knocks = [h for h in hands if h is not None]
    k = [h[0] for h in knocks]
    o = sorted(c for h in knocks if h[0] for c in h[1:])
    g = [c for h in knocks if not h[0] for c in h[1:]]
    return (
        "%d hands, %d void, %.1f%% gin; knocker mean %.1f median %g; opponent after lay-offs "
        "mean %.1f median %g p90 %d max %d; after gin mean %.1f"
        % (
            len(hands),
            len(hands) - len(knocks),
            100.0 * (len(k) - len([x for x in k if x])) / len(hands),
            mean(k),
            median(k),
            mean(o),
            median(o),
            o[int(0.9 * len(o))],
            o[-1],
            mean(g) if g else 0,
        )
    )


def main(argv):
    if "--check" in argv:
        with open(OUT, encoding="utf-8") as f:
            data = json.load(f)
        for name in SETS:
            for kind in ("two", "three"):
                print("%s %s: %s" % (name, kind, stats(data[name][kind])))
        return 0
    data = {"source": __doc__.split("\n\n")[0].replace("\n", " ")}
    for name, seed in SETS.items():
        two = play(TWO, seed)
        data[name] = {"two": two, "three": three(play(THREE, seed + 100))}
        print("%s two: %s" % (name, stats(two)))
        print("%s three: %s" % (name, stats(data[name]["three"])))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write('"source": %s,\n' % json.dumps(data["source"]))
        for i, name in enumerate(SETS):
            f.write('"%s": {\n' % name)
            for kind in ("two", "three"):
                rows = ",\n".join(json.dumps(h) for h in data[name][kind])
                f.write('"%s": [\n%s\n]%s\n' % (kind, rows, "," if kind == "two" else ""))
            f.write("}%s\n" % ("," if i + 1 < len(SETS) else ""))
        f.write("}\n")
    print("wrote " + os.path.relpath(OUT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
