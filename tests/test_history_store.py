"""The history as stored since schema 2: each game's standings, evening, running totals and
seats worked out once when it is stored; a file written by the earlier code (schema 1) upgraded
in place with nothing lost; `knockbox import` (and export -> import giving the same history);
output piped into a reader that stops early."""
import json
import os
import shutil
import sqlite3


import evenings as E
from knockbox import cli

HERE = os.path.dirname(os.path.abspath(__file__))
V1 = os.path.join(HERE, "fixtures", "history-v1.sqlite3")


def knockbox(capsys, *args):
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def kept(old, new):
    """new says all that old said (it may say more: keys added since, e.g. stats' ratings)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and kept(v, new[k]) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(map(kept, old, new))
    return old == new


def test_a_schema_1_file_is_upgraded_in_place_with_nothing_lost(capsys, tmp_path):
    # tests/fixtures/history-v1.sqlite3 was written by the code of commit dd377d0 (schema 1: a
    # sync of three evenings on two devices, a game the core refused, a game the device later
    # replaced), and history-v1.json holds what that code printed for it
    path = str(tmp_path / "h.sqlite3")
    shutil.copy(V1, path)
    with open(os.path.join(HERE, "fixtures", "history-v1.json"), encoding="utf-8") as f:
        want = json.load(f)
    c = sqlite3.connect(path)
    before = {t: c.execute("SELECT * FROM %s ORDER BY 1, 2, 3" % t).fetchall()
              for t in ("devices", "events")}
    games_before = c.execute("SELECT * FROM games ORDER BY id").fetchall()
    c.close()
    for key, expected in sorted(want.items()):
        code, out, err = knockbox(capsys, *key.split(), "--db", path)
        assert code == 0, (key, err)
        got = json.loads(out) if "--json" in key else out
        assert kept(expected, got), key
    c = sqlite3.connect(path)
    assert c.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
    assert c.execute("SELECT * FROM games ORDER BY id").fetchall() == [
        r + tuple(r2) for r, r2 in zip(games_before, c.execute(
            "SELECT evening, standings, play FROM games ORDER BY id").fetchall())]
    for t, rows in before.items():
        assert [r[:len(rows[0])] for r in c.execute("SELECT * FROM %s ORDER BY 1, 2, 3" % t)] \
            == rows
    # every game has its three seats (the refused one: those of the hands before the refusal)
    assert c.execute("SELECT COUNT(*) FROM seats").fetchone() == (3 * len(games_before),)
    c.close()
    # the upgraded file goes on as any other: a sync adds to it
    E.sync_into(path, E.journal([E.game(E.M3, ["Ann", "Eve", "Fay"]), E.EVENING,
                                 E.game(E.M1, ["Eve", "Fay", "Ann"]), E.game(E.M2)]),
                dev="fedcba9876543210")
    code, out, err = knockbox(capsys, "history", "--json", "--db", path)
    rows = json.loads(out)
    assert len(rows) == 11 and rows[-1]["evening"] == 3 and rows[-2]["evening"] == 3
