"""`knockbox import` with bad or big input, through the command: every bad file is one clear line
(deep nesting, numbers beyond SQLite's, not UTF-8) and nothing is imported; a file is read a
record at a time (memory does not grow with it: bench/bench_import_memory.py measures the whole
command); progress on a terminal only; Ctrl-C leaves the history as it was."""

import json
import os
import pty
import select
import signal
import subprocess
import time
import tracemalloc

import pytest

from kit import evenings as E
from kit.clirun import db_rows, knockbox
from knockbox import files
from kit.ptydevice import KNOCKBOX

BIG = 2**64


def rec(**extra):
    return dict(E.game(E.M1, ["Ann", "Bob", "Cy"]), **extra)


@pytest.mark.parametrize(
    "text, says",
    [
        ("[" + "[" * 10000 + "]" * 10001, "record 1: nested too deeply to be a game record"),
        ('{"a":' * 10000 + "1" + "}" * 10000, "nested too deeply to be a game record"),
        (json.dumps([rec(meta={"device": "d", "epoch": BIG, "gid": 1})]), "meta.epoch"),
        (
            json.dumps([rec(method=BIG, meta={"status": "invalid", "error": "x"})]),
            "needs its method, players and meta.error",
        ),
        (
            json.dumps([rec(meta={"synced": "2020-01-01"}), rec(method=BIG)]),
            "record 2 (Ann, Bob, Cy): unknown method %d" % BIG,
        ),
        (json.dumps([rec(hands=[{"knock": 0, "counts": [BIG, 1, 2]}])]), "is not a count"),
        (b"[\xff\xfe]", "not UTF-8 text"),
        (
            json.dumps([rec(), rec(players=["\ud800", "Bob", "Cy"])]),
            "record 2: not text (a \\u escape of half a character)",
        ),
        (
            json.dumps([rec()])[:-1] + " 2]",
            "not valid JSON (after record 1: '2' where , or ] goes)",
        ),
    ],
)
def test_bad_input_is_one_line_and_nothing_is_imported(capsys, tmp_path, text, says):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "bad.json"
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_text(text)
    code, out, err = knockbox("import", f, "--db", db)
    assert code == 1 and err.startswith("knockbox: %s: " % f) and says in err, err
    assert err.count("\n") == 1 and not os.path.exists(db)


def test_a_big_file_is_read_in_bounded_memory(tmp_path):
    one = json.dumps(rec(meta={"synced": "2020-01-01"}))
    peaks = []
    for n in (2000, 20000):
        f = tmp_path / ("%d.json" % n)
        with open(f, "w") as out:
            out.write("[" + ",\n".join([one] * n) + "]")
        tracemalloc.start()
        count = sum(1 for _ in files.json_records(str(f)))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert count == n
    # ten times the file, not ten times the memory (one piece and one record at a time)
    assert peaks[1] < 1.5 * peaks[0] and peaks[1] < 2 * files.CHUNK * 4 + 200_000, peaks


def sheets(tmp_path, n):
    """A file of n typed-in games, one a day."""
    import datetime

    f, day = tmp_path / "sheets.json", datetime.date(1990, 1, 1)
    f.write_text(
        json.dumps(
            [rec(meta={"synced": (day + datetime.timedelta(days=i)).isoformat()}) for i in range(n)]
        )
    )
    return f


def on_a_terminal(args, until=None, timeout=60):
    """Run knockbox with stderr on a pseudo-terminal: (process, what it wrote there); until(text)
    -> True: send Ctrl-C (SIGINT) then."""
    master, slave = pty.openpty()
    p = subprocess.Popen(
        [KNOCKBOX] + [str(a) for a in args],
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
    )
    os.close(slave)
    seen, sent, end = b"", False, time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            seen += data
        if until and not sent and until(seen.decode(errors="replace")):
            p.send_signal(signal.SIGINT)
            sent = True
        if p.poll() is not None and not r:
            break
    p.wait(timeout=30)
    os.close(master)
    return p, seen.decode(errors="replace")


def test_progress_on_a_terminal_only(tmp_path):
    f = sheets(tmp_path, 300)
    p, err = on_a_terminal(["import", f, "--db", tmp_path / "a.sqlite3"])
    assert p.returncode == 0 and "\rimporting: " in err and "%)" in err, err
    assert p.stdout.read() == b"300 games imported\n"
    q = subprocess.run(
        [KNOCKBOX, "import", f, "--db", tmp_path / "b.sqlite3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert q.returncode == 0 and q.stderr == ""


def test_ctrl_c_leaves_the_history_as_it_was(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    before = db_rows(db, "SELECT * FROM games")
    f = sheets(tmp_path, 20000)
    t = time.monotonic()
    p, err = on_a_terminal(
        ["import", f, "--db", db], until=lambda s: "importing: " in s and " games (" in s
    )
    # the progress line is cleared (spaces, then back to its start) before the message
    assert p.returncode == 130 and err.endswith(" \rknockbox: interrupted\r\n"), err
    assert time.monotonic() - t < 30
    assert db_rows(db, "SELECT * FROM games") == before
    assert db_rows(db, "SELECT COUNT(*) FROM imports") == [(0,)]
    assert not os.path.exists(db + "-journal")
    # and into a new history: no file is left behind
    new = str(tmp_path / "new.sqlite3")
    p, err = on_a_terminal(
        ["import", f, "--db", new], until=lambda s: "importing: " in s and " games (" in s
    )
    assert p.returncode == 130 and not os.path.exists(new)
