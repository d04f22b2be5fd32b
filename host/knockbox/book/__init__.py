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
(what its players' pages and the index add up) are kept in the history (knockbox.book.sums),
made again only when its games changed. A player's page is made again only when one of the
player's evenings or the player's ratings changed, a year's page when one of its evenings did;
the index is made each time (it lists at most INDEX evenings) and written only when its bytes
differ. An evening page has all the evening's games, however many (`knockbox report` stops
at report.MAX_GAMES). So after a sync of one evening, one evening page, the pages of its
players and its year are made, and nothing read or written grows with the history but the list
of games and the manifest's line per page; with --jobs 2 or more the few evening pages of an
update are made by worker processes meanwhile. Pages the manifest lists that are no longer part of the book are
removed; nothing else in the folder is touched: a manifest's entry that is not a page the book
makes (folder.PAGE), or that leads out of the folder (../, an absolute path, a folder linked
elsewhere), is left alone and dropped from the manifest.

Every page is listed in the manifest before it is written, and the pages made are put in it now
and then and when a build stops (folder.Folder.plan, CHECKPOINT): a build that is stopped
(Ctrl-C, a full disk, a kill) leaves a folder the next build takes up, keeping the pages made
from the same inputs (it makes and writes only what is missing or changed) and removing those it
no longer makes; a file the manifest does not list is never written over nor removed, and a
folder of the book that is a link is refused (the book writes only inside its folder). The
temporary files of a page being written (.knockbox-*.tmp) are removed. One build per folder at
a time: build() holds a lock on the folder (knockbox.locks) while it works.

Worker processes ignore Ctrl-C, and while the book is built only the first Ctrl-C counts (more
while it stops are ignored): the build stops the workers (terminate) and knockbox says
"interrupted" once, so nothing is left running and nothing is half written (pages are written whole, the history's
sums in one transaction). progress(part, done, total) is told how far the pages are
(knockbox.progress on a terminal).

The book's parts, each a class or module by its role, composed by Book (one update):

  folder.Folder     the folder and its manifest: what the last build wrote, whether a page is
                    still as made (fresh), writing a page, removing what is no longer made, and
                    only inside the folder
  sums.EveningSums  the cache of evenings' sums in the history
  render.Pages      the pages as HTML (index, years, players) from the sums and the ratings;
                    render.pages(): the players' page names; render.version()
  workers           an evening's page and sums (make_evening), here or in worker processes,
                    and Ctrl-C meanwhile
  Book              an update: which evenings changed, which pages to make again (the inputs
                    each was made from), and in what order
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
from typing import Any, TYPE_CHECKING

from knockbox import locks, ratings
from knockbox.book import render, workers
from knockbox.book.folder import MANIFEST, Folder
from knockbox.book.render import Pages, evening_page, pages, slug, version
from knockbox.book.sums import EveningSums, Summed
from knockbox.book.workers import make_evening
from knockbox.usererror import UserError
from knockbox.history.schema import named

if TYPE_CHECKING:
    from collections.abc import Callable
    from knockbox.history import History
    from knockbox.records import Record
    from collections.abc import Generator

__all__ = ["MANIFEST", "Book", "build", "make_evening", "pages", "slug", "version"]

SUMS = 2  # bump when sums() counts differently: every evening summed again
KEEP_SUMS = 100  # evenings summed between two writes of their sums into the history
_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True)  # (json.dumps makes one a call)


def _key(*parts: object) -> str:
    return hashlib.sha256(_JSON.encode(parts).encode("utf-8")).hexdigest()[:24]


class Book:
    """One build of the book in folder (see the module's doc): the Folder, the Store of sums and
    the Pages, run in order."""

    def __init__(
        self,
        h: History,
        folder: str,
        lang: str = "en",
        jobs: int = 1,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> None:
        self.h, self.lang, self.jobs = h, lang, jobs
        self.progress = progress or (lambda part, done, total: None)
        self.version = version()
        self.folder = Folder(folder, self.version, lang)
        # (worker processes, [(n, inputs, page to come)]): see _wait()
        self.later: tuple[Any, list[Any]] | None = None

    def build(self) -> Record:
        rows = _rows(self.h)
        if not rows:
            raise UserError("no games yet: `knockbox sync` pulls them from the device")
        # the manifest and the games (an object or more per page and game) are kept to the end:
        # out of the collector's way, whose passes over them cost the update of a long history
        # (10,000 games) a fifth of a second while the evening's charts are drawn
        gc.freeze()
        try:
            with workers.one_interrupt():
                try:
                    return self._build(rows)
                except BaseException:  # (a Ctrl-C, a full disk: the pages made are kept)
                    self.folder.stopped()
                    raise
                finally:
                    if self.later:  # (stopped before _wait(): a Ctrl-C, a full disk)
                        workers.stop(self.later[0])
        finally:
            gc.unfreeze()

    def _build(self, rows: list[Any]) -> Record:
        self.folder.begin()
        self.store = EveningSums(self.h)
        keys = self._evenings(rows)
        rated = ratings.Ratings(self.h)
        tab = rated.table
        players = self.store.players()
        self.pages = Pages(self.store, self.lang, pages(players))
        summed = {key: inputs for key, inputs in keys.values()}
        self.folder.plan(["players/" + self.pages.page[name] for name in sorted(players)])
        for i, name in enumerate(sorted(players)):
            self.progress("player pages", i, len(players))
            self._player(
                name, sorted(summed[e] for e in players[name]), keys, ratings.of(tab, name), rated
            )
        self._index(rows, keys, tab, sorted(players))
        self._wait()
        f = self.folder
        f.finish()
        return {
            "evenings": len(keys) - (None in keys),
            "players": len(players),
            "written": f.written,
            "kept": f.kept,
            "removed": f.removed,
            "anew": f.anew,
            "foreign": f.foreign,
        }

    def _evenings(self, rows: list[Any]) -> dict[Any, Any]:
        """Make the page of each evening whose games changed (or whose page is not as made) and
        keep the sums of each evening whose games changed; {evening number: sums.Summed}."""
        groups: dict = {}
        evening = {None: ""}  # evening number -> its key in the store ("": the games of none)
        for r in rows:
            groups.setdefault(r["number"], []).append(r)
            if r["number"] is not None:
                evening[r["number"]] = r["evening"]
        kept = self.store.inputs()
        keys, todo = {}, []  # keys: evening number -> Summed
        for n in sorted(groups, key=lambda n: n is None):  # (in the order of first games)
            games = [  # (their players too: a rename)
                tuple(r[c] for c in ("id", "updated", "status", "synced", "hands", "players"))
                for r in groups[n]
            ]
            key = evening[n]
            keys[n] = Summed(key, _key(SUMS, key, games))
            inputs = _key(self.version, self.lang, n, keys[n].inputs)
            page = n is not None and not self.folder.fresh(evening_page(n), inputs)
            summed = kept.get(key) == keys[n].inputs
            if page or not summed:
                todo.append((n, [r["id"] for r in groups[n]], inputs, page, not summed))
        later = [(n, ids, inputs) for n, ids, inputs, page, _ in todo if page]
        self.folder.plan([evening_page(n) for n, _, _ in later])
        if self.jobs >= 2 and later and len(todo) < 4 * self.jobs:
            # an update: its few pages made by worker processes meanwhile, written by _wait()
            pool = workers.pool(min(self.jobs, len(later)))
            self.later = (
                pool,
                [
                    (
                        n,
                        inputs,
                        pool.apply_async(
                            workers.work, ((self.h.path, n, ids, self.lang, True, False),)
                        ),
                    )
                    for n, ids, inputs in later
                ],
            )
            todo = [(n, ids, inputs, False, summ) for n, ids, inputs, _, summ in todo if summ]
        made: dict = {}
        try:
            with contextlib.closing(self._make(todo)) as each:  # (closed: its workers stopped)
                for i, ((n, _, inputs, page, _), (html, got)) in enumerate(zip(todo, each)):
                    self.progress("evening pages" if page else "evenings summed", i + 1, len(todo))
                    if page:
                        self.folder.put(evening_page(n), html, inputs)
                    if got is not None:
                        made[keys[n].key] = (keys[n].inputs, got)
                    if len(made) >= KEEP_SUMS:  # (kept as they come: a stopped build keeps them)
                        self.store.put(made)
                        made = {}
        except BaseException:
            with contextlib.suppress(Exception):
                self.store.put(made)
            raise
        self.store.put(made, set(kept) - {k.key for k in keys.values()})
        return keys

    def _wait(self) -> None:
        """Write the evening pages the worker processes made meanwhile."""
        if self.later:
            pool, pending = self.later
            for n, inputs, made in pending:
                self.folder.put(evening_page(n), made.get()[0], inputs)
            pool.close()
            pool.join()
            self.later = None

    def _make(self, todo: list[Any]) -> Generator[tuple[Any, Any], None, None]:
        """(page or None, sums or None) of each evening to make, in order, each as soon as it
        is made: in worker processes when there are many (a first build), else here."""
        args = [(n, ids, self.lang, page, summ) for n, ids, _, page, summ in todo]
        if self.jobs < 2 or len(todo) < 4 * self.jobs:
            for a in args:
                yield make_evening(self.h, *a)
            return
        pool = workers.pool(self.jobs)
        try:
            yield from pool.imap(workers.work, [(self.h.path,) + a for a in args], chunksize=4)
        except BaseException:  # (Ctrl-C, a full disk, the generator closed early)
            workers.stop(pool)
            raise
        pool.close()
        pool.join()

    def _player(
        self, name: str, inputs: object, keys: dict[Any, Any], rating: Record, rated: Any
    ) -> None:
        """The player's page, unless it is as made; inputs: the sums' inputs of the player's
        evenings."""
        path = "players/" + self.pages.page[name]
        vs = self.store.vs(name)
        inputs = _key(
            self.version,
            self.lang,
            name,
            inputs,
            rated.mark.get(name),
            [self.pages.page[o] for o in sorted(vs)],
        )
        if not self.folder.fresh(path, inputs):
            self.folder.put(path, self.pages.player(name, vs, keys, rating, rated), inputs)

    def _index(
        self, rows: list[Any], keys: dict[Any, Any], tab: dict[str, Record], names: list[str]
    ) -> None:
        """The index (the latest INDEX evenings) and, in a book of more, the page of each year
        whose evenings changed."""
        # the latest first: the evenings in the order of their first games (an evening keeps
        # its number for good, so older games imported later have higher numbers)
        numbers = [n for n in reversed(keys) if n is not None]
        years = self._years(keys, numbers) if len(numbers) > render.INDEX else []
        self.folder.put(
            "index.html", self.pages.index(rows, keys, tab, names, numbers, years), None
        )

    def _years(self, keys: dict[Any, Any], numbers: list[int]) -> list[Record]:
        """Make each year's page that changed; [{"year", "evenings", "href"}], the latest
        first."""
        out = []
        self.folder.make("years")
        years = self.pages.years(keys, numbers)
        self.folder.plan(["years/%s.html" % year for year, _ in years])
        for year, ns in years:
            path = "years/%s.html" % year
            inputs = _key(self.version, self.lang, year, [(n, keys[n].inputs) for n in ns])
            if not self.folder.fresh(path, inputs):
                self.folder.put(path, self.pages.year(year, keys, ns), inputs)
            out.append({"year": year, "evenings": len(ns), "href": path})
        return out


def _rows(h: History) -> list[Any]:
    """Every game as the book needs it to see what changed, as sqlite3.Row: id, updated,
    status, synced, hands, number (its evening's, or None), evening (the evening's key),
    players; in the history's order (History.games() without the JSON)."""
    return named(
        h.db.execute(
            "SELECT g.id, g.updated, g.status, g.synced, g.hands, e.number, g.evening, g.players "
            "FROM games g "
            "LEFT JOIN evenings e ON e.key = g.evening ORDER BY g.synced, g.device_id, g.epoch, "
            "ABS(g.gid), g.id"
        )
    ).fetchall()


def build(
    h: History,
    folder: str,
    lang: str = "en",
    jobs: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> Record:
    """Bring the book in folder up to date with history h; returns {"evenings", "players",
    "written", "kept", "removed", "anew", "foreign"}. jobs: processes making evening pages at
    once; progress: see the module's doc. One build per folder at a time: knockbox.locks.Busy
    when another knockbox is building a book there."""
    key = os.path.realpath(folder)
    with locks.Lock(locks.named("book", key)).acquire(
        "the book's folder %s" % folder, "knockbox book"
    ):
        return Book(h, folder, lang, jobs, progress).build()
