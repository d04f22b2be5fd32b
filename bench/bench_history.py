"""The laptop's history at any size (bench/README.md): each command's time at 100, 1,000 and 10,000
games (30,000 with --big), and its ratio to its time at 100 games.

The histories are filled through the calls `knockbox sync` makes (knockbox.link.sync.Sync over a
stand-in link serving the device's journal in pages, one sync per evening, the clock set to the
evening's date): one device, weekly evenings of 4-6 games, six players, methods 1-3 drawn at
random (seeded: the same histories every run), each game played to its end (the evening's last
game sometimes left unfinished). They are cached in the scratch folder (--scratch DIR, default
$TMPDIR/knockbox-bench-history), so that a rerun only measures.

Each command runs as a user runs it, a new `knockbox` process on a copy of the history, best of 3:
history, show LAST, stats, stats --json, settle --evening, export --json, report (the latest
evening), import (export --json's file into an empty history), and a sync of one new evening (a
new process running Sync against a fresh copy; its own time inside that process is printed too).

Budgets (bench/README.md, bench/budgets.py): each command's time at 10,000 games within
HISTORY_WITHIN[command] times its time at 100; import and export linear (their time per game at
10,000 within HISTORY_LINEAR times that at 1,000). Exit code 1 if one is not met.

    .venv/bin/python bench/bench_history.py [--big] [--scratch DIR] [--runs N]
"""

import io
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
from kit.gamegen import random_hand, random_start
from knockbox import history
from knockbox.link import sync
from knockcore import events
from knockcore.game import Game
from knockcore.proto import EVENTS_MAX

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
DEV = "b0a1c2d3e4f5a6b7"
GENERATOR = 1  # bump when the histories made change: the cache is rebuilt
KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
SIZES = (100, 1000, 10000)
MARKS = SIZES + (30000,)
BUDGET = budgets.HISTORY_WITHIN
LINEAR = ("export --json", "import")
LINEAR_SLACK = budgets.HISTORY_LINEAR


class Link:
    """Stands in for serialio.Connection: a device whose journal is `evs`, in pages of the
    protocol's EVENTS_MAX."""

    def __init__(self, evs, base=0):
        self.evs = evs  # the journal's records from seq base + 1 on (a sync asks no earlier)
        self.base = base

    def hello(self):
        return {
            "ok": True,
            "device": DEV,
            "epoch": 0,
            "last_seq": self.base + len(self.evs),
            "format": "knockbox-game/1",
            "board": "bench",
            "fw": "0",
        }

    def events(self, after=0, limit=EVENTS_MAX):
        last = self.base + len(self.evs)
        page = [[i + 1, self.evs[i - self.base]] for i in range(after, min(after + limit, last))]
        return {"ok": True, "epoch": 0, "last_seq": last, "ev": page}


def evenings(rnd):
    """Evenings without end: [game events of one evening], each starting with its evening
    record (but the first); 100, 1,000, 10,000 and 30,000 games are evening boundaries, so
    every size's history is the start of the bigger ones'."""
    gid, k = 1, 0
    while True:
        n = rnd.randint(4, 6)
        for m in MARKS:
            if gid - 1 < m < gid - 1 + n:
                n = m - (gid - 1)
        evs = [] if gid == 1 else [events.evening(gid)]
        for i in range(n):
            evs += game(gid, rnd, unfinished=i == n - 1 and rnd.random() < 0.2)
            gid += 1
        yield k, gid - 1, evs
        k += 1


def game(gid, rnd, unfinished=False):
    method = rnd.randint(1, 3)
    players = rnd.sample(PLAYERS, 3)
    g = Game(method, players, random_start(method, rnd), {"preset": "seed"})
    evs = [{"t": "game", "g": gid, "rec": {k: v for k, v in g.record().items() if k != "hands"}}]
    stop = rnd.randint(2, 8) if unfinished else None
    while not g.over and (stop is None or len(g.hands) < stop):
        h = random_hand(g, rnd)
        g.add(h)
        evs.append({"t": "hand", "g": gid, "h": h})
    return evs


def day(k):
    """The date of the k-th weekly evening (Fridays from 1990-01-05)."""
    import datetime

    d = datetime.date(1990, 1, 5) + datetime.timedelta(days=7 * k)
    return d.isoformat()


def sync_evening(path, journal, k, base=0):
    """One `knockbox sync` of the journal so far (its records from seq base + 1), on evening k's
    date."""
    real = history.now
    history.now = lambda: day(k) + " 23:%02d:00" % (k % 60)
    try:
        h = history.History(path)
        s = sync.Sync(Link(journal, base), h, io.StringIO()).run()
        h.close()
    finally:
        history.now = real
    return s


def fill(scratch, sizes):
    """{size: (history file (cached), the journal up to it and one more evening, that
    evening's number)}."""
    files = {n: os.path.join(scratch, "history-%d-g%d.sqlite3" % (n, GENERATOR)) for n in sizes}
    cached = all(os.path.exists(f) for f in files.values())
    if cached:
        for f in files.values():
            history.History(f).close()  # what a newer knockbox adds on opening, kept
    work = os.path.join(scratch, "filling.sqlite3")
    if not cached and os.path.exists(work):
        os.unlink(work)
    journal = [{"t": "epoch", "e": 0, "dev": DEV, "next": 1}]
    out, t, want = {}, time.time(), None
    for k, games, evs in evenings(random.Random(15)):
        journal += evs
        if want is not None:
            out[want] = (files[want], list(journal), k)
            want = None
            if len(out) == len(sizes):
                break
        if not cached:
            sync_evening(work, journal, k)
        if games in files:
            want = games
            if not cached:
                shutil.copy(work, files[games])
                print(
                    "  filled %d games in %.0f s (%d syncs, %.1f MB)"
                    % (games, time.time() - t, k + 1, os.path.getsize(work) / 1e6),
                    flush=True,
                )
    if not cached:
        os.unlink(work)
    return out


def run(args, cwd):
    """Seconds a new `knockbox ARGS` process takes (its output thrown away)."""
    t = time.perf_counter()
    p = subprocess.run(
        [KNOCKBOX] + args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit("knockbox %s failed: %s" % (" ".join(args), p.stderr))
    return dt


def best(f, runs):
    return min(f() for _ in range(runs))


def measure(path, journal, k, work, runs):
    """{command: seconds} on a copy of the history at path."""
    db = os.path.join(work, "h.sqlite3")
    shutil.copy(path, db)
    h = history.History(db)
    last = h.db.execute("SELECT MAX(id) FROM games").fetchone()[0]
    h.close()
    out = {}
    cmds = [
        ("history", ["history"]),
        ("show LAST", ["show", str(last)]),
        ("stats", ["stats"]),
        ("stats --json", ["stats", "--json"]),
        ("settle --evening", ["settle", "--evening"]),
        ("export --json", ["export", "--json", "-o", os.path.join(work, "all.json")]),
        ("report (latest evening)", ["report", "-o", os.path.join(work, "r.html")]),
    ]
    for name, args in cmds:
        out[name] = best(lambda a=args: run(a + ["--db", db], work), runs)

    def imp():
        fresh = os.path.join(work, "imported.sqlite3")
        if os.path.exists(fresh):
            os.unlink(fresh)
        return run(["import", os.path.join(work, "all.json"), "--db", fresh], work)

    out["import"] = best(imp, runs)

    # what the device sends: the new evening, after the last record the history holds
    journal_file = os.path.join(work, "journal.json")
    base = len(journal) - 2
    while journal[base + 1]["t"] != "evening":
        base -= 1
    with open(journal_file, "w") as f:
        json.dump({"base": base, "evs": journal[base:]}, f)

    def one_evening(inside):
        copy = os.path.join(work, "s.sqlite3")
        shutil.copy(path, copy)
        if not inside:  # a new process, as the other commands (its own sync: below)
            t = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    os.path.abspath(__file__),
                    "--sync-one",
                    copy,
                    journal_file,
                    str(k),
                ],
                check=True,
            )
            return time.perf_counter() - t
        t = time.perf_counter()
        s = sync_evening(copy, journal, k)
        dt = time.perf_counter() - t
        assert s.results["new"] >= 4 and s.new_events > s.results["new"], s.summary()
        return dt

    out["sync of one evening"] = best(lambda: one_evening(False), runs)
    out["(that sync inside its process)"] = best(lambda: one_evening(True), runs)
    return out


def sync_one(db, journal_file, k):
    """A process that syncs one new evening (the journal's last) into db: what `knockbox sync`
    does, with the stand-in link."""
    with open(journal_file) as f:
        tail = json.load(f)
    s = sync_evening(db, tail["evs"], int(k), tail["base"])
    if not (s.results["new"] >= 4 and s.new_events > s.results["new"]):
        raise SystemExit(s.summary())
    return 0


def main():
    args = sys.argv[1:]
    if args[:1] == ["--sync-one"]:
        return sync_one(*args[1:4])
    big = "--big" in args
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 3
    scratch = (
        args[args.index("--scratch") + 1]
        if "--scratch" in args
        else os.path.join(tempfile.gettempdir(), "knockbox-bench-history")
    )
    os.makedirs(scratch, exist_ok=True)
    sizes = SIZES + ((30000,) if big else ())
    print(
        "history bench: one device, weekly evenings of 4-6 games, six players (scratch: %s)"
        % scratch
    )
    t0 = time.time()
    results = {}
    for n, (path, journal, k) in sorted(fill(scratch, sizes).items()):
        work = tempfile.mkdtemp(prefix="knockbox-bench-h%d-" % n, dir=scratch)
        try:
            results[n] = measure(path, journal, k, work, runs)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        print("  measured %d games" % n, flush=True)
    return report(results, sizes, time.time() - t0)


def report(results, sizes, wall):
    names = list(results[sizes[0]])
    w = max(len(x) for x in names)
    print(
        "\n%-*s  %s"
        % (w, "command (best of 3, s)", "  ".join("%9s" % ("%d games" % n) for n in sizes))
    )
    for name in names:
        cells = ["%9.3f" % results[n][name] for n in sizes]
        print("%-*s  %s" % (w, name, "  ".join(cells)))
    print("\nratio to 100 games, and the budget at 10,000:")
    ok = True
    base = sizes[0]
    for name in names:
        ratios = ["%6.2fx" % (results[n][name] / results[base][name]) for n in sizes[1:]]
        r = results[10000][name] / results[base][name]
        if name.startswith("("):
            verdict = "(the sync's own time: the machine's disk and load show most in it)"
            print("  %-*s  %s   %s" % (w, name, "  ".join(ratios), verdict))
            continue
        if name in BUDGET:
            met = r <= BUDGET[name]
            verdict = "within %gx: %s" % (BUDGET[name], "met" if met else "NOT MET")
        else:
            per = (results[10000][name] / 10000) / (results[1000][name] / 1000)
            met = per <= LINEAR_SLACK
            verdict = "linear: per game at 10,000 = %.2fx that at 1,000 (<= %.1fx): %s" % (
                per,
                LINEAR_SLACK,
                "met" if met else "NOT MET",
            )
        ok = ok and met
        print("  %-*s  %s   %s" % (w, name, "  ".join(ratios), verdict))
    print("\n%s (%.0f s wall)" % ("every budget met" if ok else "SOME BUDGETS NOT MET", wall))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
