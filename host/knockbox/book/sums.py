"""Each evening's sums for the book, kept in the history file beside the games (derived data,
dropped and rebuilt at will, as the ratings are), so that an update reads only what it shows:

  book_evenings(evening, inputs, date, games, net)
        one row an evening: its key (games.evening; '' for the games that have none), the key
        of the games it was summed from (their ids, versions, statuses, days, hands), its first
        day, its number of games and the settlement's nets (JSON [[player, net, games, wins]])
  book_counts(evening, player, part, games, wins, hands, hands_won, gins, undercuts, points, net)
        part 0: the player's games of the evening, 1..3: those of that method (COUNTS)
  book_vs(evening, player, other, together, wins, their_wins, ahead, behind, net)
        the player's finished games of the evening against another player (VS); net: what the
        player won from that other player (the games' payments between the two: the other's
        row has it negated)

A player's page and the index add these up in SQL. When the history cannot be written (a
read-only file) the sums of this build are kept in memory instead.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, NamedTuple, TYPE_CHECKING

from knockbox import ratings, settle, stats
from knockbox.usererror import UserError
from knockbox.history import standings
from knockbox.history.schema import run_script

if TYPE_CHECKING:
    from collections.abc import Iterable
    from knockbox.records import Record
    from knockbox.history import History

COUNTS = stats.COUNTS  # games, wins, hands, hands_won, gins, undercuts, points, net
VS = ("together", "wins", "their_wins", "ahead", "behind", "net")
# (WITHOUT ROWID: the table is its key's index, a player's rows read in order)
_TABLES = """
CREATE TABLE IF NOT EXISTS book_evenings (evening TEXT PRIMARY KEY, inputs TEXT NOT NULL,
    date TEXT NOT NULL, games INTEGER NOT NULL, net TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS book_counts (evening TEXT NOT NULL, player TEXT NOT NULL,
    part INTEGER NOT NULL, %s, PRIMARY KEY (player, part, evening)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS book_vs (evening TEXT NOT NULL, player TEXT NOT NULL,
    other TEXT NOT NULL, %s, PRIMARY KEY (player, other, evening)) WITHOUT ROWID;
""" % (
    ", ".join("%s INTEGER NOT NULL" % c for c in COUNTS),
    ", ".join("%s INTEGER NOT NULL" % c for c in VS),
)
_SUM_COUNTS = ", ".join("SUM(%s)" % c for c in COUNTS)


def sums(rows: list[Any]) -> Record:
    """An evening's sums (over History.games(detail=True) rows): {"date", "games", "net": [[player,
    net, games, wins]] (the settlement's order), "players": {name: {"all": COUNTS, "m1".."m3":
    COUNTS, "vs": {other: VS}}}}."""
    res = settle.tally([r for r in rows if r["status"] != "invalid"])
    players: dict = {}
    for p in stats.compute(rows):
        players[p["player"]] = {"all": [p[k] for k in COUNTS], "vs": {}}
    for m in (1, 2, 3):
        for p in stats.compute([r for r in rows if r["method"] == m]):
            players[p["player"]]["m%d" % m] = [p[k] for k in COUNTS]
    for r in rows:
        if r["status"] != "over":
            continue
        st = standings(r)
        place = ratings.places(r["method"], st["final"], r["record"]["start"].get("box"))
        names = r["players"]
        pair = between(st["payments"])
        for i in range(3):
            vs = players[names[i]]["vs"]
            for j in range(3):
                if i != j:
                    v = vs.setdefault(names[j], [0] * len(VS))
                    got = (
                        1,
                        i in st["winners"],
                        j in st["winners"],
                        place[i] < place[j],
                        place[i] > place[j],
                        pair[i][j],
                    )
                    for k, x in enumerate(got):
                        v[k] += int(x)
    return {
        "date": min(r["synced"] for r in rows)[:10],
        "games": len(rows),
        "net": [[p["player"], p["net"], p["games"], p["wins"]] for p in res["players"]],
        "players": players,
    }


def between(payments: list[list[int]]) -> list[list[int]]:
    """pair[i][j]: what seat i won from seat j in a finished game (minus what it paid j), from
    the standings' payments [[payer, payee, amount]] (each pair's debts offset): pair[i][j] ==
    -pair[j][i], and a seat's row adds up to its net."""
    pair = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for payer, payee, amount in payments:
        pair[payee][payer] += amount
        pair[payer][payee] -= amount
    return pair


class Summed(NamedTuple):
    """An evening as the book keeps its sums: its key in the store (the history's key of the
    evening, "" for the games of none) and the key of its games (the inputs its sums were made
    from: sums made again only when these change)."""

    key: str
    inputs: str


class EveningSums:
    """The sums of a history h's evenings (see the module's doc)."""

    def __init__(self, h: History) -> None:
        self.h: History | None  # None: the history is read-only, the sums kept in memory
        self.db: sqlite3.Connection
        self.h, self.db = h, h.db
        try:
            with h.transaction():
                run_script(h.db, _TABLES)
        except UserError:
            self.h, self.db = None, sqlite3.connect(":memory:", isolation_level=None)
            run_script(self.db, _TABLES)

    def inputs(self) -> dict[str, str]:
        """{evening: inputs} of the sums kept."""
        return dict(self.db.execute("SELECT evening, inputs FROM book_evenings"))

    def put(self, made: dict[str, tuple[str, Record]], gone: Iterable[str] = ()) -> None:
        """Keep made {evening: (inputs, sums())} in place of what was kept for those evenings,
        and drop the evenings gone."""
        if not made and not gone:
            return
        ev, counts, vs = [], [], []
        for key, (inputs, s) in made.items():
            ev.append(
                (key, inputs, s["date"], s["games"], json.dumps(s["net"], ensure_ascii=False))
            )
            for name, p in s["players"].items():
                counts += [
                    (key, name, part) + tuple(p[label])
                    for part, label in enumerate(("all", "m1", "m2", "m3"))
                    if label in p
                ]
                vs += [(key, name, other) + tuple(v) for other, v in p["vs"].items()]
        with self._transaction():
            for key in list(made) + list(gone):
                for table in ("book_evenings", "book_counts", "book_vs"):
                    self.db.execute("DELETE FROM %s WHERE evening = ?" % table, (key,))
            self.db.executemany("INSERT INTO book_evenings VALUES (?, ?, ?, ?, ?)", ev)
            self.db.executemany(
                "INSERT INTO book_counts VALUES (%s)" % ", ".join("?" * (3 + len(COUNTS))), counts
            )
            self.db.executemany(
                "INSERT INTO book_vs VALUES (%s)" % ", ".join("?" * (3 + len(VS))), vs
            )

    def _transaction(self) -> Any:
        if self.h is not None:
            return self.h.transaction()
        return self.db  # (sqlite3's own: commits, or rolls back on an error)

    # ---- reading

    def players(self) -> dict[str, list[str]]:
        """{name: [the player's evenings]}."""
        out: dict = {}
        for name, evening in self.db.execute(
            "SELECT player, evening FROM book_counts WHERE part = 0"
        ):
            out.setdefault(name, []).append(evening)
        return out

    def totals(self, name: str) -> dict[int, list[int]]:
        """{part: COUNTS summed over the player's evenings} (part 0: all, 1..3: a method's)."""
        return {
            r[0]: list(r[1:])
            for r in self.db.execute(
                "SELECT part, %s FROM book_counts WHERE player = ? GROUP BY part" % _SUM_COUNTS,
                (name,),
            )
        }

    def overall(self) -> dict[str, list[int]]:
        """{name: COUNTS summed over all the player's games}."""
        return {
            r[0]: list(r[1:])
            for r in self.db.execute(
                "SELECT player, %s FROM book_counts WHERE part = 0 GROUP BY player" % _SUM_COUNTS
            )
        }

    def vs(self, name: str) -> Record:
        """{other: VS summed over the player's finished games against them}."""
        return {
            r[0]: list(r[1:])
            for r in self.db.execute(
                "SELECT other, %s FROM book_vs WHERE player = ? GROUP BY other"
                % ", ".join("SUM(%s)" % c for c in VS),
                (name,),
            )
        }

    def nets(self, name: str) -> dict[str, int]:
        """{evening: the player's net that evening}."""
        return dict(
            self.db.execute(
                "SELECT evening, net FROM book_counts WHERE player = ? AND part = 0", (name,)
            )
        )

    def dates(self) -> dict[str, str]:
        """{evening: its first day}."""
        return dict(self.db.execute("SELECT evening, date FROM book_evenings"))

    def evenings(self, keys: list[str]) -> dict[str, Record]:
        """{evening: {"date", "games", "net"}} of the evenings keys."""
        out = {}
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            for key, date, games, net in self.db.execute(
                "SELECT evening, date, games, net FROM book_evenings WHERE evening IN (%s)"
                % ", ".join("?" * len(part)),
                part,
            ):
                out[key] = {"date": date, "games": games, "net": json.loads(net)}
        return out
