"""`knockbox import`'s memory against the size of its file (bench/README.md): the import reads a
record at a time (knockbox.files.json_records), so its peak memory stays flat as the file grows.

For each size, a file of typed-in games (method 3 to a target that is never reached, HANDS hands
each, one date a game: all different games) is written to the scratch folder, and a new process
imports it into an empty history exactly as `knockbox import FILE --db H` does (knockbox.cli.main),
then reports its own peak resident set size (resource.getrusage). Printed per size: the file's
size, the games, the time and the peak RSS; then the ratio of the biggest file's peak to the
smallest's against the ratio of their sizes. Exit code 1 if the peak grows by more than
GROWTH_MAX while the file grows SIZES[-1] / SIZES[0] times.

    .venv/bin/python bench/bench_import_memory.py [--games N N ...] [--hands H] [--scratch DIR]
"""

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import budgets
from kit.gamegen import random_hand
from knockcore.game import Game

SIZES = (1000, 8000)
HANDS = 40
GROWTH_MAX = budgets.IMPORT_GROWTH
CHILD = """
import resource, sys
from knockbox import cli
code = cli.main(["import", sys.argv[1], "--db", sys.argv[2]])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
sys.exit(code)
"""


def write_file(path, games, hands):
    """games typed-in records, one a day, written a record at a time; returns the size."""
    rnd = random.Random(20)
    day = datetime.date(1900, 1, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write("[")
        for i in range(games):
            g = Game(
                3, ["Ann", "Bob", "Cy"], {"dealer": i % 3}, {"preset": "seed", "m3_target": 100000}
            )
            for _ in range(hands):
                g.add(random_hand(g, rnd))
            rec = g.record()
            rec["meta"] = {"synced": (day + datetime.timedelta(days=i)).isoformat()}
            f.write((",\n" if i else "") + json.dumps(rec, separators=(",", ":")))
        f.write("]\n")
    return os.path.getsize(path)


def measure(path, db):
    if os.path.exists(db):
        os.unlink(db)
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CHILD, path, db], capture_output=True, text=True)
    took = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit("import failed: %s" % p.stderr.strip())
    lines = p.stdout.split()
    return took, int(lines[-1]) / 1024, " ".join(lines[:-1])  # ru_maxrss: KB on Linux


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=list(SIZES), metavar="N")
    ap.add_argument("--hands", type=int, default=HANDS)
    ap.add_argument(
        "--scratch", default=os.path.join(tempfile.gettempdir(), "knockbox-bench-import")
    )
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    print("%8s %10s %9s %13s  %s" % ("games", "file MB", "seconds", "peak RSS MB", "output"))
    rows = []
    for n in sorted(a.games):
        path = os.path.join(a.scratch, "games-%d-%d.json" % (n, a.hands))
        size = os.path.getsize(path) if os.path.exists(path) else write_file(path, n, a.hands)
        took, rss, said = measure(path, os.path.join(a.scratch, "h.sqlite3"))
        rows.append((size, rss))
        print("%8d %10.1f %9.1f %13.1f  %s" % (n, size / 1e6, took, rss, said))
    (s0, r0), (s1, r1) = rows[0], rows[-1]
    print("file x%.1f -> peak RSS x%.2f (budget x%.1f)" % (s1 / s0, r1 / r0, GROWTH_MAX))
    return 0 if r1 / r0 <= GROWTH_MAX else 1


if __name__ == "__main__":
    sys.exit(main())
