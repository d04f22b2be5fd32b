"""The group's book brought up to date after a sync, against the time one evening's report takes
(its budget in bench/README.md: a book of 10,000 games is brought up to date in about the time one
evening's report takes).

The histories are bench_history.py's (the same cache in its scratch folder: one device, weekly
evenings of 4-6 games, six players, methods 1-3, filled through the calls `knockbox sync` makes).
For each size (100, 1,000 and 10,000 games), each command as a user runs it (a new `knockbox`
process):
  first build   `knockbox book -o DIR` of the whole history into an empty folder (evening pages
                in worker processes, --jobs); kept in the scratch folder with the history as it
                left it (ratings stored), per book version, so that a rerun only measures
  book update   one new evening synced (knockbox.link.sync's calls, on a copy of that history), then
                `knockbox book -o DIR` again: the evening's page, its players' pages, the index,
                the new games' ratings (the pages written are printed); the book is put back as
                it was after each run
  report        `knockbox report -o FILE` of that new evening (the latest)
Best of 3 each, the update and the report taken in turns (the same load on both). Budget (bench/budgets.py BOOK_UPDATE): the update within
that many times the report's time at every size (exit code 1 if not).

A first build of 10,000 games makes 2,000 evening pages (the report's matplotlib charts: about
half an hour on two idle cores). --parts measures, in this process, what an update costs beyond
the new evening's page at each size, without a first build: the book's own build with a
stand-in for each evening's page (the real sums), of the whole history (not timed), then after
a sync of one more evening again, timed part by part: the manifest read and written, the games
read, the new evening's sums made and kept in the history, the ratings (the new games rated),
the pages of its players, the index and its year's page, and the rest (each evening's inputs
keys, the pages' checks), the best of 3; and the whole update as a user runs it (a new
`knockbox book` process on that folder of stand-in pages: the new evening's page is real)
against `knockbox report` of the latest evening (a new process), best of 3 taken in turns, with
the same budget (exit code 1 if not met).
Times are wall times: the load average is printed with them.

    .venv/bin/python bench/bench_book.py [--sizes 100,1000,10000] [--scratch DIR] [--jobs N]
    .venv/bin/python bench/bench_book.py --parts [--sizes ...]
"""

import argparse
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import bench_history as BH
import budgets
from knockbox import book

BUDGET = budgets.BOOK_UPDATE  # the update's time at most this many times the report's


def knockbox(args, cwd):
    """(seconds, stderr) of a new `knockbox ARGS` process."""
    t = time.perf_counter()
    p = subprocess.run(
        [BH.KNOCKBOX] + args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit("knockbox %s failed: %s" % (" ".join(args), p.stderr))
    return dt, p.stderr


def first_build(n, path, scratch, jobs):
    """(folder of the cached first build, its history, seconds or None if cached)."""
    base = os.path.join(scratch, "book-%d-g%d-%s" % (n, BH.GENERATOR, book.version()))
    folder, db = os.path.join(base, "book"), os.path.join(base, "h.sqlite3")
    if os.path.exists(os.path.join(base, "done")):
        return folder, db, None
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    shutil.copy(path, db)
    took = knockbox(["book", "--db", db, "-o", folder, "--jobs", str(jobs), "--lang", "en"], base)[
        0
    ]
    open(os.path.join(base, "done"), "w").close()
    return folder, db, took


def _listed(folder, sub):
    return (
        [sub + "/" + f for f in os.listdir(os.path.join(folder, sub))]
        if os.path.isdir(os.path.join(folder, sub))
        else []
    )


def saved(folder):
    """What an update may change in the book (the manifest, the index, the player and year
    pages) and the evening pages it has: put back by restore()."""
    keep = {}
    for rel in (
        ["knockbox-book.json", "index.html"] + _listed(folder, "players") + _listed(folder, "years")
    ):
        with open(os.path.join(folder, rel), "rb") as f:
            keep[rel] = (f.read(), os.stat(os.path.join(folder, rel)).st_mtime_ns)
    return keep, set(os.listdir(os.path.join(folder, "evenings")))


def restore(folder, state):
    keep, evenings = state
    for f in set(os.listdir(os.path.join(folder, "evenings"))) - evenings:
        os.unlink(os.path.join(folder, "evenings", f))
    for rel in _listed(folder, "players") + _listed(folder, "years"):
        if rel not in keep:
            os.unlink(os.path.join(folder, rel))
    for rel, (data, mtime) in keep.items():
        with open(os.path.join(folder, rel), "wb") as f:
            f.write(data)
        os.utime(os.path.join(folder, rel), ns=(mtime, mtime))


def measure(n, path, journal, k, scratch, jobs, runs):
    folder, built_db, first = first_build(n, path, scratch, jobs)
    work = tempfile.mkdtemp(prefix="knockbox-bench-book-", dir=scratch)
    state = saved(folder)
    updates, reports, written = [], [], ""
    try:
        db = os.path.join(work, "h.sqlite3")
        for _ in range(runs):  # the update and the report in turns: the same load
            shutil.copy(built_db, db)
            BH.sync_evening(db, journal, k)
            took, err = knockbox(["book", "--db", db, "-o", folder, "--lang", "en"], work)
            restore(folder, state)
            updates.append(took)
            written = err.rsplit(": ", 1)[1].strip()
            reports.append(
                knockbox(
                    ["report", "--db", db, "-o", os.path.join(work, "r.html"), "--lang", "en"], work
                )[0]
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    mb = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
    return {
        "first": first,
        "update": min(updates),
        "report": min(reports),
        "written": written,
        "mb": mb / 1e6,
        "evenings": len(state[1]),
    }


class _Timed:
    """Calls of fn, timed into out[part]."""

    def __init__(self, out, part, fn):
        self.out, self.part, self.fn = out, part, fn

    def __call__(self, *args, **kw):
        t = time.perf_counter()
        try:
            return self.fn(*args, **kw)
        finally:
            self.out[self.part] = self.out.get(self.part, 0) + time.perf_counter() - t

    def __get__(self, obj, cls=None):  # (a method: bound as one)
        return self if obj is None else functools.partial(self, obj)


_MAKE_EVENING = book.make_evening


def _no_page(h, n, ids, lang, page=True, summ=True):
    """book.make_evening without the report: a stand-in page, the real sums."""
    html, got = _MAKE_EVENING(h, n, ids, lang, False, summ)
    return ("<p>evening %s</p>" % n if n is not None and page else None), got


def parts(path, journal, k, scratch, runs=3):
    """{part: seconds} of an update beyond the new evening's page, on the history at path:
    the book's own build (knockbox.book.Book) with each evening page a stand-in, first of the
    whole history (not timed: it sums every evening), then, after a sync of one more evening,
    again, timed part by part (the best of runs, each on a copy of the first)."""
    work = tempfile.mkdtemp(prefix="knockbox-bench-parts-", dir=scratch)
    real = book.make_evening
    try:
        base, folder = os.path.join(work, "base.sqlite3"), os.path.join(work, "base")
        shutil.copy(path, base)
        book.make_evening = _no_page
        h = BH.history.History(base)
        book.Book(h, folder, "en").build()
        h.close()
        best, updates, reports = None, [], []
        db, copy = os.path.join(work, "h.sqlite3"), os.path.join(work, "book")
        for _ in range(runs):
            for whole in (False, True):
                shutil.copy(base, db)
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(folder, copy)  # (mtimes kept: the pages are as built)
                BH.sync_evening(db, journal, k)
                if whole:  # the command as a user runs it (its evening page real)
                    updates.append(
                        knockbox(["book", "--db", db, "-o", copy, "--lang", "en"], work)[0]
                    )
                    reports.append(
                        knockbox(
                            [
                                "report",
                                "--db",
                                db,
                                "-o",
                                os.path.join(work, "r.html"),
                                "--lang",
                                "en",
                            ],
                            work,
                        )[0]
                    )
                    continue
                got = _update(db, copy)
                if best is None or sum(got[0].values()) < sum(best[0].values()):
                    best = got
        out, done, size = best
        out["report"], out["update"] = min(reports), min(updates)
        return out, done, size
    finally:
        book.make_evening = real
        shutil.rmtree(work, ignore_errors=True)


def _update(db, folder):
    """(parts, what build() returned, the manifest's size) of one update of the book."""
    out = {}
    t = time.perf_counter()
    h = BH.history.History(db)
    b = book.Book(h, folder, "en")
    out["manifest"] = time.perf_counter() - t
    saved = (book._rows, book.Store.put, book.ratings.Ratings)
    book._rows = _Timed(out, "games read", book._rows)
    book.Store.put = _Timed(out, "sums kept", book.Store.put)
    book.ratings.Ratings = _Timed(out, "ratings", book.ratings.Ratings)
    b._make = _Timed(out, "new sums", b._make)
    b._player = _Timed(out, "player pages", b._player)
    b._index = _Timed(out, "index, year", b._index)
    b.folder.finish = _Timed(out, "manifest", b.folder.finish)
    try:
        t = time.perf_counter()
        done = b.build()
        whole = time.perf_counter() - t + out["manifest"]
    finally:
        book._rows, book.Store.put, book.ratings.Ratings = saved
    h.close()
    out["the rest"] = whole - sum(out.values())
    return out, done, os.path.getsize(os.path.join(folder, book.MANIFEST))


def main_parts(a, sizes):
    results = {}
    for n, (path, journal, k) in sorted(BH.fill(a.scratch, sizes).items()):
        results[n] = parts(path, journal, k, a.scratch, a.runs)
        print("  measured %d games" % n, flush=True)
    names = list(results[sizes[0]][0])
    print("\n%-14s %s" % ("part (s)", " ".join("%12s" % ("%d games" % n) for n in sizes)))

    def total(n):
        return sum(v for k, v in results[n][0].items() if k not in ("report", "update"))

    for name in [x for x in names if x not in ("report", "update")] + ["all", "report"]:
        print(
            "%-14s %s"
            % (
                name,
                " ".join(
                    "%12.3f" % (total(n) if name == "all" else results[n][0][name]) for n in sizes
                ),
            )
        )
    print(
        "%-14s %s"
        % (
            "all / report",
            " ".join("%11.2fx" % (total(n) / results[n][0]["report"]) for n in sizes),
        )
    )
    print("%-14s %s" % ("update", " ".join("%12.3f" % results[n][0]["update"] for n in sizes)))
    ratios = [results[n][0]["update"] / results[n][0]["report"] for n in sizes]
    print("%-14s %s" % ("update/report", " ".join("%11.2fx" % r for r in ratios)))
    print("%-14s %s" % ("evenings", " ".join("%12d" % results[n][1]["evenings"] for n in sizes)))
    print(
        "%-14s %s" % ("pages written", " ".join("%12d" % results[n][1]["written"] for n in sizes))
    )
    print("%-14s %s" % ("manifest MB", " ".join("%12.1f" % (results[n][2] / 1e6) for n in sizes)))
    print(
        "\n(update: `knockbox book` as a user runs it, in a new process, on that book of "
        "stand-in evening pages\n after the sync: the new evening's page is real; the best of "
        "%d, taken in turns with the report;\n within %gx of the report at every size: %s; "
        "load average %.1f)"
        % (a.runs, BUDGET, "met" if max(ratios) <= BUDGET else "NOT MET", os.getloadavg()[0])
    )
    return 0 if max(ratios) <= BUDGET else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000,10000")
    p.add_argument(
        "--scratch", default=os.path.join(tempfile.gettempdir(), "knockbox-bench-history")
    )
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument(
        "--parts",
        action="store_true",
        help="the update's parts that grow with the history, in this process",
    )
    a = p.parse_args()
    sizes = tuple(int(x) for x in a.sizes.split(","))
    os.makedirs(a.scratch, exist_ok=True)
    if a.parts:
        return main_parts(a, sizes)
    print(
        "book bench (scratch: %s), load average %.1f %.1f %.1f, %d CPUs, --jobs %d"
        % ((a.scratch,) + os.getloadavg() + (os.cpu_count(), a.jobs)),
        flush=True,
    )
    ok, rows = True, []
    for n, (path, journal, k) in sorted(BH.fill(a.scratch, sizes).items()):
        r = measure(n, path, journal, k, a.scratch, a.jobs, a.runs)
        ratio = r["update"] / r["report"]
        ok = ok and ratio <= BUDGET
        rows.append((n, r, ratio))
        print(
            "  measured %d games: first build %s, update %.2f s, report %.2f s"
            % (
                n,
                "cached" if r["first"] is None else "%.0f s" % r["first"],
                r["update"],
                r["report"],
            ),
            flush=True,
        )
    print(
        "\n%8s %9s %12s %11s %10s %7s  %s"
        % (
            "games",
            "evenings",
            "first build",
            "update s",
            "report s",
            "ratio",
            "book; the update's pages",
        )
    )
    for n, r, ratio in rows:
        print(
            "%8d %9d %12s %11.2f %10.2f %6.2fx  %.0f MB; %s"
            % (
                n,
                r["evenings"],
                "cached" if r["first"] is None else "%.0f s" % r["first"],
                r["update"],
                r["report"],
                ratio,
                r["mb"],
                r["written"],
            )
        )
    print(
        "\nthe update within %gx of one evening's report at every size: %s (load average "
        "%.1f)" % (BUDGET, "met" if ok else "NOT MET", os.getloadavg()[0])
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
