"""`knockbox import`'s memory against the size of its file (bench/README.md): the import reads a
record at a time (knockbox.files.json_records), so its peak memory stays flat as the file grows.

For each size, a file of typed-in games (method 3 to a target that is never reached, HANDS hands
each, one date a game: all different games) is written to the scratch folder, and a new process
imports it into an empty history exactly as `knockbox import FILE --db H` does (knockbox.cli.main),
then reports its own peak resident set size (resource.getrusage). Printed per size: the file's
size, the games, the time and the peak RSS; then the ratio of the biggest file's peak to the
smallest's against the ratio of their sizes. Exit code 1 if the peak grows by more than
GROWTH_MAX while the file grows SIZES[-1] / SIZES[0] times.

Then one record at the bounds (knockbox.bounds): a record of 250,000 void hands (under
the 4 MB a record could be before: 366 MB to import and 2.4 GB to report then; now refused), and
one of HANDS_MAX void hands (the most a game may have), imported, reported and made into a book,
each by a new process whose peak RSS is printed beside that of the same command on a game of
one hand.

    .venv/bin/python bench/bench_import_memory.py [--games N N ...] [--hands H] [--scratch DIR]
                                                  [--bounds-only]
"""

import argparse
import datetime
import json
import os
import random
import shutil
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
COMMAND = """
import resource, sys
from knockbox import cli
code = cli.main(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
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


def peak(*args):
    """(peak RSS MB, exit code, seconds) of `knockbox ARGS` in a new process."""
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", COMMAND] + list(args), capture_output=True, text=True)
    took = time.perf_counter() - t
    rss, code = p.stdout.split()[-2:]
    return int(rss) / 1024, int(code), took


def bounds(scratch):
    """The memory of import, report and book of one record at the bounds (see the top)."""
    from knockbox.bounds import HANDS_MAX

    def record(hands):
        rec = Game(3, ["Ann", "Bob", "Cy"], {"dealer": 0}, {"preset": "seed"}).record()
        rec["hands"], rec["meta"] = [{"void": True}] * hands, {"synced": "2020-01-01"}
        return [rec]

    print("\none record at the bounds (HANDS_MAX = %d)" % HANDS_MAX)
    print("%-42s %13s %6s %9s" % ("command", "peak RSS MB", "exit", "seconds"))
    for label, hands in (("250,000 void hands", 250_000), ("%d void hands" % HANDS_MAX, HANDS_MAX)):
        path = os.path.join(scratch, "hands-%d.json" % hands)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(record(hands), f, separators=(",", ":"))
        print("  (%s: %.1f MB of JSON)" % (label, os.path.getsize(path) / 1e6))
    for label, hands in (("one hand", 1), ("%d void hands" % HANDS_MAX, HANDS_MAX)):
        path = os.path.join(scratch, "hands-%d.json" % hands)
        if hands == 1:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(record(1), f)
        db = os.path.join(scratch, "bounds-%d.sqlite3" % hands)
        if os.path.exists(db):
            os.unlink(db)
        shutil.rmtree(db + ".book", ignore_errors=True)
        for name, args in (
            ("import", ["import", path, "--db", db]),
            ("report", ["report", "-o", db + ".html", "--db", db]),
            ("book", ["book", "-o", db + ".book", "--db", db, "--jobs", "1"]),
        ):
            rss, code, took = peak(*args)
            print("%-42s %13.1f %6d %9.1f" % ("%s, %s" % (name, label), rss, code, took))
    path = os.path.join(scratch, "hands-250000.json")
    rss, code, took = peak("import", path, "--db", os.path.join(scratch, "refused.sqlite3"))
    print("%-42s %13.1f %6d %9.1f" % ("import, 250,000 void hands (refused)", rss, code, took))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=list(SIZES), metavar="N")
    ap.add_argument("--hands", type=int, default=HANDS)
    ap.add_argument(
        "--scratch", default=os.path.join(tempfile.gettempdir(), "knockbox-bench-import")
    )
    ap.add_argument("--bounds-only", action="store_true", help="only one record at the bounds")
    a = ap.parse_args()
    os.makedirs(a.scratch, exist_ok=True)
    if a.bounds_only:
        bounds(a.scratch)
        return 0
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
    bounds(a.scratch)
    return 0 if r1 / r0 <= GROWTH_MAX else 1


if __name__ == "__main__":
    sys.exit(main())
