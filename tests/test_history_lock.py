"""Two knockboxes at once, and a damaged file: a command that finds the history locked by another
one writing it waits, says so once, and goes on when the lock goes (or gives up with one clear
line); a damaged database page is one line naming the file, never a traceback."""

import json
import os
import sqlite3
import subprocess
import threading
import time

import pytest

from kit import evenings as E
from kit import mp
from kit.clirun import knockbox
from knockbox import history
from kit.ptydevice import KNOCKBOX

WAITING = "knockbox: waiting for the history (another knockbox is writing it)...\n"


@pytest.fixture
def one_game(tmp_path, monkeypatch):
    """A history of one game, in which a lock is waited for 2 s at most (noted after 0.2 s)."""
    monkeypatch.setattr(history, "WAIT_NOTE", 0.2)
    monkeypatch.setattr(history, "WAIT_MAX", 2.0)
    monkeypatch.setattr(history, "_waiting", [])
    path = str(tmp_path / "h.sqlite3")
    E.sync_into(path, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    return path


def hold(db, how, release_after=None):
    """A second connection holding a write lock (BEGIN EXCLUSIVE: no one reads; IMMEDIATE: no
    one else writes), let go after release_after seconds (None: the test does)."""
    con = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    con.execute("BEGIN " + how)
    con.execute("UPDATE meta SET value = value")
    if release_after is not None:
        threading.Timer(release_after, con.commit).start()
    return con


def test_a_reader_waits_for_a_writer_and_says_so_once(capsys, one_game):
    con = hold(one_game, "EXCLUSIVE", release_after=0.8)
    code, out, err = knockbox("history", "--json", "--db", one_game)
    assert code == 0 and err == WAITING and len(json.loads(out)) == 1
    con.close()


def test_a_writer_waits_for_a_writer(capsys, one_game, tmp_path):
    f = tmp_path / "one.json"
    f.write_text(json.dumps([E.game(E.M3, ["Ann", "Bob", "Cy"])]))
    con = hold(one_game, "IMMEDIATE", release_after=0.8)
    code, out, err = knockbox("import", f, "--db", one_game)
    assert (code, out, err) == (0, "1 game imported\n", WAITING)
    con.close()


def test_a_lock_held_too_long_is_one_clear_line(capsys, one_game):
    con = hold(one_game, "EXCLUSIVE")
    t = time.monotonic()
    for cmd in ("history", "stats", "settle"):
        code, out, err = knockbox(cmd, "--db", one_game)
        assert code == 1 and err.endswith(
            "knockbox: %s: another knockbox has been writing the "
            "history for 2 seconds: try again when it is done\n" % one_game
        ), err
    assert err.count(WAITING) <= 1 and time.monotonic() - t < 10
    con.rollback()
    con.close()


def test_a_real_process_waits_with_the_default_times(tmp_path):
    path = str(tmp_path / "h.sqlite3")
    E.sync_into(path, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    con = hold(path, "EXCLUSIVE", release_after=history.WAIT_NOTE + 1.5)
    p = subprocess.run(
        [KNOCKBOX, "history", "--db", path], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0 and p.stderr == WAITING and "Ann, Bob, Cy" in p.stdout
    con.close()


@pytest.mark.parametrize("command", [["history"], ["import", "-"]])
def test_ctrl_c_ends_the_wait_for_another_knockbox_at_once(tmp_path, command):
    """SQLite's own wait for a lock (in C) did not hear Ctrl-C: a command waiting for another
    knockbox went on waiting up to WAIT_MAX (5 minutes)."""
    import signal

    path = str(tmp_path / "h.sqlite3")
    E.sync_into(path, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")  # (a lock taken, nothing written yet)
    p = subprocess.Popen(
        [KNOCKBOX] + command + ["--db", path],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert p.stderr.readline() == WAITING  # (it waits: after WAIT_NOTE)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=15)
        assert time.monotonic() - t < 5
        assert p.returncode == 130 and p.stderr.read() == "knockbox: interrupted\n"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        con.execute("ROLLBACK")
        con.close()


def test_a_damaged_page_is_one_line_naming_the_file(capsys, tmp_path):
    path = str(tmp_path / "h.sqlite3")
    E.sync_into(path, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])] * 40))
    con = sqlite3.connect(path)
    size = con.execute("PRAGMA page_size").fetchone()[0]
    roots = [
        r
        for (r,) in con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name IN ('games', 'seats', 'evenings')"
        )
    ]
    con.close()
    with open(path, "r+b") as f:
        for page in roots:
            f.seek((page - 1) * size)
            f.write(b"\xa5" * size)
    for cmd in (
        ["history"],
        ["stats"],
        ["settle"],
        ["export", "--json"],
        ["show", "3"],
        ["report", "-o", str(tmp_path / "r.html")],
        ["book", "-o", str(tmp_path / "b")],
        ["player", "rename", "Ann", "Anna"],
        ["delete", "--yes", "3"],
        ["import", os.path.join(mp.ROOT, "examples", "method1.json")],
    ):
        code, out, err = knockbox(*cmd, "--db", path)
        assert code == 1 and err.startswith("knockbox: %s: " % path), (cmd, err)
        assert "damaged" in err and err.count("\n") == 1 and "Traceback" not in err, (cmd, err)
