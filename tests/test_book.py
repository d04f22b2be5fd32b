"""`knockbox book -o DIR` as a user runs it: the folder opens in headless Chromium (Playwright,
tests/browser.py), every link from index.html resolves to a page of the book, nothing is asked
for outside the folder, and the numbers on the pages are those of `knockbox stats --json`,
`settle --json` and `history --json`; building again after a sync makes only what changed; the
Russian book speaks the rules' words."""

import json
import multiprocessing
import os
import random
import urllib.parse

import pytest

from kit import evenings as E
from kit.gamegen import random_game
from knockbox import cli, history
from kit.clirun import knockbox

NAMES = ["Ann", "Bob", "Cy", "Dee", "Аня"]


def js(db, *args):
    code, out, err = knockbox(*args, "--db", db, "--json")
    assert code == 0, err
    return json.loads(out)


def plan(seed, evenings, per=3):
    """Evenings of random games among NAMES (each method, some unfinished), then the report's."""
    rnd = random.Random(seed)
    out = []
    for e in range(evenings):
        if e:
            out.append(E.EVENING)
        for i in range(per):
            playing = (e, i) == (1, 2)  # one game still being played
            rec = random_game(
                rnd, (1, 2, 3)[(e + i) % 3], max_hands=3 if playing else 60, until_over=not playing
            ).record()
            rec["players"] = rnd.sample(NAMES, 3)
            out.append(rec)
    return out


def clock(day):
    it = iter(range(100000))

    def now():
        m = next(it)
        return "%s %02d:%02d:00" % (day, 18 + m // 60 % 6, m % 60)

    return now


def sync(db, evs, day, monkeypatch):
    monkeypatch.setattr(history, "now", clock(day))
    E.sync_into(db, evs)


@pytest.fixture
def four_evenings(tmp_path, monkeypatch):
    """Four evenings of three games among five players (test_book_sums.py shares it)."""
    path = str(tmp_path / "h.sqlite3")
    sync(path, E.journal(plan(7, 4)), "2025-01-10", monkeypatch)
    return path


def one_more(db, day, monkeypatch):
    """Evening 5 after four_evenings' (Ann, Bob, Cy: two games), synced on day."""
    more = E.journal(
        [E.EVENING]
        + [
            dict(E.game(E.M1), players=["Ann", "Bob", "Cy"]),
            dict(E.game(E.M3), players=["Cy", "Ann", "Bob"]),
        ],
        first_gid=13,
    )[1:]
    sync(db, E.journal(plan(7, 4)) + more, day, monkeypatch)


def book(db, out, *args):
    code, o, err = knockbox("book", "--db", db, "-o", str(out), *args)
    assert code == 0, err
    return err


def files(folder):
    """{relative path: mtime_ns} of every file in folder."""
    out = {}
    for d, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, folder)] = os.stat(p).st_mtime_ns
    return out


# ---- in the browser

COLLECT = r"""(() => {
  const txt = e => e ? e.innerText.trim() : null;
  const row = tr => Object.fromEntries([...tr.querySelectorAll('[data-k]')].map(td => [td.dataset.k, txt(td)]));
  return {
    links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
    ratings: [...document.querySelectorAll('table.ratings tbody tr')].map(tr => [tr.dataset.player, row(tr)]),
    evenings: [...document.querySelectorAll('table.evenings tbody tr')].map(tr => ({
        n: +tr.dataset.evening, date: txt(tr.querySelector('[data-k="date"]')),
        games: txt(tr.querySelector('[data-k="games"]')),
        net: [...tr.querySelectorAll('span[data-player]')].map(s => [s.dataset.player, txt(s.querySelector('[data-k="net"]'))])})),
    overall: Object.fromEntries([...document.querySelectorAll('section.overall [data-k]')].map(e => [e.dataset.k, txt(e)])),
    h2h: [...document.querySelectorAll('table.h2h tbody tr')].map(tr => [tr.dataset.player, row(tr)]),
    methods: [...document.querySelectorAll('table.methods tbody tr')].map(tr => [+tr.dataset.method, row(tr)]),
    played: [...document.querySelectorAll('table.played tbody tr')].map(tr => [+tr.dataset.evening, txt(tr.querySelector('[data-k="net"]'))]),
    ledger: [...document.querySelectorAll('table.ledger tbody tr')].map(tr => [tr.dataset.player, row(tr)]),
    charts: [...document.querySelectorAll('svg.chart')].map(s => s.dataset.chart),
    title: document.title,
    text: document.body.innerText,
  };
})()"""


def crawl(chromium, folder):
    """Every page reached by links from index.html: {path relative to folder: what COLLECT
    found}; checks on the way that each link is relative and resolves to a file of the book,
    and that no page asked for anything outside the folder or logged a problem."""
    root = os.path.realpath(folder)
    todo, seen = ["index.html"], {}
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        url = "file://" + urllib.parse.quote(os.path.join(root, rel))
        page = chromium.open(url)
        got = page.evaluate(COLLECT)
        for r in page.requests:
            assert r.startswith("file://"), (rel, r)
            target = os.path.realpath(urllib.parse.unquote(r[len("file://") :]))
            assert target.startswith(root + os.sep), (rel, r)
        assert page.problems == [], (rel, page.problems)
        page.close()
        seen[rel] = got
        for href in got["links"]:
            assert "://" not in href and not href.startswith("/"), (rel, href)
            target = os.path.normpath(
                os.path.join(os.path.dirname(rel), urllib.parse.unquote(href.split("#")[0]))
            )
            assert os.path.isfile(os.path.join(root, target)), (rel, href)
            todo.append(target)
    return seen


def signed(v):
    return "%+d" % v


def test_the_book_in_chromium(four_evenings, tmp_path, chromium):
    out = tmp_path / "book"
    err = book(four_evenings, out, "--lang", "en")
    assert err.startswith("book of 4 evenings and 5 players in ")
    pages = crawl(chromium, str(out))
    on_disk = {p for p in files(str(out)) if p.endswith(".html")}
    assert set(pages) == on_disk and len(on_disk) == 1 + 4 + 5  # every page is reached

    stats = {p["player"]: p for p in js(four_evenings, "stats")}
    games = js(four_evenings, "history")
    index = pages["index.html"]
    # the ratings table: `stats --json`, strongest first
    assert [p for p, _ in index["ratings"]] == sorted(stats, key=lambda n: (-stats[n]["rating"], n))
    for name, r in index["ratings"]:
        s = stats[name]
        assert r == {
            "rating": "%.2f" % s["rating"],
            "uncertainty": "±%.2f" % s["uncertainty"],
            "rated": str(s["rated"]),
            "games": str(s["games"]),
            "wins": str(s["wins"]),
            "net": signed(s["net"]),
        }
    # the evenings: `settle --evening N --json` and `history --json`
    assert [e["n"] for e in index["evenings"]] == [4, 3, 2, 1]
    for e in index["evenings"]:
        res = js(four_evenings, "settle", "--evening", str(e["n"]))
        mine = [g for g in games if g["evening"] == e["n"]]
        assert e["games"] == str(len(mine)) and e["date"] == mine[0]["synced"][:10]
        assert e["net"] == [[p["player"], signed(p["net"])] for p in res["players"]]
        page = pages["evenings/%d.html" % e["n"]]
        assert page["ledger"] == [
            [
                p["player"],
                {"games": str(p["games"]), "wins": str(p["wins"]), "net": signed(p["net"])},
            ]
            for p in res["players"]
        ]
        assert len(page["charts"]) == len(mine) + 1
    assert any(g["status"] == "playing" for g in games)  # one left out of the settlement

    # each player: `stats --json` over all games, over each method's games, head to head
    keys = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points")
    for name, s in stats.items():
        [page] = [p for p in pages.values() if p["title"] == "Knockbox · \u2068%s\u2069" % name]
        o = page["overall"]
        assert {k: o[k] for k in keys} == {k: str(s[k]) for k in keys}
        assert o["net"] == signed(s["net"]) and o["rating"] == "%.2f" % s["rating"]
        assert o["rated"] == str(s["rated"]) and o["uncertainty"] == "±%.2f" % s["uncertainty"]
        assert page["charts"] == ["net", "rating"]
        for m, row in page["methods"]:
            ids = [
                str(g["id"])
                for g in games
                if g["method"] == m and name in g["players"] and g["status"] != "invalid"
            ]
            [want] = [p for p in js(four_evenings, "stats", *ids) if p["player"] == name]
            assert row == {
                k: signed(want[k]) if k == "net" else str(want[k]) for k in keys + ("net",)
            }
        assert sorted(m for m, _ in page["methods"]) == sorted(
            {g["method"] for g in games if name in g["players"]}
        )
        for other, row in page["h2h"]:
            both = [
                g
                for g in games
                if g["status"] == "over" and name in g["players"] and other in g["players"]
            ]
            assert row["together"] == str(len(both)) > "0"
            assert row["wins"] == str(sum(name in g["winners"] for g in both))
            assert row["their_wins"] == str(sum(other in g["winners"] for g in both))
            # net: the payments between the two (`show --json`: [payer, payee, points] seats)
            net = 0
            for g in both:
                me, them = g["players"].index(name), g["players"].index(other)
                for payer, payee, v in js(four_evenings, "show", str(g["id"]))["payments"]:
                    net += (
                        v
                        if (payer, payee) == (them, me)
                        else -v
                        if (payer, payee) == (me, them)
                        else 0
                    )
            assert row["net"] == signed(net)
        evs = sorted({g["evening"] for g in games if name in g["players"]}, reverse=True)
        assert [n for n, _ in page["played"]] == evs


@pytest.mark.slow
def test_a_rebuild_makes_only_what_changed(four_evenings, tmp_path, monkeypatch):
    out = tmp_path / "book"
    book(four_evenings, out)
    first = files(str(out))
    assert (
        "book of 4 evenings and 5 players" in book(four_evenings, out) and files(str(out)) == first
    )

    # one more evening among three players: its page, their pages and the index are written
    one_more(four_evenings, "2025-01-17", monkeypatch)
    err = book(four_evenings, out)
    assert "book of 5 evenings and 5 players" in err and "5 pages written, 6 unchanged" in err
    second = files(str(out))
    changed = {p for p in second if first.get(p) != second[p]}
    players = {p for p in second if p.startswith("players/")}
    assert changed == {"evenings/5.html", "index.html", "knockbox-book.json"} | {
        p for p in players if _title(out, p) in ("Ann", "Bob", "Cy")
    }
    assert js(four_evenings, "settle", "--evening", "5")["games"] == [13, 14]

    # a page removed or changed by hand is made again; a language change makes all anew
    os.remove(out / "evenings" / "2.html")
    with open(out / "index.html", "a", encoding="utf-8") as f:
        f.write("<!-- edited -->")
    assert "2 pages written, 9 unchanged" in book(four_evenings, out)
    assert (out / "evenings" / "2.html").exists()
    assert "edited" not in (out / "index.html").read_text(encoding="utf-8")
    assert "11 pages written, 0 unchanged" in book(four_evenings, out, "--lang", "ru")
    assert '<html lang="ru">' in (out / "evenings" / "2.html").read_text(encoding="utf-8")


def _title(out, path):
    text = (out / path).read_text(encoding="utf-8")
    # (a player's name between the isolates that keep its direction its own)
    return text.split("<title>Knockbox · ", 1)[1].split("</title>", 1)[0].strip("\u2068\u2069")


RU_WORDS = (
    "Книга нашей компании",
    "Рейтинг",
    "Вечера",
    "Вечер 1",
    "партии",
    "расчёт",
    "партий в рейтинге",
    "Друг против друга",
    "По способам",
    "джин",
    "подрезки",
    "первый: на вылет",
    "второй: один против двух",
    "третий: играют все трое",
    "очков за сдачу",
    "Последние сыгранные вечера",
)


@pytest.mark.slow
def test_the_russian_book(four_evenings, tmp_path, chromium):
    out = tmp_path / "book"
    book(four_evenings, out, "--lang", "ru")
    index = chromium.open("file://" + str(out / "index.html"))
    text = index.evaluate("document.body.innerText")
    ann = chromium.open(
        "file://"
        + str(out / "players" / [p for p in os.listdir(out / "players") if p.startswith("ann-")][0])
    )
    text += ann.evaluate("document.body.innerText")
    for w in RU_WORDS:
        assert w in text, w
    assert '<html lang="ru">' in (out / "evenings" / "1.html").read_text(encoding="utf-8")
    for w in ("games", "wins", "hands", "rating", "Evening", "net", "head to head", "method"):
        assert w.lower() not in text.lower(), w


def test_mistakes(four_evenings, tmp_path):
    code, out, err = knockbox(
        "book", "--db", str(tmp_path / "none.sqlite3"), "-o", str(tmp_path / "b")
    )
    assert code == 1 and err.startswith("knockbox: no history yet")
    assert not os.path.exists(tmp_path / "b")
    (tmp_path / "file").write_text("x")
    code, out, err = knockbox("book", "--db", four_evenings, "-o", str(tmp_path / "file"))
    assert code == 1 and "is not a folder" in err
    other = tmp_path / "photos"
    other.mkdir()
    (other / "index.html").write_text("mine")
    code, out, err = knockbox("book", "--db", four_evenings, "-o", str(other))
    assert code == 1 and "holds no Knockbox book" in err
    assert os.listdir(other) == ["index.html"] and (other / "index.html").read_text() == "mine"
    empty = str(tmp_path / "empty.sqlite3")
    history.History(empty).close()
    code, out, err = knockbox("book", "--db", empty, "-o", str(tmp_path / "b"))
    assert code == 1 and "no games yet" in err
    with pytest.raises(SystemExit) as e:
        cli.main(["book", "--db", four_evenings])
    assert e.value.code == 2


@pytest.mark.slow
def test_a_first_build_in_worker_processes_is_the_same(tmp_path, monkeypatch):
    """Many evenings to make: made by --jobs worker processes, byte for byte as by one."""
    db = str(tmp_path / "h.sqlite3")
    sync(db, E.journal(plan(5, 9, per=1)), "2025-02-01", monkeypatch)
    one, two = tmp_path / "one", tmp_path / "two"
    pools = []
    real = multiprocessing.Pool
    monkeypatch.setattr(multiprocessing, "Pool", lambda n, **k: pools.append(n) or real(n, **k))
    book(db, one, "--jobs", "1", "--lang", "en")
    assert pools == []
    assert "15 pages written" in book(db, two, "--jobs", "2", "--lang", "en")
    assert pools == [2]
    for path in files(str(one)):  # the pages (the manifest holds file times too)
        assert (
            path == "knockbox-book.json" or (one / path).read_bytes() == (two / path).read_bytes()
        ), path
    code, out, err = knockbox("book", "--db", db, "-o", str(two), "--jobs", "0")
    assert code == 1 and "--jobs: 0 is not a number" in err
