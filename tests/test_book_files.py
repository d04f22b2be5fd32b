"""The book's folder: the book deletes only pages it wrote, inside its folder, whatever its
manifest says (an entry naming ../file, an absolute path, or a folder linked elsewhere is left
alone), and a first build that was stopped (Ctrl-C, a full disk, a kill) is taken up by the
next `knockbox book`, which ends with the same book as one build would."""

import errno
import json
import os
import re
import shutil
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


def counted(err):
    """(written, unchanged) of the book's last line."""
    m = re.search(r": (\d+) pages? written, (\d+) unchanged", err)
    assert m, err
    return int(m.group(1)), int(m.group(2))


def times(folder):
    """{path: mtime} of every file in folder but the manifest."""
    return {p: os.stat(os.path.join(folder, p)).st_mtime_ns for p in tree(folder)}


def test_a_first_build_stopped_by_ctrl_c_keeps_its_pages(tmp_path, monkeypatch):
    """The pages made before Ctrl-C are the book's and are kept: the next build makes and
    writes only the rest (a long book stopped after 16 of 210 pages used to be made again
    whole); a file of the user's put beside them, whatever its name, is left alone."""
    db = history(tmp_path, 6)
    folder = tmp_path / "book"
    stop_after(monkeypatch, 3, KeyboardInterrupt)
    code, _, err = book(db, folder, "--jobs", "1")
    assert code == 130 and err == "knockbox: interrupted\n"
    assert len(os.listdir(folder / "evenings")) == 3
    m = json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))
    assert m["partial"] is True and set(tree(folder)) <= set(m["pages"])
    made = times(folder)
    mine = [folder / "players" / "gone-0123456789abcdef.html", folder / "years" / "2019.html"]
    (folder / "years").mkdir()
    for f in mine:
        f.write_text("mine")
    monkeypatch.undo()
    made_again, summed_again = [], []
    real, real_evening = report.page, B.make_evening
    monkeypatch.setattr(report, "page", lambda *a, **k: made_again.append(1) or real(*a, **k))
    monkeypatch.setattr(
        B, "make_evening", lambda *a, **k: summed_again.append(a[1]) or real_evening(*a, **k)
    )
    code, _, err = book(db, folder, "--jobs", "1")
    assert code == 0, err
    assert counted(err) == (8, 3) and len(made_again) == 3  # 3 evenings, 4 players, the index
    assert summed_again == [4, 5, 6]  # (the sums of the first three were kept too)
    assert {p: t for p, t in times(folder).items() if p in made} == made
    assert all(f.read_text() == "mine" for f in mine)
    code, _, err = book(db, tmp_path / "whole", "--jobs", "1")
    assert code == 0, err
    for f in mine:
        f.unlink()
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
        calls[0] += not path.endswith(B.MANIFEST)
        if calls[0] == 3:  # two pages, then the third stops half written

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
    made = [p for p in tree(folder) if not os.path.basename(p).startswith(".knockbox-")]
    assert made
    code, _, err = book(db, folder, "--jobs", "1")
    assert code == 0, err
    assert counted(err) == (24 + 4 + 1 - len(made), len(made))  # only what was missing
    code, _, err = book(db, tmp_path / "whole", "--jobs", "1")
    assert tree(folder) == tree(tmp_path / "whole")


def test_the_book_never_writes_through_a_linked_folder(tmp_path):
    db = history(tmp_path, 3)
    folder, outside = tmp_path / "book", tmp_path / "outside"
    assert book(db, folder)[0] == 0
    pages = tree(folder)
    outside.mkdir()
    for name in os.listdir(folder / "players"):  # files of the same names, elsewhere
        (outside / name).write_text("keep me")
    shutil.rmtree(folder / "players")
    os.symlink(outside, folder / "players")
    code, _, err = book(db, folder)
    assert code == 1 and err.count("\n") == 1, err
    assert err == (
        "knockbox: %s is a link, not a folder of the book: the book writes only inside "
        "its own folder; move it away\n" % (folder / "players")
    )
    assert all(f.read_text() == "keep me" for f in outside.iterdir())
    os.unlink(folder / "players")
    code, _, err = book(db, folder)
    assert code == 0 and tree(folder) == pages, err


def test_a_file_of_the_users_where_a_page_goes_is_never_written_over(tmp_path):
    db = history(tmp_path, 3)
    folder = tmp_path / "book"
    assert book(db, folder)[0] == 0
    mine = folder / "evenings" / "4.html"  # where the next evening's page goes
    mine.write_text("mine")
    E.sync_into(db, E.journal([E.game(E.M1, NAMES[:3])]), dev="another")
    code, _, err = book(db, folder)
    assert code == 1 and err == (
        "knockbox: %s is not a page of this book (%s does not list it): move it away, "
        "the book makes a page there\n" % (mine, B.MANIFEST)
    )
    assert mine.read_text() == "mine"


def test_the_book_left_alone_names_no_page_it_makes(tmp_path):
    """A manifest's entry for a page of the book that is not as the book writes entries (a
    size that is not a number) is still the book's page: made again, not said as left alone."""
    db = history(tmp_path, 3)
    folder = tmp_path / "book"
    assert book(db, folder)[0] == 0
    m = json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))
    m["pages"]["evenings/1.html"]["size"] = "7"
    m["pages"]["notes/mine.txt"] = m["pages"]["index.html"]
    (folder / B.MANIFEST).write_text(json.dumps(m), encoding="utf-8")
    code, _, err = book(db, folder)
    assert code == 0 and "left alone: notes/mine.txt\n" in err, err
    assert "evenings/1.html" not in err


def test_one_build_per_folder_at_a_time(tmp_path):
    """Two books built into one folder at once (one in English, one in Russian) made a book of
    both languages: the second is told the folder is in use."""
    db = history(tmp_path, 24)
    folder = tmp_path / "book"
    p = subprocess.Popen(
        [sys.executable, "-m", "knockbox.cli", "book", "--db", db, "-o", str(folder)]
        + ["--jobs", "1", "--lang", "en"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while_it_writes(p, folder, 2)
        code, _, err = book(db, folder, "--lang", "ru", "--jobs", "1")
    finally:
        first = p.communicate(timeout=120)[1]
    assert p.returncode == 0, first
    assert code == 1 and err.startswith(
        "knockbox: the book's folder %s is in use by knockbox book (process %d, since "
        % (folder, p.pid)
    ), err
    assert json.loads((folder / B.MANIFEST).read_text(encoding="utf-8"))["lang"] == "en"
    assert counted(book(db, folder, "--jobs", "1")[2]) == (0, 29)
