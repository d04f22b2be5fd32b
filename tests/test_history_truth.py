"""The numbers depend on the games alone, through the commands a user types: evening numbers and
game ids never move once shown, a rename keeps every rating and page, a game that reaches the
history twice (two laptops, any order, any version) is one game, and what the device holds is
never lost to a history operation (a later sync brings it back). The device is a journal served
on a pseudo-terminal (kit.devjournal), synced with `knockbox sync` in this process."""

import json
import re

from kit import evenings as E
from kit.clirun import knockbox
from kit.devjournal import Journal


def ok(*args):
    code, out, err = knockbox(*args)
    assert code == 0, (args, out, err)
    return out


def js(*args):
    return json.loads(ok(*args, "--json"))


def paper(day, rec=None, players=("Ann", "Bob", "Cy"), **meta):
    rec = rec or E.game(E.M1, players)
    return dict(rec, meta=dict(meta, synced=day))


# ---- numbers that do not move


def test_evening_numbers_never_move_when_older_games_arrive(capsys, tmp_path):
    db, old = str(tmp_path / "h.sqlite3"), tmp_path / "old.json"
    j = Journal()
    j.record(E.game(E.M1, ["Ann", "Bob", "Cy"]))
    j.evening()
    j.record(E.game(E.M3, ["Ann", "Bob", "Dee"]))
    assert j.sync(db)[0] == 0
    before = {n: ok("settle", "--evening", str(n), "--db", db) for n in (1, 2)}
    report = ok("settle", "--db", db)
    csv_before = ok("export", "--csv", "--db", db)
    assert before[1].startswith("evening 1: games 1\n") and report == before[2]
    # paper games of 2019, typed in later: new evenings, after the numbers given
    old.write_text(json.dumps([paper("2019-05-03"), paper("2019-06-07")]))
    assert ok("import", old, "--db", db).startswith("2 games imported")
    assert {n: ok("settle", "--evening", str(n), "--db", db) for n in (1, 2)} == before
    assert ok("settle", "--db", db) == report  # the latest evening is still the device's
    assert set(csv_before.splitlines()) < set(ok("export", "--csv", "--db", db).splitlines())
    rows = js("history", "--db", db)
    assert [(r["id"], r["evening"]) for r in rows] == [(3, 3), (4, 4), (1, 1), (2, 2)]
    ok("import", "--undo", "--db", db)
    assert {n: ok("settle", "--evening", str(n), "--db", db) for n in (1, 2)} == before
    # an evening whose games are gone keeps its number: a new one gets the next
    code, out, err = knockbox("settle", "--evening", "3", "--db", db)
    assert code == 1 and "evening 3 has no games left" in err
    j.evening()
    j.record(E.game(E.M2, ["Ann", "Bob", "Dee"]))
    assert j.sync(db)[0] == 0
    assert ok("settle", "--db", db).startswith("evening 5: games 5\n")


def test_ids_of_deleted_games_are_never_given_again(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "f.json"
    j = Journal()
    for m in (E.M1, E.M2, E.M3):
        j.record(E.game(m))
    assert j.sync(db)[0] == 0
    ok("delete", "3", "--yes", "--db", db)
    j.record(E.game(E.M1, ["Ann", "Bob", "Dee"]))
    assert j.sync(db)[0] == 0
    f.write_text(json.dumps([paper("2020-01-01")]))
    ok("import", f, "--db", db)
    ok("import", "--undo", "--db", db)
    ok("import", f, "--db", db)
    assert [r["id"] for r in js("history", "--db", db)] == [6, 1, 2, 4]
    code, out, err = knockbox("show", "3", "--db", db)
    assert code == 1 and "no game 3" in err


def test_typed_in_games_of_one_date_at_other_times_are_two_games(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "f.json"
    f.write_text(json.dumps([paper("2020-02-02 19:20"), paper("2020-02-02 19:30")]))
    assert ok("import", f, "--db", db) == "2 games imported\n"
    assert ok("import", f, "--db", db) == "0 games imported; 2 already in the history\n"
    assert len(js("history", "--db", db)) == 2


# ---- a rename changes names, never numbers


def fresh(tmp_path, db, name="fresh.sqlite3"):
    """A fresh history made from db's games: its export imported into a new file."""
    dump, new = tmp_path / ("%s.json" % name), str(tmp_path / name)
    dump.write_text(ok("export", "--json", "--db", db))
    ok("import", dump, "--db", new)
    return new


def book_text(folder):
    """Every page of the book in folder, as one text (and the players' page names)."""
    return "\n".join(
        p.name + "\n" + p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.html"))
    )


def test_a_rename_keeps_every_rating_and_no_page_keeps_the_old_name(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    for m, players in ((E.M1, ["Bob", "Ann", "Cy"]), (E.M3, ["Cy", "Bob", "Dee"])):
        j.record(E.game(m, players))
    j.evening()
    j.record(E.game(E.M2, ["Dee", "Ann", "Bob"]))
    j.record(E.game(E.M1, ["Bobby", "Ann", "Cy"]))
    assert j.sync(db)[0] == 0
    bob = {p["player"]: p for p in js("stats", "--db", db)}["Bob"]
    assert bob["rated"] == 3 and bob["rating"] != 25.0
    ok("book", "-o", tmp_path / "before", "--db", db)
    assert re.search(r"\bBob\b", book_text(tmp_path / "before"))
    ok("player", "rename", "Bob", "Robert", "--db", db)
    stats = js("stats", "--db", db)
    robert = {p["player"]: p for p in stats}["Robert"]
    assert dict(robert, player="Bob") == bob
    assert stats == js("stats", "--db", fresh(tmp_path, db))
    # a book built after the rename, into a new folder or over the one built before
    for folder in ("after", "before"):
        ok("book", "-o", tmp_path / folder, "--db", db)
        text = book_text(tmp_path / folder)
        assert not re.search(r"\bBob\b", text) and "Robert" in text, folder
    # and merged into another player: the same numbers as a fresh history of the same games
    ok("player", "rename", "Bobby", "Robert", "--merge", "--db", db)
    assert js("stats", "--db", db) == js("stats", "--db", fresh(tmp_path, db, "fresh2.sqlite3"))
