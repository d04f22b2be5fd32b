"""A long `knockbox book`, as a user runs it: it says how far it is on a terminal (stderr; not a
word more when stderr is not one), Ctrl-C stops it within seconds with one line, leaving no
worker process behind and a folder the next build takes up, and an evening of more games than
a report holds (report.MAX_GAMES) still gets its page."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from kit import evenings as E
from kit.clirun import knockbox
from knockbox import report
from kit.pages import rows
from test_book_files import history, tree, while_it_writes

pytestmark = pytest.mark.slow  # each takes seconds (see pyproject's markers)

BOOK = [sys.executable, "-m", "knockbox.cli", "book", "--lang", "en"]


def group(pgid):
    """The live processes of process group pgid."""
    out = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(pid))
    return out


def test_progress_on_a_terminal_and_quiet_elsewhere(tmp_path):
    db = history(tmp_path, 6)
    master, slave = os.openpty()
    p = subprocess.Popen(
        BOOK + ["--db", db, "-o", str(tmp_path / "a"), "--jobs", "1"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
    )
    os.close(slave)
    said = b""
    while True:
        try:
            got = os.read(master, 4096)
        except OSError:  # (the other end closed)
            break
        if not got:
            break
        said += got
    os.close(master)
    assert p.wait(60) == 0
    text = said.decode()
    assert re.search(r"book: evening pages \d+ of 6", text), text
    assert "book: evening pages 6 of 6" in text and "book: player pages" in text
    # the progress line is cleared before the last line, which stands alone
    last = "book of 6 evenings and 4 players in %s: 11 pages written, 0 unchanged\r\n" % (
        tmp_path / "a"
    )
    cleared = text[: -len(last)]
    assert text.endswith(last) and re.search(r"\r +\r\Z", cleared), text
    p = subprocess.run(
        BOOK + ["--db", db, "-o", str(tmp_path / "b"), "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0 and p.stderr == (
        "book of 6 evenings and 4 players in %s: 11 pages written, 0 unchanged\n" % (tmp_path / "b")
    )


def test_ctrl_c_stops_the_workers_within_seconds(tmp_path):
    db = history(tmp_path, 40)
    folder = tmp_path / "book"
    p = subprocess.Popen(
        BOOK + ["--db", db, "-o", str(folder), "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )  # its own group, as a terminal's job
    while_it_writes(p, folder, 2, seconds=90)
    workers = group(p.pid)
    assert len(workers) == 3, workers  # knockbox and its two worker processes
    start = time.monotonic()
    os.killpg(p.pid, signal.SIGINT)  # Ctrl-C: the whole group gets it
    time.sleep(0.01)
    try:
        os.killpg(p.pid, signal.SIGINT)  # and again, impatiently, while it stops
    except ProcessLookupError:
        pass
    err = p.communicate(timeout=30)[1].decode()
    assert time.monotonic() - start < 5
    assert p.returncode == 130 and err == "knockbox: interrupted\n", err
    for _ in range(100):
        if not group(p.pid):
            break
        time.sleep(0.02)
    assert group(p.pid) == []
    # nothing half done: the next build makes the book, as one build does
    code, _, err = knockbox("book", "--db", db, "-o", folder, "--lang", "en", "--jobs", "1")
    assert code == 0, err
    code, _, err = knockbox("book", "--db", db, "-o", tmp_path / "whole", "--lang", "en")
    assert tree(folder) == tree(tmp_path / "whole")


def test_an_evening_of_more_games_than_a_report_holds(tmp_path):
    n = report.MAX_GAMES + 5
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal([E.game((E.M1, E.M2, E.M3)[i % 3]) for i in range(n)]))
    code, out, err = knockbox("report", "--db", db, "-o", tmp_path / "r.html")
    assert code == 1 and "%d games are more than one page" % n in err
    code, out, err = knockbox("book", "--db", db, "-o", tmp_path / "book", "--lang", "en")
    assert code == 0, err
    page = (tmp_path / "book" / "evenings" / "1.html").read_text(encoding="utf-8")
    assert len(re.findall(r'<section class="game" data-game="\d+">', page)) == n
    index = rows(tmp_path / "book" / "index.html", "evenings")
    assert index["1"]["games"] == str(n)
    code, out, err = knockbox("settle", "--db", db, "--json", "--evening", "1")
    ledger = rows(tmp_path / "book" / "evenings" / "1.html", "ledger")
    assert {p: int(r["net"]) for p, r in ledger.items()} == json.loads(out)["net"]
