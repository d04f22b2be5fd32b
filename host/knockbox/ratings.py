"""Skill ratings of the players across all their finished games: openskill's Weng-Lin Bayesian
approximation (the Plackett-Luce model: any number of sides, teams, ties), docs/RATINGS.md.

Each finished game is one match, rated in the history's order (synced, device, epoch, game
number, id: the same history always gives the same ratings):
  methods 1 and 3  three sides of one player, ranked by the game's final standing (the final
                   totals with bonuses, higher first; equal finals are a tie)
  method 2         the box player against the partnership as one team of two (the partner who
                   sat out the last hand is on the team), ranked by their finals
A player's rating is the conservative estimate mu - 3 sigma (openskill's ordinal): 0 before the
first game, higher is stronger.

Kept in the history file, beside the games (derived data: dropped and rebuilt at will):
  rating_games(pos, game_id, key)                   the games rated, in order; key says which
                                                    version of the game was rated
  rating_steps(pos, player, mu, sigma, games)       each player's rating after game pos
update(h) rates only what is new: the stored sequence is compared with the history's finished
games, and rating resumes from the first game that differs (a game synced or imported into the
past, or changed since, forces a recompute from there; new games at the end cost only
themselves).
"""
import json
from openskill.models import PlackettLuce

from knockbox.errors import UserError
from knockbox.history_evenings import ORDER
from knockbox.history_schema import run_script

MODEL = PlackettLuce()      # mu 25, sigma 25/3, beta 25/6, tau 25/300: openskill's defaults
_TABLES = """
CREATE TABLE IF NOT EXISTS rating_games (pos INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,
    key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rating_steps (pos INTEGER NOT NULL, player TEXT NOT NULL,
    mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (player, pos));
"""
_CHUNK = 500


def ordinal(mu, sigma):
    """The rating shown: the conservative estimate, rounded to hundredths."""
    return round(mu - 3 * sigma, 2)


def initial():
    r = MODEL.rating()
    return r.mu, r.sigma


def _seats(method, box):
    """The sides of a game as lists of seats: in method 2 the box and the partnership."""
    if method == 2:
        return [[box], [s for s in range(3) if s != box]]
    return [[0], [1], [2]]


def places(method, final, box=None):
    """Each seat's place by the game's final standing: 1 + the number of sides with a higher
    final (equal finals share a place); in method 2 the partners are one side."""
    teams = _seats(method, box)
    scores = [final[t[0]] for t in teams]
    out = [0, 0, 0]
    for team, v in zip(teams, scores):
        for s in team:
            out[s] = 1 + sum(1 for o in scores if o > v)
    return out


def sides(method, players, final, box=None):
    """(teams of names, ranks: 1 best, equal for a tie) for one finished game."""
    place = places(method, final, box)
    teams = _seats(method, box)
    return [[players[s] for s in t] for t in teams], [place[t[0]] for t in teams]


def rate(state, teams, ranks):
    """One match: state {name: (mu, sigma, games)} updated in place."""
    rated = MODEL.rate([[MODEL.rating(*state.get(n, initial())[:2], name=n) for n in team]
                        for team in teams], ranks=ranks)
    for team in rated:
        for r in team:
            state[r.name] = (r.mu, r.sigma, state.get(r.name, (0, 0, 0))[2] + 1)


def update(h):
    """Bring the stored ratings up to date with h's finished games; returns how many games were
    rated now. Raises UserError when the history cannot be written (read-only, locked)."""
    with h.transaction():
        run_script(h.db, _TABLES)
        return _update(h.db)


def _update(db):
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


def _wanted(db):
    """[(game id, key)] of the finished games, in rating order."""
    return [(r[0], _key(r)) for r in db.execute(
        "SELECT id, synced, device_id, epoch, gid, updated, hands, winners FROM games "
        "WHERE status = 'over'" + ORDER)]


def _rate_all(db, want, start, state):
    """Rate want[start:] from state, a chunk at a time: yields (rating_games rows,
    rating_steps rows)."""
    for i in range(start, len(want), _CHUNK):
        chunk = want[i:i + _CHUNK]
        games = _games(db, [g for g, _ in chunk])
        rows, steps = [], []
        for pos, (gid, key) in enumerate(chunk, i):
            teams, ranks = games[gid]
            rate(state, teams, ranks)
            rows.append((pos, gid, key))
            steps += [(pos, n) + state[n] for team in teams for n in team]
        yield rows, steps


_JSON = json.JSONEncoder(ensure_ascii=False)     # (json.dumps makes one a call: 10,000 at 10,000)


def _key(row):
    """Which version of a game: where it sits in the order, and what it was when rated."""
    return _JSON.encode(list(row[1:]))


def _state_before(db, pos):
    """{name: (mu, sigma, games)} after the games before pos."""
    return {r[0]: (r[1], r[2], r[3]) for r in db.execute(
        "SELECT player, mu, sigma, games, MAX(pos) FROM rating_steps WHERE pos < ? "
        "GROUP BY player", (pos,))}


def _games(db, ids):
    """{game id: (teams, ranks)} of these finished games, from the final standings the history
    keeps with each game (knockbox.derived: nothing is replayed)."""
    out = {}
    for gid, method, players, final, box in db.execute(
            "SELECT id, method, players, json_extract(standings, '$.final'), "
            "json_extract(record, '$.start.box') FROM games WHERE id IN (%s)"
            % ",".join("?" * len(ids)), ids):
        out[gid] = sides(method, json.loads(players), json.loads(final), box)
    return out


def _stored(h):
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
    return (list(h.db.execute("SELECT pos, game_id, key FROM rating_games ORDER BY pos")),
            list(h.db.execute("SELECT * FROM rating_steps ORDER BY pos")))


def table(h, stored=None):
    """{name: {"rating", "rated", "mu", "sigma"}} for every rated player, up to date (stored:
    _stored(h) already read)."""
    last = {}
    for _pos, name, mu, sigma, games in (stored or _stored(h))[1]:
        last[name] = (mu, sigma, games)
    return {n: {"rating": ordinal(mu, sigma), "rated": games, "mu": mu, "sigma": sigma}
            for n, (mu, sigma, games) in last.items()}


def of(tab, name):
    """A player's entry in table(), the prior's for a player with no rated game."""
    if name in tab:
        return tab[name]
    mu, sigma = initial()
    return {"rating": ordinal(mu, sigma), "rated": 0, "mu": mu, "sigma": sigma}


def both(h):
    """(table(h), progress(h)), the history read once."""
    stored = _stored(h)
    return table(h, stored), progress(h, stored)


class Ratings:
    """The ratings as the book reads them, without reading every step: .table (as table()),
    .mark[name] (changes whenever any of the player's ratings over time does) and
    .progress(name) (as progress()[name]); computed in memory if the history cannot be
    written."""

    def __init__(self, h):
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
                "FROM rating_steps GROUP BY player"):
            self.table[name] = {"rating": ordinal(mu, sigma), "rated": games, "mu": mu,
                                "sigma": sigma}
            self.mark[name] = "%d %r %r %r" % (count, smu, ssig, mu)

    def progress(self, name):
        if self._all is not None:
            return self._prog.get(name, [])
        return [(gid, ordinal(mu, sigma)) for gid, mu, sigma in self.h.db.execute(
            "SELECT r.game_id, s.mu, s.sigma FROM rating_steps s JOIN rating_games r ON "
            "r.pos = s.pos WHERE s.player = ? ORDER BY s.pos", (name,))]


def attach(h, stats):
    """Each player's rating and games rated (over the whole history) into knockbox.stats rows:
    "rating" and "rated"."""
    tab = table(h)
    for p in stats:
        r = of(tab, p["player"])
        p["rating"], p["rated"] = r["rating"], r["rated"]


def progress(h, stored=None):
    """{name: [(game id, rating after that game)]} in rating order, up to date."""
    rows, steps = stored or _stored(h)
    game = {pos: gid for pos, gid, _ in rows}
    out = {}
    for pos, name, mu, sigma, _games in steps:
        out.setdefault(name, []).append((game[pos], ordinal(mu, sigma)))
    return out
