"""One name, one look, through the commands: a name is kept in one Unicode form, trimmed, without
the characters nobody sees (soft hyphen, zero-width space and joiner, byte order mark), and only
of what the device can draw, the same way on `push`, `import`, `player rename` and `sync`; a name
the device cannot draw is refused in one line (typed, or in a file) or drawn as the device can
(a device's game: it is never lost); names that differ only in case or look alike (Latin "Ann",
Cyrillic "Аnn") are pointed out; and a synced game always exports as a file `import` takes back
(a device name empty, too long, or twice in one game)."""

import json
import os
import sqlite3

import pytest

from kit import evenings as E
from kit.clirun import db_rows, knockbox
from kit.ptydevice import HELLO, FakeDevice, good_device, reply

CYRILLIC_ANN = "\u0410nn"
# What the device cannot draw: tab, line break, NUL, ESC, an emoji, a combining accent on a
# letter it does not combine with, a Latin letter with an accent, a no-break space, Greek
UNDRAWABLE = {
    "An\tn": "a tab",
    "An\nn": "a line break",
    "An\x00n": "a NUL",
    "An\x1bn": "the control character U+001B",
    "Ann \U0001f600": "U+1F600 GRINNING FACE",
    "Anx\u0301": "the combining mark U+0301 COMBINING ACUTE ACCENT",
    "Jos\u00e9": "U+00E9 LATIN SMALL LETTER E WITH ACUTE",
    "Ann\u00a0Lee": "U+00A0 NO-BREAK SPACE",
    "\u0391nn": "U+0391 GREEK CAPITAL LETTER ALPHA",
}
# Names that print as "Ann": each is Ann
INVISIBLE = ["Ann\u00ad", "Ann\u200b", "An\u200dn", "\ufeffAnn", " Ann ", "A\u2060nn"]


def ok(*args):
    code, out, err = knockbox(*args)
    assert code == 0, err
    return out, err


def refused(*args):
    code, out, err = knockbox(*args)
    assert code == 1 and out == "" and err.startswith("knockbox: ") and err.count("\n") == 1, err
    return err


def players_of(db):
    return {p["player"]: p["games"] for p in json.loads(ok("stats", "--json", "--db", db)[0])}


def records(tmp_path, *names_of_games, name="g.json"):
    f = tmp_path / name
    f.write_text(
        json.dumps(
            [
                dict(E.game(E.M1, names), meta={"synced": "2024-01-%02d" % (i + 1)})
                for i, names in enumerate(names_of_games)
            ]
        ),
        encoding="utf-8",
    )
    return str(f)


def device(*names_of_games):
    """A device with one game of each three names."""
    return FakeDevice(good_device(E.journal([E.game(E.M1, n) for n in names_of_games])))


def sync(db, *names_of_games):
    with device(*names_of_games) as d:
        return knockbox("sync", "--port", d.path, "--db", db)


# -- typed or in a file: refused in one line, or cleaned ------------------------------------


@pytest.mark.parametrize("name", sorted(UNDRAWABLE))
def test_a_name_the_device_cannot_draw_is_refused_in_one_line(name, tmp_path, db):
    says = UNDRAWABLE[name]
    err = refused("push", "--roster", "Bob", name, "Cy", "--port", "/dev/null")
    assert "--roster: the name" in err and says in err and "which the device cannot draw" in err
    err = refused("import", records(tmp_path, ["Bob", name, "Cy"]), "--db", db)
    assert "record 1" in err and says in err and "cannot draw: nothing was imported" in err
    assert not os.path.exists(db)
    ok("import", records(tmp_path, ["Bob", "Ann", "Cy"]), "--db", db)
    err = refused("player", "rename", "Ann", name, "--db", db)
    assert "the new name" in err and says in err and "which the device cannot draw" in err
    assert players_of(db) == {"Bob": 1, "Ann": 1, "Cy": 1}


def test_invisible_characters_are_no_part_of_a_name(tmp_path, db):
    ok("import", records(tmp_path, *[[n, "Bob", "Cy"] for n in INVISIBLE]), "--db", db)
    assert players_of(db) == {"Ann": 6, "Bob": 6, "Cy": 6}
    ok("player", "rename", "Ann\u200b", "Anne\u00ad", "--db", db)
    assert players_of(db) == {"Anne": 6, "Bob": 6, "Cy": 6}
    # and what push sends the device is the names as the history has them
    with FakeDevice(_settings_device()) as d:
        ok("push", "--roster", "\ufeffAnn", "Bo\u00adb", "Cy\u200b", "--port", d.path)
    assert [r["set"]["roster"] for r in d.seen if r and r["op"] == "settings"] == [
        ["Ann", "Bob", "Cy"]
    ]


def _settings_device():
    def answer(req, line):
        if req["op"] == "hello":
            return reply(req, **HELLO)
        if req["op"] == "settings":
            return reply(req, ok=True, settings=req.get("set"))
        return reply(req, ok=True)

    return answer


def test_push_points_out_names_alike_and_refuses_one_name_twice():
    with FakeDevice(_settings_device()) as d:
        out, err = ok("push", "--roster", "Ann", "ann", CYRILLIC_ANN, "Bob", "--port", d.path)
    assert err == (
        "note: 'Ann' and 'ann' differ only in case, so they are two players; if they are one: "
        "keep one of them in --roster\n"
        "note: 'Ann' and '\u0410nn' look alike but are spelled with other letters ('A' "
        "(U+0041 LATIN CAPITAL LETTER A) in one, '\u0410' (U+0410 CYRILLIC CAPITAL LETTER A) in "
        "the other), so they are two players; if they are one: keep one of them in --roster\n"
        "note: 'ann' and '\u0410nn' look alike but are spelled with other letters ('a' "
        "(U+0061 LATIN SMALL LETTER A) in one, '\u0410' (U+0410 CYRILLIC CAPITAL LETTER A) in "
        "the other), so they are two players; if they are one: keep one of them in --roster\n"
    )
    err = refused("push", "--roster", "Ann", "Bob", "Ann\u00ad ", "--port", "/dev/null")
    assert "--roster: 'Ann' is there twice" in err


def test_import_and_rename_point_out_names_that_look_alike(tmp_path, db):
    ok("import", records(tmp_path, ["Ann", "Bob", "Cy"]), "--db", db)
    out, err = ok(
        "import", records(tmp_path, [CYRILLIC_ANN, "Bob", "Cy"], name="2.json"), "--db", db
    )
    assert err.startswith("note: '\u0410nn' and 'Ann' look alike") and err.endswith(
        "if they are one: `knockbox player rename '\u0410nn' Ann --merge`\n"
    )
    ok("player", "rename", "\u0410nn", "Ann", "--merge", "--db", db)
    assert players_of(db) == {"Ann": 2, "Bob": 2, "Cy": 2}
    out, err = ok("player", "rename", "Cy", "C\u0443", "--db", db)  # Cyrillic у
    assert "look alike" not in err  # "Cy" is no player now: nothing alike
    out, err = ok("player", "rename", "Bob", "B0b", "--db", db)
    assert err == ""  # 0 and o are no pair: only O and 0 are
    out, err = ok("player", "rename", "B0b", "BOb", "--db", db)
    assert err == ""


# -- from a device: stored as it can be drawn, and exported as import takes it back ------------


def test_a_device_s_names_are_the_history_s(db):
    code, out, err = sync(
        db,
        *[[n, "Bob", "Cy"] for n in INVISIBLE],
        [CYRILLIC_ANN, "Bob", "Cy"],
        ["Ann", "Ann ", "Bob"],  # one game, two seats "Ann"
        ["An\x00n", "Bob\t", "Cy\U0001f600"],
        ["Jos\u00e9", "Bob", "Cy"],
    )
    assert code == 0, err
    assert "note: 'Ann' and '\u0410nn' look alike" in err
    assert players_of(db) == {
        "Ann": 7,
        "Ann 2": 1,
        "\u0410nn": 1,
        "An?n": 1,
        "Bob": 10,
        "Cy": 8,
        "Cy?": 1,
        "Jose": 1,
    }
    # a name typed with its trailing space finds the player
    out, err = ok("player", "rename", "Ann ", "Anne", "--db", db)
    assert out == "'Ann' is now 'Anne' in 7 games\n"
    assert "\x00" not in ok("export", "--csv", "--db", db)[0]


def test_a_device_game_always_exports_as_import_takes_it_back(tmp_path, db):
    code, out, err = sync(db, ["", "Bob", "  "], ["Ann", "B" * 30, "Cy" * 20])
    assert code == 0, err
    assert players_of(db) == {
        "Seat A": 1,
        "Bob": 1,
        "Seat C": 1,
        "Ann": 1,
        "B" * 24: 1,
        "Cy" * 12: 1,
    }
    assert [r[0] for r in db_rows(db, "SELECT status FROM games")] == ["over", "over"]
    backup = str(tmp_path / "backup.json")
    ok("export", "--json", "-o", backup, "--db", db)
    out, err = ok("import", backup, "--db", str(tmp_path / "fresh.sqlite3"))
    assert out == "2 games imported\n"
    assert players_of(str(tmp_path / "fresh.sqlite3")) == players_of(db)
    # and into the history it came from: nothing new
    assert ok("import", backup, "--db", db)[0].startswith("0 games imported; 2 already")


def test_a_history_with_names_of_older_rules_is_put_right_when_opened(tmp_path, db):
    """Names an older knockbox stored (untrimmed when two seats would have been one name, empty,
    long, invisible characters, what the device cannot draw) are the history's names when it is
    next opened, and it exports as import takes back."""
    code, out, err = sync(db, ["P1", "P2", "Bob"], ["P3", "P4", "P5"])
    assert code == 0, err
    old = {"P1": "Ann", "P2": "Ann ", "P3": "", "P4": "x" * 40, "P5": "Jos\u00e9\u200b"}
    E.write_names(db, old)
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO aliases VALUES ('Jo\u00adsé', 'Jos\u00e9\u200b')")
        con.execute("DELETE FROM meta WHERE key = 'names'")
    con.close()
    assert players_of(db) == {"Ann": 1, "Ann 2": 1, "Bob": 1, "Seat A": 1, "x" * 24: 1, "Jose": 1}
    assert db_rows(db, "SELECT * FROM aliases") == [("Jos\u00e9", "Jose")]
    assert len(db_rows(db, "SELECT value FROM meta WHERE key = 'names'")) == 1  # said: done
    backup = str(tmp_path / "backup.json")
    ok("export", "--json", "-o", backup, "--db", db)
    assert ok("import", backup, "--db", str(tmp_path / "fresh.sqlite3"))[0] == "2 games imported\n"


def test_an_older_export_of_a_device_game_imports_with_the_names_sync_gives(tmp_path, db):
    """An export made before names were held to what the device draws (a device's game with an
    accent, an emoji, an empty or a long name) still imports: a device's record takes its names
    as sync stores them, a typed-in record with the same names is refused."""
    names = ["Jos\u00e9", "\U0001f600", ""]
    rec = dict(E.game(E.M1, ["x", "y", "z"]), players=names)
    f = tmp_path / "old.json"
    meta = {"synced": "2024-01-05 20:00", "device": "e661", "epoch": 1, "gid": 1}
    f.write_text(json.dumps([dict(rec, meta=meta)]), encoding="utf-8")
    assert ok("import", str(f), "--db", db)[0] == "1 game imported\n"
    assert players_of(db) == {"Jose": 1, "?": 1, "Seat C": 1}
    typed = tmp_path / "typed.json"
    typed.write_text(json.dumps([dict(rec, meta={"synced": "2024-01-05"})]), encoding="utf-8")
    assert "which the device cannot draw" in refused("import", str(typed), "--db", db)
