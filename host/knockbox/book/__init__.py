"""`knockbox book`: the group's whole history as a folder of static pages that opens from disk
(no network, no scripts, every link relative):

  index.html            the evenings (date, games, each player's net) and the ratings table
  evenings/N.html       evening N as `knockbox report --evening N` shows it (knockbox.report)
  players/NAME-H.html   a player: the statistics of `knockbox stats`, the rating, net and rating
                        over time (inline SVG charts), head to head against each other player,
                        by method, the evenings played (pages(): never one page for two names)
  years/YYYY.html       a book of more than INDEX evenings: the evenings of each year (the index
                        lists the latest INDEX and links to these)
  knockbox-book.json    the manifest: each page's content hash and the inputs it was made from

build(h, folder, lang) brings the folder up to date. The evening is the unit of work: an evening
whose games (their ids, versions, statuses) are what the manifest says keeps its page; its sums
(what its players' pages and the index add up) are kept in the history (knockbox.book.store),
made again only when its games changed. A player's page is made again only when one of the
player's evenings or the player's ratings changed, a year's page when one of its evenings did;
the index is made each time (it lists at most INDEX evenings) and written only when its bytes
differ. An evening page has all the evening's games, however many (`knockbox report` stops
at report.MAX_GAMES). So after a sync of one evening, one evening page, the pages of its
players and its year are made, and nothing read or written grows with the history but the list
of games and the manifest's line per page; with --jobs 2 or more the few evening pages of an
update are made by worker processes meanwhile. Pages the manifest lists that are no longer part of the book are
removed; nothing else in the folder is touched: a manifest's entry that is not a page the book
makes (PAGE), or that leads out of the folder (../, an absolute path, a folder linked
elsewhere), is left alone and dropped from the manifest.

A first build writes the manifest, marked "partial", before anything else: a build that is
stopped (Ctrl-C, a full disk, a kill) leaves a folder the next build takes up, removing the
pages it no longer makes, and the temporary files of a page being written (.knockbox-*.tmp) are
removed.

Worker processes ignore Ctrl-C, and while the book is built only the first Ctrl-C counts (more
while it stops are ignored): the build stops the workers (terminate) and knockbox says
"interrupted" once, so nothing is left running and nothing is half written (pages are written whole, the history's
sums in one transaction). progress(part, done, total) is told how far the pages are
(knockbox.progress on a terminal).
"""
import contextlib
import datetime
import gc
import hashlib
import importlib.metadata
import json
import multiprocessing
import os
import re
import signal

from knockbox import ratings, templating
from knockbox.book import svg
from knockbox.book.folder import FORMAT, MANIFEST, Folder
from knockbox.book.store import COUNTS, VS, Store, sums
from knockbox.book.words import LANGS
from knockbox.errors import UserError

__all__ = ["MANIFEST", "Book", "build", "make_evening", "pages", "slug", "version"]

SUMS = 2                # bump when sums() counts differently: every evening summed again
PAGES = 3               # bump when the code makes different pages from the same history
STATS = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points", "net")
LATEST = 40             # evenings listed on a player's page
INDEX = 60              # evenings listed on the index; a book of more has a page for each year
NET_COLOUR, RATING_COLOUR = "#0969da", "#8250df"     # the report's first and fourth colours
_HERE = os.path.dirname(os.path.abspath(__file__))
_TEMPLATES = ("index.html", "player.html", "style.css", "year.html", "evenings.html")


def version():
    """What the pages are made by: the book's format (PAGES: bumped when the code makes other
    pages), knockbox's release and the templates (the book's and the report's): a book made by
    another makes every page again."""
    try:
        release = importlib.metadata.version("knockbox")
    except importlib.metadata.PackageNotFoundError:
        release = "?"
    h = hashlib.sha256(("%s %d %s" % (FORMAT, PAGES, release)).encode())
    for path in ([os.path.join(os.path.dirname(_HERE), "report", "templates", "report.html")]
                 + [os.path.join(_HERE, "templates", t) for t in _TEMPLATES]):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def slug(name):
    """A player's page name: the name's letters and digits in ASCII, and 64 bits of a hash of
    the whole name (lower case: the same whatever the file system's case or script)."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "player"
    return "%s-%s.html" % (base, hashlib.sha256(name.encode("utf-8")).hexdigest()[:16])


def pages(names):
    """{name: its page's name}: slug(), and should two names ever share one (the hashes of two
    names alike), the later name in order gets slug-2, -3, ...: never one page for two names."""
    out, taken = {}, set()
    for name in sorted(names):
        page, n = slug(name), 1
        while page in taken:
            n += 1
            page = "%s-%d.html" % (slug(name)[:-5], n)
        taken.add(page)
        out[name] = page
    return out


_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True)   # (json.dumps makes one a call)


def _key(*parts):
    return hashlib.sha256(_JSON.encode(parts).encode("utf-8")).hexdigest()[:24]


class Book:
    """One build of the book in folder (see the module's doc)."""

    def __init__(self, h, folder, lang="en", jobs=1, progress=None):
        self.h, self.lang, self.jobs = h, lang, jobs
        self.progress = progress or (lambda part, done, total: None)
        self.words = LANGS[lang]
        self.version = version()
        self.folder = Folder(folder, self.version, lang)
        self.later = None       # (worker processes, [(n, inputs, page to come)]): see _wait()
        self.env = templating.environment(os.path.join(_HERE, "templates"))

    def build(self):
        rows = _rows(self.h)
        if not rows:
            raise UserError("no games yet: `knockbox sync` pulls them from the device")
        # the manifest and the games (an object or more per page and game) are kept to the end:
        # out of the collector's way, whose passes over them cost the update of a long history
        # (10,000 games) a fifth of a second while the evening's charts are drawn
        gc.freeze()
        try:
            with _one_interrupt():
                try:
                    return self._build(rows)
                finally:
                    if self.later:      # (stopped before _wait(): a Ctrl-C, a full disk)
                        _stop(self.later[0])
        finally:
            gc.unfreeze()

    def _build(self, rows):
        self.folder.begin()
        self.store, self.dates = Store(self.h), None     # dates: {evening: day}, when read
        keys = self._evenings(rows)
        rated = ratings.Ratings(self.h)
        tab = rated.table
        players = self.store.players()
        self.page = pages(players)
        summed = {key: inputs for key, inputs in keys.values()}
        for i, name in enumerate(sorted(players)):
            self.progress("player pages", i, len(players))
            self._player(name, sorted(summed[e] for e in players[name]), keys,
                         ratings.of(tab, name), rated)
        self._index(rows, keys, tab, sorted(players))
        self._wait()
        f = self.folder
        f.finish()
        return {"evenings": len(keys) - (None in keys), "players": len(players),
                "written": f.written, "kept": f.kept, "removed": f.removed,
                "anew": f.anew, "foreign": f.foreign}

    def _evenings(self, rows):
        """Make the page of each evening whose games changed (or whose page is not as made) and
        keep the sums of each evening whose games changed; {evening number: (its key in the
        store, the key of its games)}."""
        groups = {}
        for r in rows:
            groups.setdefault(r[5], []).append(r)
        kept = self.store.inputs()
        keys, todo = {}, []         # keys: evening number -> (its key in the store, sums' inputs)
        for n in sorted(groups, key=lambda n: (n is None, n or 0)):
            games = [r[:5] for r in groups[n]]
            key = "" if n is None else groups[n][0][6]
            keys[n] = (key, _key(SUMS, key, games))
            inputs = _key(self.version, self.lang, n, keys[n][1])
            page = n is not None and not self.folder.fresh(_page(n), inputs)
            summed = kept.get(key) == keys[n][1]
            if page or not summed:
                todo.append((n, [r[0] for r in groups[n]], inputs, page, not summed))
        pages = [(n, ids, inputs) for n, ids, inputs, page, _ in todo if page]
        if self.jobs >= 2 and pages and len(todo) < 4 * self.jobs:
            # an update: its few pages made by worker processes meanwhile, written by _wait()
            pool = _pool(min(self.jobs, len(pages)))
            self.later = pool, [(n, inputs, pool.apply_async(_work, ((self.h.path, n, ids,
                                                                      self.lang, True, False),)))
                                for n, ids, inputs in pages]
            todo = [(n, ids, inputs, False, summ) for n, ids, inputs, _, summ in todo if summ]
        made = {}
        with contextlib.closing(self._make(todo)) as each:    # (closed: its workers stopped)
            for i, ((n, _, inputs, page, _), (html, got)) in enumerate(zip(todo, each)):
                self.progress("evening pages" if page else "evenings summed", i + 1, len(todo))
                if page:
                    self.folder.put(_page(n), html, inputs)
                if got is not None:
                    made[keys[n][0]] = (keys[n][1], got)
        self.store.put(made, set(kept) - {k for k, _ in keys.values()})
        return keys

    def _wait(self):
        """Write the evening pages the worker processes made meanwhile."""
        if self.later:
            pool, pending = self.later
            for n, inputs, made in pending:
                self.folder.put(_page(n), made.get()[0], inputs)
            pool.close()
            pool.join()
            self.later = None

    def _make(self, todo):
        """(page or None, sums or None) of each evening to make, in order, each as soon as it
        is made: in worker processes when there are many (a first build), else here."""
        args = [(n, ids, self.lang, page, summ) for n, ids, _, page, summ in todo]
        if self.jobs < 2 or len(todo) < 4 * self.jobs:
            for a in args:
                yield make_evening(self.h, *a)
            return
        pool = _pool(self.jobs)
        try:
            yield from pool.imap(_work, [(self.h.path,) + a for a in args], chunksize=4)
        except BaseException:       # (Ctrl-C, a full disk, the generator closed early)
            _stop(pool)
            raise
        pool.close()
        pool.join()

    def _player(self, name, inputs, keys, rating, rated):
        """The player's page; inputs: the sums' inputs of the player's evenings."""
        path = "players/" + self.page[name]
        vs = self.store.vs(name)
        others = sorted(vs)
        inputs = _key(self.version, self.lang, name, inputs, rated.mark.get(name),
                      [self.page[o] for o in others])
        if self.folder.fresh(path, inputs):
            return
        progress = rated.progress(name)
        w = self.words
        totals = self.store.totals(name)
        methods = [{"method": m, "label": w["method%d" % m], "s": _stats(totals[m])}
                   for m in (1, 2, 3) if m in totals]
        vs = [{"player": o, "href": self.page[o], "v": dict(zip(VS, vs[o]))} for o in others]
        nets = self.store.nets(name)
        played = sorted((n, keys[n][0]) for n in keys if n is not None and keys[n][0] in nets)
        if self.dates is None:
            self.dates = self.store.dates()
        run, xs, ys = 0, [], []
        for n, key in played:
            run += nets[key]
            xs.append(n)
            ys.append(run)
        ctx = {"lang": self.lang, "t": w, "name": name, "rating": rating,
               "s": _stats(totals.get(0, [0] * len(COUNTS))), "stat_keys": STATS,
               "methods": methods, "vs": vs,
               "evenings": [{"n": n, "date": self.dates[key], "net": nets[key]}
                            for n, key in reversed(played[-LATEST:])],
               "net_chart": svg.line(xs, ys, NET_COLOUR, w["net_axis"], w["net_ylabel"], "net")
               if xs else None,
               "rating_chart": svg.line(list(range(1, len(progress) + 1)),
                                        [r for _, r in progress], RATING_COLOUR,
                                        w["rating_axis"], w["rating_ylabel"], "rating")
               if progress else None,
               "style": self._style()}
        self.folder.put(path, self.env.get_template("player.html").render(ctx), inputs)

    def _index(self, rows, keys, tab, names):
        """The index (the latest INDEX evenings) and, in a book of more, the page of each year
        whose evenings changed."""
        w = self.words
        table = sorted(names, key=lambda n: (-ratings.of(tab, n)["rating"], n))
        overall = self.store.overall()
        overall = {n: _stats(overall[n]) for n in names}
        days = sorted(r[3][:10] for r in rows)
        numbers = sorted((n for n in keys if n is not None), reverse=True)
        years = self._years(keys, numbers) if len(numbers) > INDEX else []
        ctx = {"lang": self.lang, "t": w, "style": self._style(),
               "sub": w["sub"] % (len(rows), len(numbers), days[0], days[-1]),
               "evenings": self._listed(keys, numbers[:INDEX], ""),
               "years": years,
               "ratings": [dict(player=n, href="players/" + self.page[n], r=ratings.of(tab, n),
                                s=overall[n]) for n in table],
               "made": max(r[1] for r in rows)[:16]}
        self.folder.put("index.html", self.env.get_template("index.html").render(ctx), None)

    def _listed(self, keys, numbers, up):
        """The evenings numbers as the index and the years list them (links from up)."""
        got = self.store.evenings([keys[n][0] for n in numbers])
        return [dict(got[keys[n][0]], n=n, page=up + _page(n)) for n in numbers]

    def _years(self, keys, numbers):
        """Make each year's page that changed; [{"year", "evenings", "href"}], the latest
        first."""
        if self.dates is None:
            self.dates = self.store.dates()
        years = {}
        for n in numbers:
            years.setdefault(self.dates[keys[n][0]][:4], []).append(n)
        out = []
        self.folder.make("years")
        for year, ns in sorted(years.items(), reverse=True):
            path = "years/%s.html" % year
            inputs = _key(self.version, self.lang, year, [(n, keys[n][1]) for n in ns])
            if not self.folder.fresh(path, inputs):
                ctx = {"lang": self.lang, "t": self.words, "style": self._style(), "year": year,
                       "evenings": self._listed(keys, ns, "../")}
                self.folder.put(path, self.env.get_template("year.html").render(ctx), inputs)
            out.append({"year": year, "evenings": len(ns), "href": path})
        return out

    def _style(self):
        with open(os.path.join(_HERE, "templates", "style.css"), encoding="utf-8") as f:
            return f.read()


def _rows(h):
    """Every game as the book needs it to see what changed: (id, updated, status, synced, hands,
    evening number or None, the evening's key), in the history's order (History.games() without
    the JSON)."""
    return h.db.execute(
        "SELECT g.id, g.updated, g.status, g.synced, g.hands, e.number, g.evening FROM games g "
        "LEFT JOIN evenings e ON e.key = g.evening ORDER BY g.synced, g.device_id, g.epoch, "
        "ABS(g.gid), g.id").fetchall()


def make_evening(h, n, ids, lang, page=True, summ=True):
    """(page, sums) of evening n: page None if n is None or not page, sums None if not
    summ."""
    rows = h.games(ids=ids, detail=True)
    html = None
    if n is not None and page:
        from knockbox import report     # (matplotlib: only when an evening page is made)

        made = max(r["updated"] for r in rows)
        html = report.page(rows, lang=lang, evening=n, now=datetime.datetime.fromisoformat(made),
                           home=("../index.html", LANGS[lang]["home"]), most=None)
    return html, sums(rows) if summ else None


_HISTORIES = {}     # a worker process's history, opened once


def _pool(n):
    """n worker processes that ignore Ctrl-C (SIGINT), from their start: the build stops
    them."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)      # (inherited where they fork)
    try:
        return multiprocessing.Pool(n, initializer=signal.signal,
                                    initargs=(signal.SIGINT, signal.SIG_IGN))
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def _one_interrupt():
    """Ctrl-C (SIGINT) raises KeyboardInterrupt once; more are ignored from then on, while it
    unwinds and knockbox ends (a second Ctrl-C is not a second traceback from wherever it
    lands). Without a Ctrl-C the handler is restored after."""
    got = []

    def first(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        got.append(signum)
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGINT, first)
    except ValueError:      # (not the main thread: signals are not its to handle)
        yield
        return
    try:
        yield
    finally:
        if not got:
            signal.signal(signal.SIGINT, old)


def _stop(pool):
    """End the worker processes now, whatever they are doing (a second Ctrl-C meanwhile is
    not another traceback)."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool.terminate()
        pool.join()
    finally:
        signal.signal(signal.SIGINT, old)


def _work(args):
    from knockbox.history import History

    path = args[0]
    if path not in _HISTORIES:
        _HISTORIES[path] = History(path, create=False)
    return make_evening(_HISTORIES[path], *args[1:])


def _page(n):
    return None if n is None else "evenings/%d.html" % n


def _stats(counts):
    """COUNTS summed as `knockbox stats` shows them (avg_points as it rounds it)."""
    s = dict(zip(COUNTS, counts))
    s["avg_points"] = round(s["points"] / s["hands"], 2) if s["hands"] else 0.0
    return s


def build(h, folder, lang="en", jobs=1, progress=None):
    """Bring the book in folder up to date with history h; returns {"evenings", "players",
    "written", "kept", "removed", "anew", "foreign"}. jobs: processes making evening pages at
    once; progress: see the module's doc."""
    return Book(h, folder, lang, jobs, progress).build()
