"""A first `knockbox import` (no history file yet) that fails or is stopped leaves no file of its
own, and never takes away a history another command made and wrote meanwhile: real processes
started at once, as a probe found it (a failing and a good first import, 30 times; a sync while
a first import fails; Ctrl-C in a first import). Whatever the order, the good command's games
are in the history when it says so, and the failing one says it failed."""

import datetime
import json
import os
import signal
import tempfile
import time

import pytest

from kit import evenings as E
from kit.clirun import db_rows, knockbox
from kit.ptydevice import FakeDevice, good_device, journal

pytestmark = [
    pytest.mark.slow,  # processes, 30 times over
    pytest.mark.skipif(not hasattr(os, "fork"), reason="processes forked from the test's"),
]

NAMES = ["Ann", "Bob", "Cy"]


def rec(name, **extra):
    return dict(E.game(name, NAMES), **extra)


def files(tmp_path):
    """good.json: 10 typed-in games; bad.json: 60 games, then one the rules refuse."""
    good = [rec(E.M1, meta={"synced": "2020-01-%02d" % (i + 1)}) for i in range(10)]
    bad = [rec(E.M3, meta={"synced": "2021-%02d-01" % (i % 12 + 1)}) for i in range(60)]
    bad.append(rec(E.M1, hands=[{"knock": 0, "counts": [50, 9, None]}]))
    (tmp_path / "good.json").write_text(json.dumps(good))
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    return str(tmp_path / "good.json"), str(tmp_path / "bad.json")


class Knockbox:
    """`knockbox *args` in a process of its own, forked from this one (no start-up to pay: the
    30 runs cost little), as a user's: its own SQLite connections, killed or stopped alone."""

    def __init__(self, *args):
        fd, self.said = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        self.pid = os.fork()
        if self.pid == 0:  # the child: the command, then what it said
            try:
                said = knockbox(*args)
                with open(self.said, "w") as f:
                    json.dump(said, f)
            finally:
                os._exit(0)

    def send_signal(self, sig):
        os.kill(self.pid, sig)

    def ended(self):
        """(exit code, stdout, stderr) once it has ended."""
        os.waitpid(self.pid, 0)
        with open(self.said) as f:
            said = f.read()
        os.unlink(self.said)
        return tuple(json.loads(said)) if said else (None, "", "no word from the child")


def start(*args):
    return Knockbox(*args)


def ended(p):
    return p.ended()


def games_in(db):
    return db_rows(db, "SELECT COUNT(*) FROM games")[0][0] if os.path.exists(db) else None


def leftovers(tmp_path):
    return [n for n in os.listdir(tmp_path) if n.startswith(".h") or n.endswith("-journal")]


def test_a_failing_first_import_never_takes_a_good_ones_history(tmp_path):
    good, bad = files(tmp_path)
    for batch in range(6):  # (five histories at a time: the 30 runs in a few seconds)
        runs = []
        for i in range(batch * 5, batch * 5 + 5):
            db = str(tmp_path / ("h%d.sqlite3" % i))
            runs.append(
                (i, db, start("import", bad, "--db", db), start("import", good, "--db", db))
            )
        for i, db, failing, ok in runs:
            code, out, err = ended(ok)
            assert ended(failing)[0] == 1
            assert (code, out) == (0, "10 games imported\n"), err
            assert games_in(db) == 10, "run %d: the good import's games are gone" % i
    assert not leftovers(tmp_path)


def test_a_sync_while_a_first_import_fails_keeps_its_games(tmp_path):
    _, bad = files(tmp_path)
    evs, g = journal(30)
    with FakeDevice(good_device(evs)) as d:
        for i in range(6):
            db = str(tmp_path / ("s%d.sqlite3" % i))
            failing = start("import", bad, "--db", db)
            time.sleep(0.1 * i)
            code, out, err = ended(start("sync", "--port", d.path, "--db", db))
            assert ended(failing)[0] == 1
            assert code == 0 and "1 new game" in out, out + err
            assert games_in(db) == 1, "run %d: the synced game is gone" % i
    assert not leftovers(tmp_path)


def test_ctrl_c_in_a_first_import_never_takes_a_good_ones_history(tmp_path):
    good, _ = files(tmp_path)
    day = datetime.date(2000, 1, 1)
    big = [rec(E.M3, meta={"synced": str(day + datetime.timedelta(i))}) for i in range(3000)]
    (tmp_path / "big.json").write_text(json.dumps(big))
    for i in range(6):
        db = str(tmp_path / ("c%d.sqlite3" % i))
        stopped = start("import", tmp_path / "big.json", "--db", db)
        code, out, err = ended(start("import", good, "--db", db))
        time.sleep(0.1 * i)
        stopped.send_signal(signal.SIGINT)
        assert ended(stopped)[0] in (0, 130)
        assert (code, out) == (0, "10 games imported\n"), err
        assert games_in(db) in (10, 3010), "run %d: the good import's games are gone" % i
    assert not leftovers(tmp_path)
