"""`knockbox book` on a history that grows: each evening's sums kept in the history (summed once,
whatever folder the book is written to, and the same pages when the history cannot keep them),
the index listing only the latest evenings with a page per year beyond them, and a book made
by the previous knockbox (its manifest holding every evening's sums) brought up to date."""

import json
import os
import sqlite3

import pytest

from kit import evenings as E
import knockbox.book
import knockbox.book.render
import knockbox.book.workers
from knockbox import history
from knockbox.usererror import UserError
import test_book
from test_book import book, crawl, files, js, one_more, plan, signed, sync

four_evenings = test_book.four_evenings  # the fixture: test_book's history, four evenings


def pages(folder):
    """{path: bytes} of the book's pages (the manifest holds file times: left out)."""
    return {p: (folder / p).read_bytes() for p in files(str(folder)) if p.endswith(".html")}


def kept(db):
    with sqlite3.connect(db) as c:
        return dict(c.execute("SELECT evening, inputs FROM book_evenings"))


@pytest.mark.slow
def test_each_evening_is_summed_once(four_evenings, tmp_path, monkeypatch):
    summed = []
    real = knockbox.book.workers.sums
    monkeypatch.setattr(
        knockbox.book.workers, "sums", lambda rows: summed.append(rows) or real(rows)
    )
    one = tmp_path / "one"
    book(four_evenings, one, "--lang", "en")
    assert len(summed) == 4 and len(kept(four_evenings)) == 4
    first = kept(four_evenings)

    # another folder from the same history: no evening summed again, the same pages
    summed.clear()
    two = tmp_path / "two"
    assert "10 pages written" in book(four_evenings, two, "--lang", "en")
    assert summed == [] and pages(two) == pages(one)

    # one more evening: it alone is summed; the others' sums stay as they were
    one_more(four_evenings, "2025-01-17", monkeypatch)
    assert "5 pages written, 6 unchanged" in book(four_evenings, one, "--lang", "en")
    assert [sorted(r["id"] for r in rows) for rows in summed] == [[13, 14]]
    now = kept(four_evenings)
    assert len(now) == 5 and {k: now[k] for k in first} == first

    # a history that cannot be written (locked, read-only): summed in memory, the same pages
    summed.clear()

    def refuse(self):
        raise UserError("%s: read-only" % self.path)

    monkeypatch.setattr(history.History, "transaction", refuse)
    three = tmp_path / "three"
    book(four_evenings, three, "--lang", "en")
    assert len(summed) == 5 and pages(three) == pages(one)


@pytest.mark.slow
def test_a_big_book_lists_the_latest_evenings_and_each_year(
    four_evenings, tmp_path, monkeypatch, chromium
):
    monkeypatch.setattr(knockbox.book.render, "INDEX", 2)
    one_more(four_evenings, "2026-01-09", monkeypatch)  # evening 5, a year on
    out = tmp_path / "book"
    book(four_evenings, out, "--lang", "en")
    seen = crawl(chromium, str(out))
    on_disk = {p for p in files(str(out)) if p.endswith(".html")}
    assert set(seen) == on_disk and len(on_disk) == 1 + 5 + 5 + 2  # reached, via the years
    index = seen["index.html"]
    assert [e["n"] for e in index["evenings"]] == [5, 4]
    assert index["links"][-2:] == ["years/2026.html", "years/2025.html"]
    assert "every evening, by year: 2026 (1) · 2025 (4)" in index["text"]
    assert [e["n"] for e in seen["years/2026.html"]["evenings"]] == [5]
    assert [e["n"] for e in seen["years/2025.html"]["evenings"]] == [4, 3, 2, 1]
    games = js(four_evenings, "history")
    for e in seen["years/2025.html"]["evenings"] + seen["years/2026.html"]["evenings"]:
        res = js(four_evenings, "settle", "--evening", str(e["n"]))
        mine = [g for g in games if g["evening"] == e["n"]]
        assert e["games"] == str(len(mine)) and e["date"] == mine[0]["synced"][:10]
        assert e["net"] == [[p["player"], signed(p["net"])] for p in res["players"]]
    assert seen["years/2025.html"]["title"] == "Knockbox · The evenings of 2025"

    # a change to an evening of 2026 leaves 2025's page as it was
    before = files(str(out))
    sync(
        four_evenings,
        E.journal(plan(7, 4))
        + E.journal(
            [E.EVENING]
            + [
                dict(E.game(E.M1), players=["Ann", "Bob", "Cy"]),
                dict(E.game(E.M3), players=["Cy", "Ann", "Bob"]),
                dict(E.game(E.M2), players=["Dee", "Ann", "Bob"]),
            ],
            first_gid=13,
        )[1:],
        "2026-01-09",
        monkeypatch,
    )
    book(four_evenings, out, "--lang", "en")
    after = files(str(out))
    assert after["years/2025.html"] == before["years/2025.html"]
    assert after["years/2026.html"] != before["years/2026.html"]

    # all the evenings fit on the index again: the years' pages go
    monkeypatch.setattr(knockbox.book.render, "INDEX", 60)
    assert ", 2 removed" in book(four_evenings, out, "--lang", "en")
    assert os.listdir(out / "years") == []


def test_a_book_of_the_previous_format_is_brought_up_to_date(four_evenings, tmp_path, monkeypatch):
    out = tmp_path / "book"
    book(four_evenings, out, "--lang", "en")
    path = out / knockbox.book.MANIFEST
    m = json.loads(path.read_text(encoding="utf-8"))
    # as the previous knockbox wrote it: format 1, every evening's sums, another version
    m.update(
        format="knockbox-book/1",
        version="50a1171c485339d6",
        evenings={
            str(n): {
                "date": "2025-01-10",
                "games": 3,
                "inputs": "0" * 24,
                "n": n,
                "page": "evenings/%d.html" % n,
                "net": [],
                "players": {},
            }
            for n in range(1, 5)
        },
    )
    path.write_text(json.dumps(m), encoding="utf-8")
    one_more(four_evenings, "2025-01-17", monkeypatch)
    err = book(four_evenings, out, "--lang", "en")
    assert "made by another knockbox or in another language: every page was made again" in err
    assert "book of 5 evenings" in err
    fresh = tmp_path / "fresh"
    book(four_evenings, fresh, "--lang", "en")
    assert pages(out) == pages(fresh)
    m = json.loads(path.read_text(encoding="utf-8"))
    assert m["format"] == "knockbox-book/2" and "evenings" not in m
    assert "made again" not in book(four_evenings, out, "--lang", "en")
