"""Skill ratings of the players across all their finished games: openskill's Weng-Lin Bayesian
approximation (the Plackett-Luce model), docs/RATINGS.md.

Each finished game is rated as matches of one player against one, winner against loser, in the
history's order (synced, device, epoch, game number, id: the same history always gives the same
ratings):
  methods 1 and 3  the winner against each of the other two, one two-sided match after the
                   other (in seat order)
  method 2         the box player against each partner, one two-sided match after the other
                   (in seat order), as the settlement goes: each partner (the one who sat
                   out the last hand too) pays the box or is paid by him. (A team of two
                   whose skill is the sum of two drags the whole scale toward 0, a newcomer
                   then above every regular: docs/RATINGS.md.)
One player against one keeps the scale: what the winner gains the loser loses, when both are as
sure, so the group's mean stays near the newcomers' 25.
A player's rating is the skill estimate mu (25 before the first game, higher is stronger) and
its uncertainty 2 sigma, shown beside it. Two-sided matches make mu move with the result: a game
won never lowers it, a game lost never raises it (the conservative estimate mu - 3 sigma can rise
after a loss as sigma shrinks, and three sides placed by their finals can raise the second's mu:
docs/RATINGS.md).

Kept in the history file, beside the games (derived data: dropped and rebuilt at will):
  rating_games(pos, game_id, key)                   the games rated, in order; key says which
                                                    version of the game was rated, and how
  rating_steps(pos, player, mu, sigma, games)       each player's rating after game pos
update(h) rates only what is new: the stored sequence is compared with the history's finished
games, and rating resumes from the first game that differs (a game synced or imported into the
past, or changed since, forces a recompute from there; new games at the end cost only
themselves; a history rated by another MATCHES is rated again from the start).
"""

from __future__ import annotations

import json
from openskill.models import PlackettLuce
from typing import Any, TYPE_CHECKING

from knockbox.usererror import UserError
from knockbox.history.evening_numbers import ORDER
from knockbox.history.schema import run_script

if TYPE_CHECKING:
    from knockbox.history import History, Patient
    from openskill.models.weng_lin.plackett_luce import PlackettLuceRating
    from collections.abc import Iterator
    from knockbox.records import Record

# what _stored() reads: the rating_games rows and the rating_steps rows
Stored = tuple[list[Any], list[Any]]
MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: openskill's defaults
_TABLES = """
CREATE TABLE IF NOT EXISTS rating_games (pos INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,
    key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rating_steps (pos INTEGER NOT NULL, player TEXT NOT NULL,
    mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (player, pos));
"""
_CHUNK = 500
# How a game is rated, in each key (1: the three sides placed by their finals; 2: method 2 as
# the box against the partnership as one team): a history rated another way is rated again.
MATCHES = 3


def shown(mu: float) -> float:
    """The rating shown: the skill estimate, rounded to hundredths."""
    return round(mu, 2)


def entry(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A player's rating as shown: {"rating": mu, "uncertainty": 2 sigma (the skill is within
    this of the rating 19 times in 20), rounded to hundredths; "rated": games; "mu", "sigma"}."""
    return {
        "rating": shown(mu),
        "uncertainty": round(2 * sigma, 2),
        "rated": games,
        "mu": mu,
        "sigma": sigma,
    }


def initial() -> tuple[float, float]:
    r = MODEL.rating()
    return r.mu, r.sigma


def _seats(method: int, box: int | None) -> list[list[int]]:
    """The sides of a game as lists of seats: in method 2 the box and the partnership."""
    if method == 2:
        assert box is not None  # method 2 has a box
        return [[box], [s for s in range(3) if s != box]]
    return [[0], [1], [2]]


def places(method: int, final: list[int], box: int | None = None) -> list[int]:
    """Each seat's place by the game's final standing: 1 + the number of sides with a higher
    final (equal finals share a place); in method 2 the partners are one side."""
    teams = _seats(method, box)
    scores = [final[t[0]] for t in teams]
    out = [0, 0, 0]
    for team, v in zip(teams, scores):
        for s in team:
            out[s] = 1 + sum(1 for o in scores if o > v)
    return out


def matches(
    method: int, players: list[str], winners: list[int], box: int | None = None
) -> list[tuple[list[str], list[str]]]:
    """The two-sided matches of one player each that a finished game is rated as: [(winner,
    loser)] of one-name lists, in seat order; winners: the game's winning seats (in method 2
    the winning side's). Methods 1 and 3: the winner against each other player; method 2: the
    box against each partner."""
    teams = _seats(method, box)
    won = [t for t in teams if t[0] in winners]
    if len(won) != 1:
        raise ValueError("a finished game has one winning side, not %r" % (winners,))
    if method != 2:
        return [([players[won[0][0]]], [players[t[0]]]) for t in teams if t is not won[0]]
    partners = teams[1]
    assert box is not None  # method 2 has a box
    if won[0] == [box]:
        return [([players[box]], [players[s]]) for s in partners]
    return [([players[s]], [players[box]]) for s in partners]


def _rating(state: dict[str, Any], name: str) -> PlackettLuceRating:
    """The model's rating of a player from state, the prior's for a newcomer."""
    mu, sigma = state[name][:2] if name in state else initial()
    return MODEL.rating(mu, sigma, name=name)


def rate(state: dict[str, Any], game: list[tuple[list[str], list[str]]]) -> None:
    """One game (matches()): state {name: (mu, sigma, games)} updated in place."""
    for won, lost in game:
        rated = MODEL.rate(
            [[_rating(state, n) for n in side] for side in (won, lost)], ranks=[1, 2]
        )
        for side in rated:
            for r in side:
                n = str(r.name)  # the name _rating() gave it
                state[n] = (r.mu, r.sigma) + state.get(n, (0, 0, 0))[2:]
    for n in _names(game):
        state[n] = state[n][:2] + (state[n][2] + 1,)


def update(h: History) -> int:
    """Bring the stored ratings up to date with h's finished games; returns how many games were
    rated now. Raises UserError when the history cannot be written (read-only, locked)."""
    with h.transaction():
        run_script(h.db, _TABLES)
        return _update(h.db)


def _update(db: Patient) -> int:
    want = _wanted(db)
    have = list(db.execute("SELECT game_id, key FROM rating_games ORDER BY pos"))
    start = 0
    while start < min(len(want), len(have)) and tuple(have[start]) == want[start]:
        start += 1
    if start == len(want) == len(have):
        return 0
    db.execute("DELETE FROM rating_games WHERE pos >= ?", (start,))
    db.execute("DELETE FROM rating_steps WHERE pos >= ?", (start,))
    state = _state_before(db, start)
    for rows, steps in _rate_all(db, want, start, state):
        db.executemany("INSERT INTO rating_games VALUES (?, ?, ?)", rows)
        db.executemany("INSERT INTO rating_steps VALUES (?, ?, ?, ?, ?)", steps)
    return len(want) - start


def _wanted(db: Patient) -> list[tuple[int, str] | Any]:
    """[(game id, key)] of the finished games, in rating order."""
    return [
        (gid, _key(version))
        for gid, *version in db.execute(
            "SELECT id, synced, device_id, epoch, gid, updated, hands, winners, players FROM games "
            "WHERE status = 'over'" + ORDER
        )
    ]


def _rate_all(
    db: Patient, want: list[tuple[int, str]], start: int, state: dict[str, Any]
) -> Iterator[tuple[list[tuple[int, int, str]], list[tuple[int, str, float, float, int]]]]:
    """Rate want[start:] from state, a chunk at a time: yields (rating_games rows,
    rating_steps rows)."""
    for i in range(start, len(want), _CHUNK):
        chunk = want[i : i + _CHUNK]
        games = _games(db, [g for g, _ in chunk])
        rows, steps = [], []
        for pos, (gid, key) in enumerate(chunk, i):
            game = games[gid]
            rate(state, game)
            rows.append((pos, gid, key))
            steps += [(pos, n) + state[n] for n in _names(game)]
        yield rows, steps


_JSON = json.JSONEncoder(ensure_ascii=False)  # (json.dumps makes one a call: 10,000 at 10,000)


def _key(version: list[str | int]) -> str:
    """Which version of a game (its row's columns after the id): where it sits in the order,
    what it was when rated (its hands, winners and players' names: a rename rates from the
    player's first game again, under the new name), and how it was rated (MATCHES)."""
    return _JSON.encode([MATCHES] + version)


def _names(game: list[tuple[list[str], list[str]]]) -> list[str]:
    """The players of a game (matches()), in the order they sit in its matches."""
    return list(dict.fromkeys(n for match in game for side in match for n in side))


def _state_before(db: Patient, pos: int) -> dict[str, Any]:
    """{name: (mu, sigma, games)} after the games before pos."""
    return {
        name: (mu, sigma, games)
        for name, mu, sigma, games, _pos in db.execute(
            "SELECT player, mu, sigma, games, MAX(pos) FROM rating_steps WHERE pos < ? "
            "GROUP BY player",
            (pos,),
        )
    }


def _games(db: Patient, ids: list[int]) -> dict[int, list[tuple[list[str], list[str]]]]:
    """{game id: matches()} of these finished games, from the winners the history keeps with
    each game (nothing is replayed)."""
    out = {}
    for gid, method, players, winners, box in db.execute(
        "SELECT id, method, players, winners, json_extract(record, '$.start.box') FROM games "
        "WHERE id IN (%s)" % ",".join("?" * len(ids)),
        ids,
    ):
        out[gid] = matches(method, json.loads(players), json.loads(winners), box)
    return out


def _stored(
    h: History,
) -> Stored:
    """(rating_games rows, rating_steps rows): from the history, brought up to date; computed
    afresh in memory when the history cannot be written."""
    try:
        update(h)
    except UserError:
        rows, steps = [], []
        for r, s in _rate_all(h.db, _wanted(h.db), 0, {}):
            rows += r
            steps += s
        return rows, steps
    return (
        list(h.db.execute("SELECT pos, game_id, key FROM rating_games ORDER BY pos")),
        list(h.db.execute("SELECT * FROM rating_steps ORDER BY pos")),
    )


def table(h: History, stored: Stored | None = None) -> dict[str, Record]:
    """{name: entry()} for every rated player, up to date (stored: _stored(h) already read)."""
    last = {}
    for _pos, name, mu, sigma, games in (stored or _stored(h))[1]:
        last[name] = (mu, sigma, games)
    return {n: entry(*last[n]) for n in last}


def of(tab: dict[str, Any], name: str) -> dict[str, Any]:
    """A player's entry in table(), the prior's for a player with no rated game."""
    if name in tab:
        return tab[name]
    mu, sigma = initial()
    return entry(mu, sigma, 0)


def both(h: History) -> tuple[dict[str, Record], dict[str, list[tuple[int, float]]]]:
    """(table(h), progress(h)), the history read once."""
    stored = _stored(h)
    return table(h, stored), progress(h, stored)


class Ratings:
    """The ratings as the book reads them, without reading every step: .table (as table()),
    .mark[name] (changes whenever any of the player's ratings over time does) and
    .progress(name) (as progress()[name]); computed in memory if the history cannot be
    written."""

    def __init__(self, h: History) -> None:
        self.h, self._all = h, None
        try:
            update(h)
        except UserError:
            self._all = _stored(h)
            self.table = table(h, self._all)
            prog = progress(h, self._all)
            self.mark = {n: repr(prog[n]) for n in prog}
            self._prog = prog
            return
        self.table, self.mark = {}, {}
        for name, mu, sigma, games, _pos, count, smu, ssig in h.db.execute(
            "SELECT player, mu, sigma, games, MAX(pos), COUNT(*), SUM(mu), SUM(sigma) "
            "FROM rating_steps GROUP BY player"
        ):
            self.table[name] = entry(mu, sigma, games)
            self.mark[name] = "%d %r %r %r" % (count, smu, ssig, mu)

    def progress(self, name: str) -> list[tuple[int, float]]:
        if self._all is not None:
            return self._prog.get(name, [])
        return [
            (gid, shown(mu))
            for gid, mu, sigma in self.h.db.execute(
                "SELECT r.game_id, s.mu, s.sigma FROM rating_steps s JOIN rating_games r ON "
                "r.pos = s.pos WHERE s.player = ? ORDER BY s.pos",
                (name,),
            )
        ]


def attach(h: History, stats: list[Record]) -> None:
    """Each player's rating, its uncertainty and games rated (over the whole history) into
    knockbox.stats rows: "rating", "uncertainty" and "rated"."""
    tab = table(h)
    for p in stats:
        r = of(tab, p["player"])
        p["rating"], p["uncertainty"], p["rated"] = r["rating"], r["uncertainty"], r["rated"]


def progress(h: History, stored: Stored | None = None) -> dict[str, list[tuple[int, float]]]:
    """{name: [(game id, rating after that game)]} in rating order, up to date."""
    rows, steps = stored or _stored(h)
    game = {pos: gid for pos, gid, _ in rows}
    out: dict = {}
    for pos, name, mu, _sigma, _games in steps:
        out.setdefault(name, []).append((game[pos], shown(mu)))
    return out
