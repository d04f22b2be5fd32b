"""The players' skill ratings (knockbox.ratings, docs/RATINGS.md) through `knockbox stats` as a
user runs it: a player who wins everything ends on top, method 2 rates the box against each
partner (the partner who sat out included), a season of method 2 keeps the scale, a simulated
group of known strengths is rated in their order, the same history always gives the same ratings whether
it was rated at once, a sync at a time, or with games synced into the past."""

import json
import os
import random
import shutil
import sqlite3

import pytest

from kit import evenings as E
from kit.gamegen import random_game
from knockbox import history, ratings
from knockcore.game import Game
from kit.clirun import db_rows, knockbox
from kit.pages import rows


def stats(db, *args):
    code, out, err = knockbox("stats", "--db", db, "--json", *args)
    assert code == 0, err
    return {p["player"]: p for p in json.loads(out)}


def won_by(method, players, seat, start):
    """A finished game record where seat goes gin in every hand it plays; in method 2 with seat
    a partner, the partnership's player in play goes gin."""
    g = Game(method, players, start, {"preset": "seed"})
    box = start.get("box")
    while not g.over:
        if seat in g.active:
            s = seat
        elif method == 2 and seat != box:
            s = [a for a in g.active if a != box][0]
        else:
            raise ValueError("the winner must start in play")
        counts = [None if a not in g.active else (0 if a == s else 30) for a in range(3)]
        g.add({"gin": s, "counts": counts})
    return g.record()


def clocked(start_minute=0, day="2025-01-31"):
    it = iter(range(start_minute, 100000))

    def now():
        m = next(it)
        return "%s %02d:%02d:00" % (day, 10 + m // 60, m % 60)

    return now


@pytest.fixture
def fixed_clock(monkeypatch):
    monkeypatch.setattr(history, "now", clocked())


def test_who_wins_everything_ends_on_top(tmp_path, fixed_clock):
    """Six players, random games of every method, and Ann wins each game she plays."""
    rnd = random.Random(5)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    plan = []
    for i in range(40):
        method = (1, 3)[i % 2]
        players = ["Ann"] + rnd.sample(names[1:], 2) if i % 3 else rnd.sample(names[1:], 3)
        rnd.shuffle(players)
        if "Ann" in players:
            seat = players.index("Ann")
            start = {"dealer": (seat + 1) % 3}
            if method == 1:
                start["idle"] = (seat + 2) % 3
            plan.append(won_by(method, players, seat, start))
        else:
            g = random_game(rnd, method, until_over=True)
            rec = g.record()
            rec["players"] = players
            plan.append(rec)
        if i % 5 == 4:
            plan.append(E.EVENING)
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan))
    got = stats(db)
    assert got["Ann"]["wins"] == got["Ann"]["games"] > 20
    order = sorted(got, key=lambda n: -got[n]["rating"])
    assert order[0] == "Ann", [(n, got[n]["rating"]) for n in order]
    assert got["Ann"]["rating"] > max(got[n]["rating"] for n in names[1:]) + 5
    for n in names:
        assert got[n]["rated"] == got[n]["games"]
        assert isinstance(got[n]["rating"], float)
    # the text table shows the same numbers
    code, out, err = knockbox("stats", "--db", db)
    head = out.splitlines()[0].split()
    assert head[-3:] == ["rating", "+/-", "rated"]
    row = [r for r in out.splitlines() if r.startswith("Ann ")][0].split()
    assert row[-3:] == ["%.2f" % got["Ann"][k] for k in ("rating", "uncertainty")] + [
        str(got["Ann"]["rated"])
    ]


def test_method_2_rates_the_box_against_each_partner(tmp_path, fixed_clock):
    """The box player against each of the two partners: when the partnership wins, both
    partners (the one who sat out the last hand too) gain and the box player loses twice; and
    the other way round."""
    db = str(tmp_path / "h.sqlite3")
    rec = won_by(2, ["Ann", "Bob", "Cy"], 1, {"box": 0, "captain": 1})
    st = Game(2, rec["players"], rec["start"], rec["rules"])
    for h in rec["hands"]:
        st.add(h)
    assert st.winners == [1, 2] and 2 not in st.active  # Cy sat out, and won with Bob
    E.sync_into(db, E.journal([rec]))
    got = stats(db)
    assert got["Bob"]["rating"] > 25 and got["Cy"]["rating"] > 25 > got["Ann"]["rating"]
    assert [got[n]["rated"] for n in ("Ann", "Bob", "Cy")] == [1, 1, 1]
    # the box lost twice: more than either partner won
    assert 25 - got["Ann"]["rating"] > max(got[n]["rating"] - 25 for n in ("Bob", "Cy"))

    db2 = str(tmp_path / "h2.sqlite3")
    E.sync_into(db2, E.journal([won_by(2, ["Ann", "Bob", "Cy"], 0, {"box": 0, "captain": 1})]))
    got2 = stats(db2)
    assert got2["Bob"]["rating"] < 25 and got2["Cy"]["rating"] < 25 < got2["Ann"]["rating"]
    # one against two: the box player's win moves him more than one partner's share
    assert got2["Ann"]["rating"] - 25 > max(25 - got2[n]["rating"] for n in ("Bob", "Cy"))


def test_a_game_is_its_winner_against_each_other_side():
    """Methods 1 and 3: the winner against each of the other two; method 2: the box against
    each partner. Each player's games rated count the game once."""
    assert ratings.matches(3, ["A", "B", "C"], [1]) == [(["B"], ["A"]), (["B"], ["C"])]
    assert ratings.matches(2, ["A", "B", "C"], [1, 2], box=0) == [(["B"], ["A"]), (["C"], ["A"])]
    assert ratings.matches(2, ["A", "B", "C"], [1], box=1) == [(["B"], ["A"]), (["B"], ["C"])]
    state = {}
    ratings.rate(state, ratings.matches(1, ["A", "B", "C"], [0]))
    assert state["A"][0] > 25 > state["B"][0] and [state[n][2] for n in "ABC"] == [1, 1, 1]


def plan_of(seed, n, names=("Ann", "Bob", "Cy", "Dee")):
    rnd = random.Random(seed)
    plan = []
    for i in range(n):
        rec = random_game(rnd, until_over=rnd.random() < 0.8).record()
        rec["players"] = rnd.sample(names, 3)
        plan.append(rec)
        if i % 4 == 3:
            plan.append(E.EVENING)
    return plan


def ratings_of(db):
    return {n: (p["rating"], p["rated"]) for n, p in stats(db).items()}


def fresh(db, tmp_path):
    """The ratings of a copy of db with the stored ratings dropped: rated from scratch."""
    copy = str(tmp_path / ("fresh-" + os.path.basename(db)))
    shutil.copy(db, copy)
    con = sqlite3.connect(copy)
    con.executescript("DROP TABLE rating_games; DROP TABLE rating_steps;")
    con.close()
    return ratings_of(copy)


def test_the_same_history_gives_the_same_ratings(tmp_path, monkeypatch):
    plan = plan_of(11, 30)
    evs = E.journal(plan)
    cut = next(i for i, e in enumerate(evs) if e.get("g") == 12)
    once, steps = str(tmp_path / "once.sqlite3"), str(tmp_path / "steps.sqlite3")
    monkeypatch.setattr(history, "now", clocked())
    E.sync_into(once, evs)
    monkeypatch.setattr(history, "now", clocked())
    E.sync_into(steps, evs[:cut])
    first = ratings_of(steps)  # rated up to game 11
    E.sync_into(steps, evs)
    assert ratings_of(steps) == ratings_of(once) == fresh(once, tmp_path)
    assert ratings_of(once) != first
    con = sqlite3.connect(steps)
    assert (
        con.execute("SELECT COUNT(*) FROM rating_games").fetchone()[0]
        == con.execute("SELECT COUNT(*) FROM games WHERE status = 'over'").fetchone()[0]
    )
    con.close()

    # a second device's games synced later but dated earlier go before the first device's:
    # the ratings are recomputed from there, the same as rating everything from scratch
    other = E.journal(plan_of(12, 6), first_gid=1)
    before = ratings_of(steps)
    monkeypatch.setattr(history, "now", clocked(day="2025-01-30"))
    E.sync_into(steps, other, dev="fedcba9876543210")
    after = ratings_of(steps)
    assert after != before and after == fresh(steps, tmp_path)
    assert sum(n for _, n in after.values()) > sum(n for _, n in before.values())

    # a game changed on the device after a sync (an undo of its last hand): rated anew
    evs2 = evs + [{"t": "undo", "g": 30}]
    E.sync_into(steps, evs2)
    assert ratings_of(steps) == fresh(steps, tmp_path)


def test_a_stats_selection_still_rates_the_whole_history(tmp_path, fixed_clock):
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan_of(3, 12)))
    whole = ratings_of(db)
    one = stats(db, "--evening", "2")
    assert one and all((p["rating"], p["rated"]) == whole[n] for n, p in one.items())
    assert any(p["rated"] > p["games"] for p in one.values())


def second_place(method, players):
    """A finished game where players[1] wins and players[0] comes second (one hand won,
    players[2] none)."""
    if method == 3:
        start, hands = (
            {"dealer": 2},
            [{"gin": 0, "counts": [0, 30, 30]}] + [{"gin": 1, "counts": [30, 0, 30]}] * 2,
        )
    else:  # Ann and Bob play, Cy sits out; Ann knocks, Cy comes in and loses, Bob wins
        start = {"idle": 2, "dealer": 1}
        hands = [
            {"knock": 0, "counts": [5, 20, None]},
            {"knock": 0, "counts": [5, None, 30]},
            {"gin": 1, "counts": [30, 0, None]},
            {"gin": 1, "counts": [None, 0, 60]},
        ]
    g = Game(method, players, start, {"preset": "seed"})
    for h in hands:
        g.add(h)
    assert g.over and g.winners == [1], g.standings(hands=False)
    st = g.standings(hands=False)
    assert sorted(st["final"], reverse=True).index(st["final"][0]) == 1  # second
    return g.record()


def test_two_lost_games_never_raise_the_rating(tmp_path, fixed_clock):
    """Ann loses two games in a row, second of three each time (she beat Cy): her rating, as
    stats and the book show it, does not rise, nor over time on her page. The three sides
    placed by their finals with the conservative estimate mu - 3 sigma shown (how it was rated
    and shown before) would have shown a rise after each."""
    db = str(tmp_path / "h.sqlite3")
    games = [second_place(3, ["Ann", "Bob", "Cy"]), second_place(1, ["Ann", "Bob", "Cy"])]
    shown = [ratings.initial()[0]]
    for n in (1, 2):
        E.sync_into(db, E.journal(games[:n]))
        got = stats(db)["Ann"]
        assert got["wins"] == 0 and got["rated"] == n
        shown.append(got["rating"])
    assert shown[0] > shown[1] > shown[2]
    code, _, err = knockbox("book", "--db", db, "-o", tmp_path / "book", "--lang", "en")
    assert code == 0, err
    index = rows(tmp_path / "book" / "index.html", "ratings")
    assert float(index["Ann"]["rating"]) == shown[2]
    page = (tmp_path / "book" / index["Ann"]["href"]).read_text(encoding="utf-8")
    assert ">%.2f</b>" % shown[2] in page and ">±%.2f</b>" % stats(db)["Ann"]["uncertainty"] in page

    # the old way: placed by finals (Ann second), mu - 3 sigma shown
    state, old = {}, [0.0]
    for rec in games:
        rated = ratings.MODEL.rate(
            [[ratings.MODEL.rating(*state.get(n, ratings.initial()))] for n in rec["players"]],
            ranks=[2, 1, 3],
        )
        state = {n: (r[0].mu, r[0].sigma) for n, r in zip(rec["players"], rated)}
        old.append(state["Ann"][0] - 3 * state["Ann"][1])
    assert old[0] < old[1] < old[2]


def test_a_game_won_never_lowers_a_rating_nor_a_game_lost_raises_it(tmp_path, fixed_clock):
    """Random games of every method among four players: after each rated game, each winner's
    rating is no lower and each loser's no higher than before it."""
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan_of(21, 60)))
    stats(db)  # rates them
    before, checked = {}, 0
    for pos, players, winners, method, box in db_rows(
        db,
        "SELECT r.pos, g.players, g.winners, g.method, json_extract(g.record, "
        "'$.start.box') FROM rating_games r JOIN games g ON g.id = r.game_id ORDER BY r.pos",
    ):
        players, winners = json.loads(players), json.loads(winners)
        won = set(winners if method != 2 or box in winners else [s for s in range(3) if s != box])
        after = dict(db_rows(db, "SELECT player, mu FROM rating_steps WHERE pos = ?", pos))
        for s, n in enumerate(players):
            old = before.get(n, ratings.initial()[0])
            assert (after[n] >= old) if s in won else (after[n] <= old), (pos, n)
            checked += 1
        before.update(after)
    assert checked > 100


def test_ratings_kept_from_another_way_of_rating_are_made_again(tmp_path, fixed_clock):
    """A history rated by a knockbox that rated games another way (keys without this MATCHES)
    is rated again from its first game, as from scratch."""
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan_of(4, 12)))
    want = ratings_of(db)
    con = sqlite3.connect(db)
    # the keys as a knockbox that did not say how it rated wrote them: the game alone
    for pos, gid in con.execute("SELECT pos, game_id FROM rating_games").fetchall():
        row = con.execute(
            "SELECT synced, device_id, epoch, gid, updated, hands, winners FROM games WHERE id = ?",
            (gid,),
        ).fetchone()
        con.execute(
            "UPDATE rating_games SET key = ? WHERE pos = ?",
            (json.dumps(list(row), ensure_ascii=False), pos),
        )
    con.execute("UPDATE rating_steps SET mu = 0")  # what the other way made
    con.commit()
    con.close()
    assert ratings_of(db) == want == fresh(db, tmp_path)


# ---- the scale holds: a season of method 2, a group of known strengths --------------------------


def season_of_method_2(names, n):
    """n method-2 games among three regulars where each wins half: the box goes round the
    table, and the box wins every other round (the partner in play goes gin otherwise)."""
    plan = []
    for i in range(n):
        box = i % 3
        captain = (box + 1) % 3
        seat = box if (i // 3) % 2 == 0 else captain
        plan.append(won_by(2, names, seat, {"box": box, "captain": captain}))
        if i % 6 == 5:
            plan.append(E.EVENING)
    return plan


def test_a_season_of_method_2_keeps_the_scale(tmp_path, fixed_clock):
    """300 method-2 games where each regular wins half, then a newcomer loses two games: the
    regulars stay near the newcomers' 25 and the newcomer's rating is the lowest (the book's
    table is ordered by it).
    (Rated as the box against a team whose skill is the sum of two, the regulars all ended
    between 1.0 and 1.6, below the newcomer who lost.)"""
    regulars = ["Ann", "Bob", "Cy"]
    plan = season_of_method_2(regulars, 300)
    wins = {n: 0 for n in regulars}
    for rec in [r for r in plan if r != E.EVENING]:
        g = Game(2, rec["players"], rec["start"], rec["rules"])
        for h in rec["hands"]:
            g.add(h)
        for s in g.winners:
            wins[rec["players"][s]] += 1
    assert wins == {n: 150 for n in regulars}
    # the newcomer: gin against him, once in method 1 and once in method 3
    plan.append(won_by(3, ["Ann", "Neo", "Bob"], 0, {"dealer": 2}))
    plan.append(won_by(1, ["Neo", "Cy", "Bob"], 1, {"idle": 2, "dealer": 0}))
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan))
    got = stats(db)
    assert got["Neo"]["wins"] == 0 and got["Neo"]["rated"] == 2
    for n in regulars:
        assert got[n]["wins"] >= 150 and 22 < got[n]["rating"] < 28, (n, got[n])
    mean = sum(got[n]["rating"] for n in regulars) / 3
    assert 24 < mean < 26, mean
    assert got["Neo"]["rating"] < 25 and got["Neo"]["rating"] < min(
        got[n]["rating"] for n in regulars
    )


STRENGTH = {"Ann": 3.0, "Bob": 2.2, "Cy": 1.6, "Dee": 1.2, "Eve": 0.9, "Fay": 0.6}


def strong_hand(g, rnd, strength):
    """A hand of game g won by a seat in play drawn by its player's strength (a stronger
    player wins more hands): he knocks low or goes gin, the others count more."""
    active = g.active
    w = rnd.choices(active, [strength[g.players[s]] for s in active])[0]
    counts = [None, None, None]
    low = rnd.randint(0, g.rules["knock_limit"]) if rnd.random() < 0.75 else 0
    for s in active:
        counts[s] = low if s == w else low + rnd.randint(1, 40)
    return {"gin" if low == 0 else "knock": w, "counts": counts}


def strong_game(rnd, method, players, strength):
    """A finished game of `method` among `players`, every hand played by the rules core."""
    from kit.gamegen import random_start

    g = Game(method, players, random_start(method, rnd), {"preset": "seed"})
    while not g.over:
        g.add(strong_hand(g, rnd, strength))
    return g.record()


def test_a_group_of_known_strengths_is_rated_in_order(tmp_path, fixed_clock):
    """Six players of known strengths, 600 games of all three methods mixed (a third each),
    three of them at the table each time, every hand by the rules core: `stats` rates them in
    the order of their strengths, with the group's mean between 20 and 30."""
    rnd = random.Random(26)
    names = list(STRENGTH)
    plan = []
    for i in range(600):
        plan.append(strong_game(rnd, 1 + i % 3, rnd.sample(names, 3), STRENGTH))
        if i % 6 == 5:
            plan.append(E.EVENING)
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan))
    got = stats(db)
    assert sum(got[n]["rated"] for n in names) == 3 * 600
    order = sorted(names, key=lambda n: -got[n]["rating"])
    assert order == names, [(n, got[n]["rating"]) for n in order]
    mean = sum(got[n]["rating"] for n in names) / len(names)
    assert 20 <= mean <= 30, mean
