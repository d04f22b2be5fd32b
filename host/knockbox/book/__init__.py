"""`knockbox book`: the group's whole history as a folder of static pages that opens from disk
(no network, no scripts, every link relative):

  index.html            the evenings (date, games, each player's net) and the ratings table
  evenings/N.html       evening N as `knockbox report --evening N` shows it (knockbox.report)
  players/NAME-H.html   a player: the statistics of `knockbox stats`, the rating, net and rating
                        over time (inline SVG charts), head to head against each other player,
                        by method, the evenings played
  knockbox-book.json    the manifest: each page's content hash and the inputs it was made from,
                        and each evening's sums (so a player's page is the sum over evenings)

build(h, folder, lang) brings the folder up to date. The evening is the unit of work: an evening
whose games (their ids, versions, statuses) are what the manifest says keeps its page and its
sums untouched; a player's page is made again only when one of the player's evenings or the
player's ratings changed; the index is made each time (it is small) and written only when its
bytes differ. So after a sync of one evening, one evening page and the pages of its players are
made, whatever the size of the history. Pages the manifest lists that are no longer part of the
book are removed; nothing else in the folder is touched.
"""
import concurrent.futures
import datetime
import hashlib
import importlib.metadata
import json
import os
import re

from knockbox import ratings, settle, stats, templating
from knockbox.book import svg
from knockbox.book.words import LANGS
from knockbox.errors import UserError
from knockbox.files import write_whole
from knockbox.history import standings

FORMAT = "knockbox-book/1"
PAGES = 2               # bump when the code makes different pages from the same history
MANIFEST = "knockbox-book.json"
COUNTS = stats.COUNTS       # games, wins, hands, hands_won, gins, undercuts, points, net
STATS = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points", "net")
LATEST = 40             # evenings listed on a player's page (all of them are on the index)
NET_COLOUR, RATING_COLOUR = "#0969da", "#8250df"     # the report's first and fourth colours
VS = ("together", "wins", "their_wins", "ahead", "behind", "net")
_HERE = os.path.dirname(os.path.abspath(__file__))
_TEMPLATES = ("index.html", "player.html", "style.css")


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
    """A player's page name: the name's letters and digits in ASCII, and a hash of the whole
    name (two names never share a page, whatever the file system's case or script)."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "player"
    return "%s-%s.html" % (base, hashlib.sha1(name.encode("utf-8")).hexdigest()[:6])


def _key(*parts):
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, sort_keys=True)
                          .encode("utf-8")).hexdigest()[:24]


class Book:
    """One build of the book in folder (see the module's doc)."""

    def __init__(self, h, folder, lang="en", jobs=1):
        self.h, self.folder, self.lang, self.jobs = h, folder, lang, jobs
        self.words = LANGS[lang]
        self.version = version()
        self.old = self._manifest()
        self.pages = {}         # path -> {"sha256", "size", "mtime", "inputs"}
        self.written = self.kept = self.removed = 0
        self.env = templating.environment(os.path.join(_HERE, "templates"))

    # ---- the folder and its manifest

    def _manifest(self):
        path = os.path.join(self.folder, MANIFEST)
        if os.path.isdir(self.folder) and not os.path.exists(path) and os.listdir(self.folder):
            raise UserError("%s is not empty and holds no Knockbox book (%s): give a new or "
                            "empty folder" % (self.folder, MANIFEST))
        self._old_bytes = None
        try:
            with open(path, "rb") as f:
                self._old_bytes = f.read()
            m = json.loads(self._old_bytes)
        except FileNotFoundError:
            return {"pages": {}, "evenings": {}}
        except (OSError, ValueError) as e:
            raise UserError("%s: not a Knockbox book manifest (%s)" % (path, e)) from None
        if not isinstance(m, dict) or m.get("format") != FORMAT:
            raise UserError("%s: not a Knockbox book manifest" % path)
        if m.get("version") != self.version or m.get("lang") != self.lang:
            m["evenings"] = {}      # made by another knockbox or in another language: all anew
            for p in m.get("pages", {}).values():
                p["inputs"] = None
        return m

    def _fresh(self, path, inputs):
        """Whether path is as the manifest says and was made from these inputs."""
        old = self.old["pages"].get(path)
        if not old or old.get("inputs") != inputs:
            return False
        try:
            st = os.stat(os.path.join(self.folder, path))
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (old["size"], old["mtime"]):
            return False
        self.pages[path] = old
        self.kept += 1
        return True

    def _put(self, path, text, inputs):
        """Write a page (temp file, then renamed) unless the file already holds these bytes."""
        data = text.encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        full = os.path.join(self.folder, path)
        old = self.old["pages"].get(path)
        try:
            st = os.stat(full)
            same = old and old["sha256"] == digest and (st.st_size, st.st_mtime_ns) == (
                old["size"], old["mtime"])
        except OSError:
            same = False
        if not same:
            write_whole(full, [data])
            st = os.stat(full)
            self.written += 1
        else:
            self.kept += 1
        self.pages[path] = {"sha256": digest, "size": st.st_size, "mtime": st.st_mtime_ns,
                            "inputs": inputs}

    def _finish(self, evenings):
        for path in sorted(set(self.old["pages"]) - set(self.pages)):
            try:
                os.remove(os.path.join(self.folder, path))
                self.removed += 1
            except FileNotFoundError:
                pass
        m = {"format": FORMAT, "version": self.version, "lang": self.lang,
             "pages": self.pages, "evenings": evenings}
        data = json.dumps(m, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                          check_circular=False).encode("utf-8")
        if data != self._old_bytes or not os.path.exists(os.path.join(self.folder, MANIFEST)):
            write_whole(os.path.join(self.folder, MANIFEST), [data])

    # ---- building

    def build(self):
        rows = _rows(self.h)
        if not rows:
            raise UserError("no games yet: `knockbox sync` pulls them from the device")
        for sub in ("", "evenings", "players"):
            try:
                os.makedirs(os.path.join(self.folder, sub), exist_ok=True)
            except OSError as e:
                raise UserError("%s: %s" % (self.folder, e.strerror or e)) from None
        groups = {}
        for r in rows:
            groups.setdefault(r["evening"], []).append(r)
        evenings, todo = {}, []
        for n in sorted(groups, key=lambda n: (n is None, n or 0)):
            inputs = _key(self.version, self.lang, n, [[r["id"], r["updated"], r["status"],
                                                        r["synced"], r["hands"]]
                                                       for r in groups[n]])
            evenings[_name(n)] = self._kept(n, inputs)
            if evenings[_name(n)] is None:
                todo.append((n, [r["id"] for r in groups[n]], inputs))
        for (n, _, inputs), (html, got) in zip(todo, self._make(todo)):
            path = _page(n)
            if path is not None:
                self._put(path, html, inputs)
            evenings[_name(n)] = dict(got, inputs=inputs, n=n, page=path)
        rated = ratings.Ratings(self.h)
        tab = rated.table
        names = sorted({name for e in evenings.values() for name in e["players"]})
        for name in names:
            self._player(name, evenings, ratings.of(tab, name), rated)
        self._index(rows, evenings, tab, names)
        self._finish(evenings)
        return {"evenings": len(groups) - (None in groups), "players": len(names),
                "written": self.written, "kept": self.kept, "removed": self.removed}

    def _kept(self, n, inputs):
        """Evening n's sums from the manifest if its games and its page are as they were."""
        old = self.old["evenings"].get(_name(n))
        if old and old["inputs"] == inputs and (n is None or self._fresh(_page(n), inputs)):
            return old
        return None

    def _make(self, todo):
        """(page, sums) of each evening to make, in order: in worker processes when there are
        many (a first build), else here."""
        args = [(n, ids, self.lang) for n, ids, _ in todo]
        if self.jobs < 2 or len(todo) < 4 * self.jobs:
            return [make_evening(self.h, *a) for a in args]
        with concurrent.futures.ProcessPoolExecutor(self.jobs) as pool:
            return list(pool.map(_work, [(self.h.path,) + a for a in args], chunksize=4))

    def _player(self, name, evenings, rating, rated):
        mine = [e for e in evenings.values() if name in e["players"]]
        path = "players/" + slug(name)
        others = sorted({o for e in mine for o in e["players"][name]["vs"]})
        inputs = _key(self.version, self.lang, name, [e["inputs"] for e in mine],
                      rated.mark.get(name), [slug(o) for o in others])
        if self._fresh(path, inputs):
            return
        progress = rated.progress(name)
        w = self.words
        total = _add([e["players"][name]["all"] for e in mine])
        methods = []
        for m in (1, 2, 3):
            got = [e["players"][name]["m%d" % m] for e in mine if "m%d" % m in e["players"][name]]
            if got:
                methods.append({"method": m, "label": w["method%d" % m], "s": _stats(_add(got))})
        vs = []
        for o in others:
            got = [e["players"][name]["vs"][o] for e in mine if o in e["players"][name]["vs"]]
            vs.append({"player": o, "href": slug(o), "v": dict(zip(VS, _add(got)))})
        played = [e for e in mine if e["n"] is not None]
        run, xs, ys = 0, [], []
        for e in played:
            run += e["players"][name]["all"][COUNTS.index("net")]
            xs.append(e["n"])
            ys.append(run)
        colour = NET_COLOUR
        ctx = {"lang": self.lang, "t": w, "name": name, "rating": rating,
               "s": _stats(total), "stat_keys": STATS, "methods": methods, "vs": vs,
               "evenings": [{"n": e["n"], "date": e["date"],
                             "net": e["players"][name]["all"][COUNTS.index("net")]}
                            for e in reversed(played[-LATEST:])],
               "net_chart": svg.line(xs, ys, colour, w["net_axis"], w["net_ylabel"], "net")
               if xs else None,
               "rating_chart": svg.line(list(range(1, len(progress) + 1)),
                                        [r for _, r in progress], RATING_COLOUR,
                                        w["rating_axis"], w["rating_ylabel"], "rating")
               if progress else None,
               "style": self._style()}
        self._put(path, self.env.get_template("player.html").render(ctx), inputs)

    def _index(self, rows, evenings, tab, names):
        w = self.words
        table = sorted(names, key=lambda n: (-ratings.of(tab, n)["rating"], n))
        overall = {n: _stats(_add([e["players"][n]["all"] for e in evenings.values()
                                   if n in e["players"]])) for n in names}
        days = sorted(r["synced"][:10] for r in rows)
        listed = [e for e in evenings.values() if e["n"] is not None]
        ctx = {"lang": self.lang, "t": w, "style": self._style(),
               "sub": w["sub"] % (len(rows), len(listed), days[0], days[-1]),
               "evenings": sorted(listed, key=lambda e: -e["n"]),
               "ratings": [dict(player=n, href="players/" + slug(n), r=ratings.of(tab, n),
                                s=overall[n]) for n in table],
               "made": max(r["updated"] for r in rows)[:16]}
        self._put("index.html", self.env.get_template("index.html").render(ctx), None)

    def _style(self):
        with open(os.path.join(_HERE, "templates", "style.css"), encoding="utf-8") as f:
            return f.read()


def _rows(h):
    """Every game as the book needs it to see what changed: {id, updated, status, synced, hands,
    evening (number or None)}, in the history's order (History.games() without the JSON)."""
    cols = ("id", "updated", "status", "synced", "hands", "evening")
    return [dict(zip(cols, t)) for t in h.db.execute(
        "SELECT g.id, g.updated, g.status, g.synced, g.hands, e.number FROM games g LEFT JOIN "
        "evenings e ON e.key = g.evening ORDER BY g.synced, g.device_id, g.epoch, ABS(g.gid), "
        "g.id")]


def make_evening(h, n, ids, lang):
    """(page, sums) of evening n (n None: the games that have no evening, and no page)."""
    rows = h.games(ids=ids, detail=True)
    html = None
    if n is not None:
        from knockbox import report     # (matplotlib: only when an evening page is made)

        made = max(r["updated"] for r in rows)
        html = report.page(rows, lang=lang, evening=n, now=datetime.datetime.fromisoformat(made),
                           home=("../index.html", LANGS[lang]["home"]))
    return html, sums(rows)


_HISTORIES = {}     # a worker process's history, opened once


def _work(args):
    from knockbox.history import History

    path = args[0]
    if path not in _HISTORIES:
        _HISTORIES[path] = History(path, create=False)
    return make_evening(_HISTORIES[path], *args[1:])


def _name(n):
    return "-" if n is None else str(n)


def _page(n):
    return None if n is None else "evenings/%d.html" % n


def sums(rows):
    """An evening's sums (over History.games(detail=True) rows): {"date", "games", "net": [[player, net, games, wins]] (the settlement's
    order), "players": {name: {"all": COUNTS, "m1".."m3": COUNTS, "vs": {other: VS}}}}."""
    res = settle.tally([r for r in rows if r["status"] != "invalid"])
    players = {}
    for p in stats.compute(rows):
        players[p["player"]] = {"all": [p[k] for k in COUNTS], "vs": {}}
    for m in (1, 2, 3):
        for p in stats.compute([r for r in rows if r["method"] == m]):
            players[p["player"]]["m%d" % m] = [p[k] for k in COUNTS]
    for r in rows:
        if r["status"] != "over":
            continue
        st = standings(r)
        place = ratings.places(r["method"], st["final"], r["record"]["start"].get("box"))
        names = r["players"]
        for i in range(3):
            vs = players[names[i]]["vs"]
            for j in range(3):
                if i != j:
                    v = vs.setdefault(names[j], [0] * len(VS))
                    got = (1, i in st["winners"], j in st["winners"], place[i] < place[j],
                           place[i] > place[j], st["net"][i])
                    for k, x in enumerate(got):
                        v[k] += int(x)
    return {"date": min(r["synced"] for r in rows)[:10], "games": len(rows),
            "net": [[p["player"], p["net"], p["games"], p["wins"]] for p in res["players"]],
            "players": players}


def _add(lists):
    return [sum(v) for v in zip(*lists)] if lists else [0] * len(COUNTS)


def _stats(counts):
    """COUNTS summed as `knockbox stats` shows them (avg_points as it rounds it)."""
    s = dict(zip(COUNTS, counts))
    s["avg_points"] = round(s["points"] / s["hands"], 2) if s["hands"] else 0.0
    return s



def build(h, folder, lang="en", jobs=1):
    """Bring the book in folder up to date with history h; returns {"evenings", "players",
    "written", "kept", "removed"} (pages). jobs: processes making evening pages at once."""
    return Book(h, folder, lang, jobs).build()
