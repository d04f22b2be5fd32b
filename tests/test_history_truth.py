"""The numbers depend on the games alone, through the commands a user types: evening numbers and
game ids never move once shown, a rename keeps every rating and page, a game that reaches the
history twice (two laptops, any order, any version) is one game, and what the device holds is
never lost to a history operation (a later sync brings it back). The device is a journal served
on a pseudo-terminal (kit.devjournal), synced with `knockbox sync` in this process."""

import json
import re
import time

import pytest

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
    g = tmp_path / "g.json"
    g.write_text(json.dumps([paper("2020-01-02")]))
    ok("import", g, "--db", db)
    ok("import", f, "--db", db)  # that game again: under the id it had
    assert [r["id"] for r in js("history", "--db", db)] == [5, 6, 1, 2, 4]
    code, out, err = knockbox("show", "3", "--db", db)
    assert code == 1 and "game 3 was deleted" in err


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


# ---- two laptops, one truth


def played(j, n, rnd, players=("Ann", "Bob", "Cy")):
    """n games played to their end on the device of journal j, then one left on the table."""
    for i in range(n + 1):
        gid = j.new_game(players, method=1 + i % 3, rnd=rnd)
        while j.hand(gid, rnd=rnd) and i < n:
            pass
        if i == n:
            j.hand(gid, rnd=rnd)


def test_two_laptops_hold_one_game_the_newest_copy(capsys, tmp_path):
    import random

    a, b = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    j = Journal()
    played(j, 4, random.Random(3))
    assert j.sync(a)[0] == 0
    ann = {p["player"]: p["games"] for p in js("stats", "--db", a)}["Ann"]
    # a hand of game 2 corrected on the device (Edit hand), then laptop B syncs
    g2 = j.games()[2]
    j.edit(2, 0, dict(g2.record()["hands"][0], counts=list(g2.record()["hands"][0]["counts"])))
    fixed = g2.record()["hands"][0]
    seat = fixed.get("knock", fixed.get("gin"))
    other = [s for s, c in enumerate(fixed["counts"]) if c is not None and s != seat][0]
    j.evs[-1]["h"]["counts"][other] += 1  # the correction: another count
    assert j.sync(b)[0] == 0
    dump = tmp_path / "b.json"
    dump.write_text(ok("export", "--json", "--db", b))
    out = ok("import", dump, "--db", a)
    assert out.startswith("0 games imported; 1 updated to a newer copy (below), 4 already"), out
    assert "game 2 (device %s game 2) updated to a newer copy" % j.dev in out
    assert {p["player"]: p["games"] for p in js("stats", "--db", a)}["Ann"] == ann
    assert js("stats", "--db", a) == js("stats", "--db", b)
    # the other way round, again, and a direct sync: nothing moves
    dump_a = tmp_path / "a.json"
    dump_a.write_text(ok("export", "--json", "--db", a))
    assert ok("import", dump_a, "--db", b).startswith("0 games imported; 5 already")
    assert ok("import", dump, "--db", a).startswith("0 games imported; 5 already")
    time.sleep(1.1)  # (a sync a second later: the copy is the same however late it is seen)
    assert "0 updated" in j.sync(a)[1]
    # the same games on both laptops; when each laptop saw a game is its own clock's (the two
    # first syncs may fall on different seconds)
    own = ("id", "synced", "updated")
    strip = lambda rows: [{k: v for k, v in r.items() if k not in own} for r in rows]  # noqa: E731
    assert strip(js("history", "--db", a)) == strip(js("history", "--db", b))


def test_a_later_copy_wins_but_never_one_that_lost_hands(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "f.json"
    j = Journal()
    j.record(E.game(E.M3, ["Ann", "Bob", "Cy"]))
    assert j.sync(db)[0] == 0
    rec = json.loads(ok("export", "--json", "--db", db))[0]
    # a copy with a hand changed and a later meta.updated: the newest version wins
    later = json.loads(json.dumps(rec))
    later["hands"][-1]["counts"][1] += 1
    later["meta"]["updated"] = "2999-01-01 10:00:00"
    # a copy with fewer hands, later still: the history keeps its hands
    shorter = json.loads(json.dumps(rec))
    shorter["hands"] = shorter["hands"][:3]
    shorter["meta"].update(updated="2999-12-31 10:00:00", status="playing")
    f.write_text(json.dumps([later, shorter]))
    out = ok("import", f, "--db", db)
    assert out.startswith("0 games imported; 1 updated to a newer copy (below), 1 already"), out
    assert json.loads(ok("export", "--json", "--db", db))[0]["hands"] == later["hands"]
    # an older copy than the one held: nothing changes
    older = dict(rec, meta=dict(rec["meta"], updated="2000-01-01 00:00:00"))
    f.write_text(json.dumps([older]))
    assert ok("import", f, "--db", db).startswith("0 games imported; 1 already")
    assert json.loads(ok("export", "--json", "--db", db))[0]["hands"] == later["hands"]


# ---- what the device holds is never lost to a history operation


def test_an_import_undone_after_a_sync_loses_no_device_game(capsys, tmp_path):
    import random

    db, new = str(tmp_path / "h.sqlite3"), str(tmp_path / "new.sqlite3")
    j = Journal()
    played(j, 5, random.Random(5))
    assert j.sync(db)[0] == 0
    backup = tmp_path / "backup.json"
    backup.write_text(ok("export", "--json", "--db", db))
    want = js("stats", "--db", db)
    # the backup into a new history, the device synced, then the backup's import undone
    ok("import", backup, "--db", new)
    assert j.sync(new)[0] == 0
    assert "0 games taken out" in ok("import", "--undo", "--db", new)
    assert js("stats", "--db", new) == want
    # an import that brought a later copy, a sync that took the game on, then the undo
    j2 = Journal("0123456789abcdef")
    gid = j2.new_game(["Ann", "Bob", "Dee"], rules={"preset": "seed", "m3_target": 100000})
    for _ in range(3):
        j2.hand(gid, rnd=random.Random(2))
    assert j2.sync(db)[0] == 0

    def hands():
        recs = json.loads(ok("export", "--json", "--db", db))
        return [r["hands"] for r in recs if r["meta"]["device"] == j2.dev][0]

    assert len(hands()) == 3
    for _ in range(2):
        j2.hand(gid, rnd=random.Random(7))
    tmp = str(tmp_path / "other.sqlite3")
    assert j2.sync(tmp)[0] == 0
    copy = tmp_path / "copy.json"
    copy.write_text(ok("export", "--json", "--db", tmp))
    assert "1 updated" in ok("import", copy, "--db", db)
    assert len(hands()) == 5
    while len(j2.games()[gid].hands) < 9 and j2.hand(gid, rnd=random.Random(11)):
        pass
    assert j2.sync(db)[0] == 0
    ok("import", "--undo", "--db", db)
    assert hands() == j2.games()[gid].record()["hands"] and len(hands()) == 9


def test_a_deleted_game_comes_back_and_goes_on_with_the_device(capsys, tmp_path):
    import random

    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    rnd = random.Random(4)
    played(j, 2, rnd)
    assert j.sync(db)[0] == 0
    backup = tmp_path / "backup.json"
    backup.write_text(ok("export", "--json", "--db", db))
    ok("delete", "3", "1", "--yes", "--db", db)
    code, out, err = knockbox("show", "3", "--db", db)
    assert code == 1 and "game 3 was deleted: `knockbox delete --undo 3` brings it back" in err
    j.hand(3, rnd=rnd)
    assert j.sync(db)[0] == 0
    assert [r["id"] for r in js("history", "--db", db)] == [2]
    # undone: the latest delete's games, under their ids, game 3 as the device has it now
    assert ok("delete", "--undo", "--db", db) == "2 games back: 1, 3\n"
    now = json.loads(ok("export", "--json", "--db", db))
    assert [r["meta"]["id"] for r in now] == [1, 2, 3]
    assert now[2]["hands"] == j.games()[3].record()["hands"]
    code, out, err = knockbox("delete", "--undo", "2", "--db", db)
    assert code == 1 and "no deleted game 2" in err
    code, out, err = knockbox("delete", "--undo", "--db", db)
    assert code == 1 and "no deleted game" in err
    code, out, err = knockbox("delete", "--db", db)
    assert code == 1 and err == "knockbox: give the GAME(s) to delete (or --undo)\n"
    # deleted again, then brought back by an import: it goes on with the device
    ok("delete", "3", "--yes", "--db", db)
    assert ok("import", backup, "--db", db).startswith("1 game imported")
    j.hand(3, rnd=rnd)
    assert j.sync(db)[0] == 0
    assert (
        json.loads(ok("export", "--json", "--db", db))[2]["hands"] == j.games()[3].record()["hands"]
    )
    # and undoing that import deletes it again
    ok("import", "--undo", "--db", db)
    assert [r["id"] for r in js("history", "--db", db)] == [1, 2]


def test_a_second_game_under_one_number_is_kept_apart_not_invalid(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    j.record(E.game(E.M1, ["Ann", "Bob", "Cy"]))
    j.record(E.game(E.M3, ["Dee", "Eve", "Fay"]), gid=1)  # the device gave number 1 again
    code, out, err = j.sync(db)
    assert code == 0, err
    rows = js("history", "--db", db)
    assert [(r["status"], r["replaced"], r["players"]) for r in rows] == [
        ("over", True, ["Ann", "Bob", "Cy"]),
        ("over", False, ["Dee", "Eve", "Fay"]),
    ]
    assert sorted(p["player"] for p in js("stats", "--db", db)) == [
        "Ann", "Bob", "Cy", "Dee", "Eve", "Fay",
    ]  # fmt: skip


def test_a_journal_that_shrank_and_went_another_way_counts_its_hands_once(capsys, tmp_path):
    import random

    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    rnd = random.Random(2)
    gid = j.new_game(["Ann", "Bob", "Cy"], rules={"preset": "seed", "m3_target": 100000})
    for _ in range(7):
        j.hand(gid, rnd=rnd)
    assert j.sync(db)[0] == 0
    j.lose(4)  # a repaired journal: 3 hands left
    for _ in range(2):
        j.hand(gid, rnd=random.Random(99))
    code, out, err = j.sync(db)
    assert "went another way" in err and "counts" in err, err
    hands = {p["player"]: p["hands"] for p in js("stats", "--db", db)}
    assert hands == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert js("stats", "--db", db) == js("stats", "--db", fresh(tmp_path, db))


def test_an_export_always_imports_back(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    j.record(E.game(E.M1, ["Ann", "B" * 30, "Cy"]))  # a name longer than the roster's
    j.record(E.game(E.M3, ["Ann", " ", "Cy"]))  # an empty name
    j.sync(db)
    assert js("stats", "--db", db) == js("stats", "--db", fresh(tmp_path, db))
    strip = lambda rows: [dict(r, id=None) for r in rows]  # noqa: E731
    assert strip(js("history", "--db", db)) == strip(
        js("history", "--db", str(tmp_path / "fresh.sqlite3"))
    )


# ---- renames and the games that come later


def test_a_game_with_two_names_of_one_merged_player_is_said(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    j.record(E.game(E.M1, ["Bob", "Ann", "Cy"]))
    j.record(E.game(E.M3, ["Bobby", "Ann", "Dee"]))
    assert j.sync(db)[0] == 0
    ok("player", "rename", "Bobby", "Bob", "--merge", "--db", db)
    j.record(E.game(E.M2, ["Bob", "Bobby", "Cy"]))
    code, out, err = j.sync(db)
    assert (
        code == 0
        and (
            "note: a game of 'Bob', 'Bobby', 'Cy' keeps 'Bobby' as given (renamed 'Bob' by "
            "`knockbox player rename`): one game cannot have one player twice\n"
        )
        in err
    ), err
    assert js("history", "--db", db)[-1]["players"] == ["Bob", "Bobby", "Cy"]


def test_a_name_renamed_back_leaves_no_alias(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    j = Journal()
    j.record(E.game(E.M1, ["Dee", "Ann", "Cy"]))
    assert j.sync(db)[0] == 0
    ok("player", "rename", "Dee", "Deirdre", "--db", db)
    ok("player", "rename", "Deirdre", "Dee", "--db", db)
    j.record(E.game(E.M3, ["Deirdre", "Ann", "Cy"]))  # a real Deirdre, later
    j.record(E.game(E.M3, ["Dee", "Ann", "Cy"]))
    assert j.sync(db)[0] == 0
    assert [r["players"][0] for r in js("history", "--db", db)] == ["Dee", "Deirdre", "Dee"]


@pytest.mark.slow  # three books
def test_a_book_kept_over_history_operations_is_a_fresh_historys_book(capsys, tmp_path):
    import random

    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "old.json"
    j, rnd = Journal(), random.Random(6)
    played(j, 3, rnd)
    j.evening()
    played(j, 2, rnd, ("Bob", "Cy", "Dee"))
    assert j.sync(db)[0] == 0
    f.write_text(json.dumps([paper("2019-05-03 20:00"), paper("2019-05-03 21:00")]))
    ok("import", f, "--db", db)
    book = tmp_path / "book"
    ok("book", "-o", book, "--db", db)  # a book built before
    ok("player", "rename", "Bob", "Robert", "--db", db)
    ok("delete", "2", "--yes", "--db", db)
    ok("delete", "--undo", "--db", db)
    ok("delete", "1", "--yes", "--db", db)
    ok("import", "--undo", "--db", db)
    f.write_text(json.dumps([paper("2019-06-07 20:00", players=("Ann", "Bob", "Dee"))]))
    ok("import", f, "--db", db)
    j.evening()
    played(j, 1, rnd, ("Ann", "Bob", "Dee"))
    assert j.sync(db)[0] == 0
    ok("book", "-o", book, "--db", db)  # and after
    new = fresh(tmp_path, db)
    ok("book", "-o", tmp_path / "fresh-book", "--db", new)
    assert pages(book, db) == pages(tmp_path / "fresh-book", new)


def pages(folder, db):
    """The index and player pages of the book in folder with each evening's number as its key
    (the evenings of a history keep the numbers they were given; a fresh history numbers them in
    their order), and each evening page's players and games."""
    key = {}
    for r in json.loads(ok("export", "--json", "--db", db)):
        key[r["meta"]["id"]] = r["meta"].get("evening")
    number = {
        r["evening"]: key[r["id"]] for r in js("history", "--db", db) if r["evening"] is not None
    }

    def keyed(text):
        text = re.sub(r"evenings/(\d+)\.html", lambda m: "evenings/%s" % number[int(m[1])], text)
        text = re.sub(r"data-evening=\"(\d+)\"", lambda m: "E=%s" % number[int(m[1])], text)
        return re.sub(r"Evening (\d+)", lambda m: "Evening %s" % number[int(m[1])], text)

    out = {}
    for p in sorted(folder.rglob("*.html")):
        text = p.read_text(encoding="utf-8")
        if p.parent.name == "evenings":
            names = sorted(set(re.findall(r"<bdi>([^<]*)</bdi>", text)))
            out["evening " + number[int(p.stem)]] = (names, text.count('data-game="'))
        else:
            out[str(p.relative_to(folder))] = keyed(text)
    return out
