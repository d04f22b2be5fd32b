"""The book's pages as HTML (the templates in book/templates): the index, a year's page and a
player's page, rendered from the evenings' sums (knockbox.book.sums) and the ratings; the
players' page names (pages()); version(), what the pages are made by. An evening's page is the
report's (knockbox.book.workers.make_evening)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import re
from typing import Any, TYPE_CHECKING, overload

from knockbox import ratings, templating
from knockbox.book import svg
from knockbox.book.folder import FORMAT
from knockbox.book.sums import COUNTS, VS
from knockbox.book.words import LANGS
from knockbox.plural import count

if TYPE_CHECKING:
    from collections.abc import Iterable
    from knockbox.book.sums import EveningSums
    from knockbox.records import Record

PAGES = 3  # bump when the code makes different pages from the same history
STATS = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points", "net")
LATEST = 40  # evenings listed on a player's page
INDEX = 60  # evenings listed on the index; a book of more has a page for each year
NET_COLOUR, RATING_COLOUR = "#0969da", "#8250df"  # the report's first and fourth colours
_HERE = os.path.dirname(os.path.abspath(__file__))
_TEMPLATES = ("index.html", "player.html", "style.css", "year.html", "evenings.html")


def version() -> str:
    """What the pages are made by: the book's format (PAGES: bumped when the code makes other
    pages), knockbox's release and the templates (the book's and the report's): a book made by
    another makes every page again."""
    try:
        release = importlib.metadata.version("knockbox")
    except importlib.metadata.PackageNotFoundError:
        release = "?"
    h = hashlib.sha256(("%s %d %s" % (FORMAT, PAGES, release)).encode())
    for path in [os.path.join(os.path.dirname(_HERE), "report", "templates", "report.html")] + [
        os.path.join(_HERE, "templates", t) for t in _TEMPLATES
    ]:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def slug(name: str) -> str:
    """A player's page name: the name's letters and digits in ASCII, and 64 bits of a hash of
    the whole name (lower case: the same whatever the file system's case or script)."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "player"
    return "%s-%s.html" % (base, hashlib.sha256(name.encode("utf-8")).hexdigest()[:16])


def pages(names: Iterable[str]) -> dict[str, str]:
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


@overload
def evening_page(n: int) -> str: ...
@overload
def evening_page(n: None) -> None: ...
def evening_page(n: int | None) -> str | None:
    """Evening n's page (None: the games of no evening have none)."""
    return None if n is None else "evenings/%d.html" % n


class Pages:
    """Renders the book's pages in lang from the evenings' sums (store); page: {player: the
    player's page name}. keys (each method's argument): {evening number: sums.Summed}, as the
    build reads them."""

    def __init__(self, store: EveningSums, lang: str, page: dict[str, str]) -> None:
        self.store, self.lang, self.page = store, lang, page
        self.words = LANGS[lang]
        self.env = templating.environment(os.path.join(_HERE, "templates"))
        self._dates: dict[str, str] | None = None  # {evening's key: its first day}, when read

    def dates(self) -> dict[str, str]:
        if self._dates is None:
            self._dates = self.store.dates()
        return self._dates

    def player(
        self, name: str, vs: Record, keys: dict[Any, Any], rating: Record, rated: Any
    ) -> str:
        """A player's page; vs: the store's vs(name); rating: the player's row of the ratings
        table, rated: the ratings (knockbox.ratings.Ratings)."""
        progress = rated.progress(name)
        w = self.words
        totals = self.store.totals(name)
        methods = [
            {"method": m, "label": w["method%d" % m], "s": stats(totals[m])}
            for m in (1, 2, 3)
            if m in totals
        ]
        against = [
            {"player": o, "href": self.page[o], "v": dict(zip(VS, vs[o]))} for o in sorted(vs)
        ]
        nets = self.store.nets(name)
        # keys: in the order of the evenings' first games (their numbers keep the order they
        # reached the history in); the chart's x: the evening's place in that order
        place = {n: i for i, n in enumerate((n for n in keys if n is not None), 1)}
        played = [(n, keys[n].key) for n in place if keys[n].key in nets]
        dates = self.dates()
        run, xs, ys = 0, [], []
        for n, key in played:
            run += nets[key]
            xs.append(place[n])
            ys.append(run)
        ctx = {
            "lang": self.lang,
            "t": w,
            "name": name,
            "rating": rating,
            "s": stats(totals.get(0, [0] * len(COUNTS))),
            "stat_keys": STATS,
            "methods": methods,
            "vs": against,
            "evenings": [
                {"n": n, "date": dates[key], "net": nets[key]}
                for n, key in reversed(played[-LATEST:])
            ],
            "net_chart": svg.line(xs, ys, NET_COLOUR, w["net_axis"], w["net_ylabel"], "net")
            if xs
            else None,
            "rating_chart": svg.line(
                list(range(1, len(progress) + 1)),
                [r for _, r in progress],
                RATING_COLOUR,
                w["rating_axis"],
                w["rating_ylabel"],
                "rating",
            )
            if progress
            else None,
            "style": self._style(),
        }
        return self.env.get_template("player.html").render(ctx)

    def index(
        self,
        rows: list[Any],
        keys: dict[Any, Any],
        tab: dict[str, Record],
        names: list[str],
        numbers: list[int],
        years: list[Record],
    ) -> str:
        """The index: the latest INDEX of the evenings numbers (the latest first), the years
        (as years() lists them) and the ratings table (tab) of the players names; rows: every
        game (knockbox.book's _rows())."""
        w = self.words
        table = sorted(names, key=lambda n: (-ratings.of(tab, n)["rating"], n))
        summed = self.store.overall()
        overall = {n: stats(summed[n]) for n in names}
        days = sorted(r["synced"][:10] for r in rows)
        ctx = {
            "lang": self.lang,
            "t": w,
            "style": self._style(),
            "sub": w["sub"].format(
                games=count(len(rows), "game"),
                evenings=count(len(numbers), "evening"),
                n_games=len(rows),
                n_evenings=len(numbers),
                first=days[0],
                last=days[-1],
            ),
            "evenings": self._listed(keys, numbers[:INDEX], ""),
            "years": years,
            "ratings": [
                dict(player=n, href="players/" + self.page[n], r=ratings.of(tab, n), s=overall[n])
                for n in table
            ],
            "made": max(r["updated"] for r in rows)[:16],
        }
        return self.env.get_template("index.html").render(ctx)

    def years(self, keys: dict[Any, Any], numbers: list[int]) -> list[tuple[str, list[int]]]:
        """[(year, its evenings' numbers)] of the evenings numbers, the latest year first."""
        dates = self.dates()
        years: dict = {}
        for n in numbers:
            years.setdefault(dates[keys[n].key][:4], []).append(n)
        return sorted(years.items(), reverse=True)

    def year(self, year: str, keys: dict[Any, Any], numbers: list[int]) -> str:
        """A year's page: its evenings numbers."""
        ctx = {
            "lang": self.lang,
            "t": self.words,
            "style": self._style(),
            "year": year,
            "evenings": self._listed(keys, numbers, "../"),
        }
        return self.env.get_template("year.html").render(ctx)

    def _listed(self, keys: dict[Any, Any], numbers: list[int], up: str) -> list[Record]:
        """The evenings numbers as the index and the years list them (links from up)."""
        got = self.store.evenings([keys[n].key for n in numbers])
        return [dict(got[keys[n].key], n=n, page=up + evening_page(n)) for n in numbers]

    def _style(self) -> str:
        with open(os.path.join(_HERE, "templates", "style.css"), encoding="utf-8") as f:
            return f.read()


def stats(counts: Iterable[int]) -> Record:
    """COUNTS summed as `knockbox stats` shows them (avg_points as it rounds it)."""
    s: Record = dict(zip(COUNTS, counts))
    s["avg_points"] = round(s["points"] / s["hands"], 2) if s["hands"] else 0.0
    return s
