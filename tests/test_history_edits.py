"""Mistakes put right on the laptop, through the commands: names trimmed and compared in one
Unicode form, `knockbox player rename` (kept for games that come later with the old name) and
--merge, names that differ only in case pointed out, `knockbox delete` (a deleted device game
stays deleted), `knockbox import --undo` (an import taken back whole), the device's name limit."""

import json
import os
import pty
import subprocess
import sys

from kit import evenings as E
from kit.clirun import db_rows, knockbox

KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")


def players_of(db):
    code, out, err = knockbox("stats", "--json", "--db", db)
    assert code == 0, err
    return {p["player"]: p["games"] for p in json.loads(out)}


def test_names_are_trimmed_and_in_one_unicode_form(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(
        db,
        E.journal(
            [
                E.game(E.M1, ["Bob ", "Ann", "\u0415\u0308\u0436"]),  # Ё as Е + diaeresis
                E.game(E.M2, ["Bob", " Ann", "\u0401\u0436"]),
            ]
        ),
    )
    assert players_of(db) == {"Bob": 2, "Ann": 2, "\u0401\u0436": 2}


def test_a_rename_holds_for_games_synced_later(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    plan = [E.game(E.M1, ["Bob", "Ann", "Cy"]), E.game(E.M3, ["Cy", "Bob", "Dee"])]
    E.sync_into(db, E.journal(plan))
    # --merge with no player of the new name: a rename, and said as one
    code, out, err = knockbox("player", "rename", "Bob", "Robert", "--merge", "--db", db)
    assert (code, out) == (0, "'Bob' is now 'Robert' in 2 games\n"), err
    assert players_of(db) == {"Robert": 2, "Ann": 1, "Cy": 2, "Dee": 1}
    code, out, err = knockbox("show", "1", "--db", db)
    assert "Robert, Ann, Cy" in out and "Bob" not in out
    # the device still has Bob: its next game, and its games synced again, are Robert's
    s = E.sync_into(db, E.journal(plan + [E.game(E.M2, ["Ann", "Bob", "Dee"])]))
    assert s.results == dict(s.results, new=1, replaced=0)
    assert players_of(db) == {"Robert": 3, "Ann": 2, "Cy": 2, "Dee": 2}
    code, out, err = knockbox("history", "--db", db)
    assert "Bob" not in out and out.count("Robert") == 3
    # and back again: the old name is the player's again, nothing left of the first rename
    assert knockbox("player", "rename", "Robert", "Bob", "--db", db)[0] == 0
    E.sync_into(db, E.journal(plan + [E.game(E.M2, ["Ann", "Bob", "Dee"])]))
    assert players_of(db) == {"Bob": 3, "Ann": 2, "Cy": 2, "Dee": 2}


def test_names_that_differ_only_in_case_are_pointed_out_and_merged(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    s = E.sync_into(
        db, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"]), E.game(E.M3, ["ann", "Bob", "Dee"])])
    )
    assert s.err.getvalue() == (
        "note: 'ann' and 'Ann' differ only in case, so they are two "
        "players; if they are one: `knockbox player rename ann Ann "
        "--merge`\n"
    )
    code, out, err = knockbox("player", "rename", "ann", "Ann", "--db", db)
    assert code == 1 and err == (
        "knockbox: 'Ann' is a player already (1 game): `knockbox "
        "player rename ann Ann --merge` puts the games of 'ann' under "
        "'Ann'\n"
    )
    assert players_of(db) == {"Ann": 1, "ann": 1, "Bob": 2, "Cy": 1, "Dee": 1}
    code, out, err = knockbox("player", "rename", "ann", "Ann", "--merge", "--db", db)
    assert code == 0 and out == "'ann' is now 'Ann' in 1 game (merged)\n"
    assert players_of(db) == {"Ann": 2, "Bob": 2, "Cy": 1, "Dee": 1}
    code, out, err = knockbox("player", "rename", "Dee", "bob", "--db", db)
    assert code == 0 and err == (
        "note: 'bob' and 'Bob' differ only in case, so they are two "
        "players; if they are one: `knockbox player rename bob Bob "
        "--merge`\n"
    )
    assert knockbox("player", "rename", "bob", "Dee", "--db", db)[0] == 0
    # one game cannot have one player twice; bad names are one line
    for args, says in (
        (["Bob", "Cy", "--merge"], "'Bob' and 'Cy' both play in game 1"),
        (["Zed", "Zoe"], "no player 'Zed' in the history"),
        (["Cy", "x" * 25], "is 25 characters: the device allows 24"),
        (["Cy", "  "], "must be a non-empty text"),
    ):
        code, out, err = knockbox("player", "rename", *args, "--db", db)
        assert code == 1 and err.startswith("knockbox: ") and says in err, err
        assert err.count("\n") == 1


def test_an_import_says_which_names_differ_only_in_case(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "sheets.json"
    f.write_text(
        json.dumps(
            [
                dict(E.game(E.M1, ["Ann", "Bob", "Cy"]), meta={"synced": "2020-01-01"}),
                dict(E.game(E.M1, ["ANN ", "Bob", "Cy"]), meta={"synced": "2020-01-02"}),
            ]
        )
    )
    code, out, err = knockbox("import", f, "--db", db)
    assert code == 0 and out == "2 games imported\n"
    assert err == (
        "note: 'ANN' and 'Ann' differ only in case, so they are two players;"
        " if they are one: `knockbox player rename ANN Ann --merge`\n"
    )


def test_import_refuses_names_longer_than_the_device_allows(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "sheets.json"
    for name, says in (
        ("B" * 1000, "record 1 (Ann, BBBB"),  # shown cut short
        ("B" * 1000, "is 1000 characters: the device allows 24: nothing was imported\n"),
        ("B" * 10_000_000, "record 1 is over 1 MB: not a game record"),
    ):
        f.write_text(json.dumps([E.game(E.M1, ["Ann", name, "Cy"])]))
        code, out, err = knockbox("import", f, "--db", db)
        assert code == 1 and err.startswith("knockbox: %s: " % f) and says in err, err
        assert len(err) < 300 and err.count("\n") == 1 and not os.path.exists(db)
    f.write_text(json.dumps([E.game(E.M1, ["Ann", "x" * 24, " Cy "])]))
    assert knockbox("import", f, "--db", db)[0] == 0
    assert sorted(players_of(db)) == ["Ann", "Cy", "x" * 24]


def test_a_renamed_player_is_renamed_in_what_is_imported_later(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "sheets.json"
    f.write_text(json.dumps([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    knockbox("import", f, "--db", db)
    knockbox("player", "rename", "Bob", "Rob", "--db", db)
    f.write_text(json.dumps([E.game(E.M3, ["Ann", "Bob", "Cy"])]))
    knockbox("import", f, "--db", db)
    assert players_of(db) == {"Ann": 2, "Rob": 2, "Cy": 2}


def test_delete_asks_and_a_deleted_device_game_stays_deleted(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    plan = [E.game(E.M1, ["Ann", "Bob", "Cy"]), E.game(E.M3, ["Ann", "Bob", "Cy"])]
    evs = E.journal(plan)
    E.sync_into(db, evs)
    code, out, err = knockbox("delete", "2", "--db", db)  # no terminal to ask on
    assert (
        code == 1 and err == "knockbox: nothing deleted: give --yes to delete without a question\n"
    )
    code, out, err = knockbox("delete", "2", "7", "--yes", "--db", db)
    assert code == 1 and "no game 7" in err
    code, out, err = knockbox("delete", "2", "--yes", "--db", db)
    assert (code, out) == (0, "1 game deleted\n")
    assert db_rows(db, "SELECT gid FROM games") == [(1,)]
    # the device still has it and edits it: a sync leaves it out
    evs.append({"t": "undo", "g": 2})
    s = E.sync_into(db, evs)
    assert s.results["deleted"] == 1 and db_rows(db, "SELECT gid FROM games") == [(1,)]
    # on a terminal the question is asked: no keeps it, y deletes it
    for answer, code, left in ((b"n\n", 1, [(1,)]), (b"y\n", 0, [])):
        master, slave = pty.openpty()
        p = subprocess.Popen(
            [KNOCKBOX, "delete", "1", "--db", db],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        os.write(master, answer)
        out, err = p.communicate(timeout=30)
        os.close(master)
        os.close(slave)
        assert p.returncode == code, err
        assert b"game 1: Ann, Bob, Cy; 5 hands; over; synced " in err and b"Delete it? [y/N]" in err
        assert db_rows(db, "SELECT gid FROM games") == left


def test_an_import_is_undone_whole(capsys, tmp_path):
    db, a, b = str(tmp_path / "h.sqlite3"), tmp_path / "a.json", tmp_path / "b.json"
    short = dict(E.game(E.M1, ["Ann", "Bob", "Cy"]), meta={"device": "d1", "epoch": 0, "gid": 1})
    whole = json.loads(json.dumps(short))
    short["hands"] = short["hands"][:2]
    a.write_text(
        json.dumps([short, dict(E.game(E.M3, ["Ann", "Bob", "Cy"]), meta={"synced": "2020-01-01"})])
    )
    b.write_text(
        json.dumps(
            [whole, dict(E.game(E.M2, ["Ann", "Bob", "Dee"]), meta={"synced": "2020-01-02"})]
        )
    )
    assert knockbox("import", a, "--db", db)[1] == "2 games imported\n"
    first = knockbox("history", "--json", "--db", db)[1]
    code, out, err = knockbox("import", b, "--db", db)
    assert out == (
        "1 game imported; 1 updated to a newer copy (below)\n"
        "game 1 (device d1 game 1) updated to a newer copy: 5 hands, over (it had 2 hands, "
        "playing)\n"
    )
    assert db_rows(db, "SELECT hands FROM games WHERE gid = 1 AND device_id = 'd1'") == [(5,)]
    code, out, err = knockbox("import", "--undo", "--db", db)
    assert code == 0 and "undone: 1 game taken out, 1 put back as they were\n" in out
    assert out.startswith("import 2 of ") and str(b) in out
    assert knockbox("history", "--json", "--db", db)[1] == first
    code, out, err = knockbox("import", "--undo", "--db", db)
    assert code == 0 and "undone: 2 games taken out\n" in out
    assert db_rows(db, "SELECT COUNT(*) FROM games") == [(0,)]
    for args, says in (
        (["--undo"], "no import to undo"),
        (["--undo", a], "--undo takes no FILE"),
        ([], "give the FILE(s) to import"),
    ):
        code, out, err = knockbox("import", *args, "--db", db)
        assert code == 1 and says in err and err.count("\n") == 1, err
    # an import that adds nothing is nothing to undo: the one before it is undone
    assert knockbox("import", a, "--db", db)[0] == 0
    assert knockbox("import", a, "--db", db)[1] == "0 games imported; 2 already in the history\n"
    assert "import 3 of" in knockbox("import", "--undo", "--db", db)[1]


def test_what_a_command_line_gives_that_is_not_utf8_is_one_line(capsys, tmp_path):
    # bytes of a command line that are not UTF-8 reach Python as lone surrogates ("\udcff")
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal([E.game(E.M1, ["Ann", "Bob", "Cy"])]))
    for args, says in (
        (["Ann", "A\udcffn"], "the new name 'A\\udcffn' is not UTF-8 text"),
        (["A\udcffn", "Ann"], "the old name 'A\\udcffn' is not UTF-8 text"),
    ):
        code, out, err = knockbox("player", "rename", *args, "--db", db)
        assert (code, out, err) == (1, "", "knockbox: %s\n" % says)
    # a file's name: kept as text, shown without its escape sequence by the undo
    f = tmp_path / os.fsdecode(b"\x1b[31m\xff.json")
    f.write_text(json.dumps([E.game(E.M1, ["Ann", "Bob", "Dee"])]))
    assert knockbox("import", f, "--db", db)[:2] == (0, "1 game imported\n")
    code, out, err = knockbox("import", "--undo", "--db", db)
    assert code == 0 and "(%s) undone" % (tmp_path / "\\x1b[31m\\xff.json") in out, out


def test_names_stored_by_an_older_knockbox_are_cleaned_when_it_is_upgraded(capsys, tmp_path):
    import shutil
    import sqlite3

    db = str(tmp_path / "h.sqlite3")
    shutil.copy(os.path.join(os.path.dirname(__file__), "fixtures", "history-v1.sqlite3"), db)
    con = sqlite3.connect(db)
    row_id, players, rec = con.execute(
        "SELECT id, players, record FROM games WHERE status = 'over' ORDER BY id LIMIT 1"
    ).fetchone()
    name = json.loads(players)[0]
    dirty = [" %s " % name if n == name else n for n in json.loads(players)]
    rec = dict(json.loads(rec), players=dirty)
    con.execute(
        "UPDATE games SET players = ?, record = ? WHERE id = ?",
        (json.dumps(dirty), json.dumps(rec, sort_keys=True), row_id),
    )
    con.commit()
    con.close()
    assert " %s " % name not in players_of(db) and name in players_of(db)
    assert db_rows(db, "SELECT players FROM games WHERE id = ?", row_id) == [
        (json.dumps([name if n.strip() == name else n for n in dirty], ensure_ascii=False),)
    ]
