"""The group's book brought up to date after a sync, against the time one evening's report takes
(issue 15: "a book of 10,000 games is brought up to date in about the time one evening's report
takes").

For each size (100, 1,000 and 10,000 games by default): a history of weekly evenings of 4-6 games
among six players, methods 1-3, filled through the calls `knockbox sync` makes (knockbox.sync
with an in-process stand-in for the device, one sync per evening, each on its own date); then,
each as a user runs it (a new `knockbox` process):
  first build   `knockbox book -o DIR` into an empty folder (worker processes: --jobs)
  sync          one new evening synced (in this process: knockbox.sync's own calls)
  book update   `knockbox book -o DIR` again: the new evening's page, its players' pages, the
                index and the ratings of the new games (the pages written are printed)
  report        `knockbox report -o FILE` of the latest evening
Sync and update are repeated 3 times, a new evening each time, and the report 3 times: the best
of each is printed, with the update's ratio to the report. The machine's load average is printed
too: the times are wall times.

With --keep DIR the histories and books are kept there and reused by the next run (a first build
of 10,000 games makes 2,000 evening pages: minutes).

    .venv/bin/python bench/bench_book.py [--sizes 100,1000,10000] [--keep DIR] [--jobs N]
"""
import argparse
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import knockbox  # noqa: E402,F401  (the micropython.const stand-in, before the core)

import evenings as E  # noqa: E402
from gamegen import random_game  # noqa: E402
from knockbox import history, sync  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
KNOCKBOX = [os.path.join(os.path.dirname(sys.executable), "knockbox")]


class Device:
    """The device's journal, grown an evening at a time, served as `knockbox sync` asks."""

    def __init__(self, seed):
        self.rnd = random.Random(seed)
        self.evs = E.journal([])
        self.gid = 1
        self.evenings = 0

    def evening(self):
        if self.evenings:
            self.evs.append({"t": "evening", "next": self.gid})
        for _ in range(self.rnd.randint(4, 6)):
            rec = random_game(self.rnd, until_over=True).record()
            rec["players"] = self.rnd.sample(PLAYERS, 3)
            self.evs += E.journal([rec], first_gid=self.gid)[1:]
            self.gid += 1
        self.evenings += 1

    def sync(self, db):
        """One `knockbox sync`, on the evening's date (one a week from 1990-01-05)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(631497600 + 7 * 86400 * self.evenings))
        history.now = lambda: day + " 21:00:00"
        link = E.Link(self.evs)
        link.request = self._pages
        sync.Sync(link, history.History(db), io.StringIO()).run()

    def _pages(self, op, timeout=None, **a):
        page = [[i + 1, self.evs[i]] for i in range(a["after"], min(a["after"] + 200,
                                                                     len(self.evs)))]
        return {"ok": True, "epoch": 0, "last_seq": len(self.evs), "ev": page}


def run(*args):
    t = time.perf_counter()
    p = subprocess.run(KNOCKBOX + list(args), capture_output=True, text=True, cwd=ROOT)
    if p.returncode:
        sys.exit("knockbox %s: %s" % (" ".join(args), p.stderr.strip()))
    return time.perf_counter() - t, p.stderr


def size(n, folder, jobs):
    db, book = os.path.join(folder, "h.sqlite3"), os.path.join(folder, "book")
    dev = Device(n)
    t = time.perf_counter()
    have = _games(db) if os.path.exists(db) else 0      # kept from an earlier run
    while dev.gid <= max(n, have):
        dev.evening()
        if dev.gid > have + 1:
            dev.sync(db)
    fill = time.perf_counter() - t if dev.gid > have + 1 else None
    first = None if os.path.exists(book) else run("book", "--db", db, "-o", book, "--jobs",
                                                   str(jobs))[0]
    syncs, updates, written = [], [], []
    for _ in range(3):
        dev.evening()
        t = time.perf_counter()
        dev.sync(db)
        syncs.append(time.perf_counter() - t)
        took, err = run("book", "--db", db, "-o", book, "--jobs", str(jobs))
        updates.append(took)
        written.append(err.split(": ", 1)[1].strip())
    out = os.path.join(folder, "evening.html")
    reports = [run("report", "--db", db, "-o", out)[0] for _ in range(3)]
    return {"games": _games(db), "evenings": dev.evenings, "fill": fill, "first": first,
            "sync": min(syncs), "update": min(updates), "written": written[-1],
            "report": min(reports), "mb": _size(book) / 1e6}


def _games(db):
    h = history.History(db)
    try:
        return h.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        h.close()


def _size(folder):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)


def _s(v):
    return "kept" if v is None else "%.1f" % v


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000,10000")
    p.add_argument("--keep", metavar="DIR", help="keep (and reuse) the histories and books here")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    base = a.keep or tempfile.mkdtemp(prefix="kb-bench-book-")
    print("load average %.1f %.1f %.1f, %d CPUs, --jobs %d" % (os.getloadavg() + (
        os.cpu_count(), a.jobs)))
    print("%8s %8s %9s %10s %8s %11s %8s %7s  %s" % (
        "games", "evenings", "fill s", "first s", "sync s", "update s", "report s", "ratio",
        "book MB, pages of the last update"))
    try:
        for n in [int(x) for x in a.sizes.split(",")]:
            folder = os.path.join(base, "n%d" % n)
            os.makedirs(folder, exist_ok=True)
            r = size(n, folder, a.jobs)
            print("%8d %8d %9s %10s %8.3f %11.2f %8.2f %7.2f  %.0f MB, %s" % (
                r["games"], r["evenings"], _s(r["fill"]), _s(r["first"]), r["sync"], r["update"],
                r["report"], r["update"] / r["report"], r["mb"], r["written"]), flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
