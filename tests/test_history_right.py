"""Right answers over real evenings, through the commands: `knockbox settle` alone settles the
latest evening as the device's Evening screen and `knockbox report` do (an evening past midnight
too), and `knockbox import` keeps games apart as a person would: the same device record, or the
same time (or day, for a record without a date) and the same hands, is one game; hands alone
never are."""

import json

from kit import evenings as E
from kit.clirun import db_rows, knockbox


def test_settle_alone_is_the_latest_evening_even_past_midnight(capsys, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(
        db,
        E.journal(
            [
                E.game(E.M1, ["Ann", "Bob", "Cy"]),
                E.EVENING,
                E.game(E.M3, ["Ann", "Bob", "Cy"]),
                E.game(E.M2, ["Cy", "Dee", "Ann"]),
            ]
        ),
    )
    # the second evening starts before midnight and ends after it
    for gid, when in (
        (1, "2024-03-01 20:00:00"),
        (2, "2024-03-08 23:40:00"),
        (3, "2024-03-09 00:50:00"),
    ):
        db_rows(db, "UPDATE games SET synced = ? WHERE gid = ?", when, gid)
    code, alone, err = knockbox("settle", "--db", db, "--json")
    assert code == 0, err
    code, evening, err = knockbox("settle", "--db", db, "--json", "--evening")
    assert code == 0, err
    assert json.loads(alone) == json.loads(evening)
    res = json.loads(alone)
    assert res["games"] == [2, 3] and res["evening"] == 2 and res["payments"]
    code, out, err = knockbox("settle", "--db", db)
    assert out.startswith("evening 2: games 2, 3\n")


def paper(day, hands=1, players=("Ann", "Bob", "Cy")):
    rec = E.game(E.M1, players)
    return dict(rec, hands=rec["hands"][:hands], meta={"synced": day})


def test_paper_games_alike_but_for_their_dates_stay_apart(capsys, tmp_path):
    import datetime

    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "sheets.json"
    first = datetime.date(2001, 1, 1)
    days = [(first + datetime.timedelta(days=i)).isoformat() for i in range(4000)]
    f.write_text(json.dumps([paper(d) for d in days]))
    code, out, err = knockbox("import", f, "--db", db)
    assert code == 0 and out.startswith("4000 games imported"), (out, err)
    assert db_rows(db, "SELECT COUNT(*), COUNT(DISTINCT evening) FROM games") == [(4000, 4000)]
    # the same file again: each game is there (same date, same hands)
    code, out, err = knockbox("import", f, "--db", db)
    assert out.startswith("0 games imported; 4000 already in the history"), out


def test_one_time_same_hands_is_one_game_other_times_or_hands_are_two(capsys, tmp_path):
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "sheets.json"
    f.write_text(
        json.dumps(
            [
                paper("2020-02-02 20:00"),
                paper("2020-02-02 20:00:00"),
                paper("2020-02-02 22:00"),
                paper("2020-02-02", hands=2),
            ]
        )
    )
    code, out, err = knockbox("import", f, "--db", db)
    assert out.startswith("3 games imported; 1 already in the history"), out


def test_a_device_game_is_its_device_record_not_its_hands(capsys, tmp_path):
    # two games of one device alike in every hand (numbers 1 and 2) stay two on another laptop
    db, other = str(tmp_path / "h.sqlite3"), str(tmp_path / "other.sqlite3")
    rec = E.game(E.M1, ["Ann", "Bob", "Cy"])
    E.sync_into(db, E.journal([rec, rec]))
    code, dump, err = knockbox("export", "--json", "--db", db)
    f = tmp_path / "dump.json"
    f.write_text(dump)
    code, out, err = knockbox("import", f, "--db", other)
    assert out.startswith("2 games imported"), out
    code, out, err = knockbox("import", f, "--db", other)
    assert out.startswith("0 games imported; 2 already in the history"), out
    assert db_rows(other, "SELECT gid FROM games ORDER BY gid") == [(1,), (2,)]
