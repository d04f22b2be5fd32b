"""The book's folder: the book deletes only pages it wrote, inside its folder, whatever its
manifest says (an entry naming ../file, an absolute path, or a folder linked elsewhere is left
alone), and a first build that was stopped (Ctrl-C, a full disk, a kill) is taken up by the
next `knockbox book`, which ends with the same book as one build would."""

import errno
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from kit import evenings as E
from kit.clirun import knockbox
from knockbox import book as B
from knockbox import files, report
from knockbox.book import folder as book_folder

pytestmark = pytest.mark.slow  # each takes seconds (see pyproject's markers)

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def history(tmp_path, evenings):
    plan = []
    for i in range(evenings):
        plan += [
            E.EVENING,
            E.game((E.M1, E.M2, E.M3)[i % 3], [NAMES[(i + k) % 4] for k in range(3)]),
        ]
    path = str(tmp_path / "h.sqlite3")
    E.sync_into(path, E.journal(plan[1:]))
    return path


def book(db, folder, *args):
    return knockbox("book", "--db", db, "-o", folder, "--lang", "en", *args)


def tree(folder):
    """{path: bytes} of every file in folder but the manifest (which holds file times)."""
    out = {}
    for d, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, folder)
            if rel != B.MANIFEST:
                with open(p, "rb") as f:
                    out[rel] = f.read()
    return out


def test_the_book_deletes_only_its_own_pages(tmp_path):
    db = history(tmp_path, 3)
    folder = tmp_path / "book"
    code, _, err = book(db, folder)
    assert code == 0, err
    outside = tmp_path / "outside"
    outside.mkdir()
    victims = [tmp_path / "victim.txt", outside / "abs.txt", outside / "2024.html"]
    for v in victims:
        v.write_text("keep me")
    os.symlink(outside, folder / "years")  # a folder of the book linked elsewhere
    m = json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))
    entry = {"sha256": "0" * 64, "size": 7, "mtime": 0, "inputs": None}
    bad = [
        "../victim.txt",
        str(outside / "abs.txt"),
        "players/../../victim.txt",
        "years/2024.html",
        "players/ann.txt",
    ]
    for p in bad:
        m["pages"][p] = entry
    (folder / B.MANIFEST).write_text(json.dumps(m), encoding="utf-8")
    code, _, err = book(db, folder)
    assert code == 0, err
    assert all(v.read_text() == "keep me" for v in victims)
    assert "not pages of the book; left alone: ../victim.txt, %s" % (outside / "abs.txt") in err
    pages = json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))["pages"]
    assert not set(bad) & set(pages) and "index.html" in pages
    code, _, err = book(db, folder)  # dropped from the manifest: said once
    assert code == 0 and "left alone" not in err


def stop_after(monkeypatch, pages, error):
    """Make report.page raise error when the page after `pages` is made."""
    real, made = report.page, [0]

    def page(*a, **k):
        made[0] += 1
        if made[0] > pages:
            raise error
        return real(*a, **k)

    monkeypatch.setattr(report, "page", page)


def test_a_first_build_stopped_by_ctrl_c_is_taken_up(tmp_path, monkeypatch):
    db = history(tmp_path, 6)
    folder = tmp_path / "book"
    stop_after(monkeypatch, 3, KeyboardInterrupt)
    code, _, err = book(db, folder, "--jobs", "1")
    assert code == 130 and err == "knockbox: interrupted\n"
    assert len(os.listdir(folder / "evenings")) == 3
    assert json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))["partial"] is True
    # a page the stopped build wrote that the book no longer makes goes too
    (folder / "players" / "gone-0123456789abcdef.html").write_text("old")
    monkeypatch.undo()
    code, _, err = book(db, folder, "--jobs", "1")
    assert code == 0, err
    code, _, err = book(db, tmp_path / "whole", "--jobs", "1")
    assert code == 0, err
    assert tree(folder) == tree(tmp_path / "whole")
    assert "partial" not in json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "error, code, said",
    [
        (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), 1, "No space left on device"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
)
def test_a_first_build_stopped_while_it_writes_a_page_is_taken_up(
    tmp_path, monkeypatch, error, code, said
):
    """The disk full, or Ctrl-C, in the middle of writing a page: no half page nor temporary
    file is left, and the next build makes the book."""
    db = history(tmp_path, 4)
    folder = tmp_path / "book"
    real, calls = files.write_whole, [0]

    def stopped(path, parts, shown=None):
        calls[0] += 1
        if calls[0] == 4:  # the manifest, two pages, then the third stops half written

            def half():
                yield parts[0][:100]
                raise error

            return real(path, half(), shown)
        return real(path, parts, shown)

    monkeypatch.setattr(book_folder, "write_whole", stopped)
    got, _, err = book(db, folder, "--jobs", "1")
    assert got == code and err.startswith("knockbox: ") and said in err
    assert len(err.splitlines()) == 1
    left = [n for d, _, ns in os.walk(folder) for n in ns]
    assert not [n for n in left if n.endswith(".tmp")] and B.MANIFEST in left
    assert len(os.listdir(folder / "evenings")) == 2
    monkeypatch.undo()
    got, _, err = book(db, folder, "--jobs", "1")
    assert got == 0, err
    assert "book of 4 evenings and 4 players" in err


def while_it_writes(p, folder, pages, seconds=60):
    """Wait until the book process p has written `pages` evening pages into folder, and is still
    writing (so that it can be stopped in the middle)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and p.poll() is None:
        if os.path.isdir(folder / "evenings") and len(os.listdir(folder / "evenings")) >= pages:
            break
        time.sleep(0.01)
    assert p.poll() is None, "the book was made before it could be stopped"


def test_a_first_build_killed_is_taken_up(tmp_path):
    """A real process killed (SIGKILL: nothing cleans up) while it writes the pages."""
    db = history(tmp_path, 24)
    folder = tmp_path / "book"
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "knockbox.cli",
            "book",
            "--db",
            db,
            "-o",
            str(folder),
            "--jobs",
            "1",
            "--lang",
            "en",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while_it_writes(p, folder, 3)
    os.kill(p.pid, signal.SIGKILL)
    p.wait(10)
    assert os.listdir(folder / "evenings")
    code, _, err = book(db, folder, "--jobs", "1")
    assert code == 0, err
    code, _, err = book(db, tmp_path / "whole", "--jobs", "1")
    assert tree(folder) == tree(tmp_path / "whole")
