"""The history's queries: what the readers (history, show, stats, export, settle, report, book)
ask for, each by index, nothing replayed. History is a Queries over the file it opens
(knockbox.history says why); the tables are in knockbox.history.schema.
"""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING

from knockbox.usererror import UserError
from knockbox.bounds import listed
from knockbox.history.evening_numbers import LATEST

if TYPE_CHECKING:
    from collections.abc import Iterator
    from knockbox.history import Patient
    from knockbox.records import Row

SEAT_COUNTS = ("won", "hands", "hands_won", "gins", "undercuts", "points", "net")
_ORDER_G = " ORDER BY g.synced, g.device_id, g.epoch, ABS(g.gid), g.id"
_ROW = (
    "id",
    "device_id",
    "epoch",
    "gid",
    "synced",
    "updated",
    "method",
    "players",
    "hands",
    "status",
    "winners",
    "error",
    "evening_key",
    "evening",
    "seq",
)


class Queries:
    """The games as the readers see them, over the history's connection db."""

    def __init__(self, db: Patient) -> None:
        self.db = db

    def evening(self, n: int | None = None, **parts: Any) -> tuple[int, list[Row]]:
        """(number, game rows) of evening n, the latest when n is None (the evening whose first
        game comes last: knockbox.history.evening_numbers); UserError if none. parts: as games()."""
        count = self.db.execute("SELECT MAX(number) FROM evenings").fetchone()[0]
        latest = self.db.execute(LATEST).fetchone()
        if latest is None:
            raise UserError("no games yet: `knockbox sync` pulls them from the device")
        if n is None:
            n = latest[0]
        if not 1 <= n <= count:
            raise UserError(
                "no evening %d: the history has evenings 1 to %d (see `knockbox "
                "history`)" % (n, count)
            )
        rows = self.games(evening=n, **parts)
        if not rows:
            raise UserError(
                "evening %d has no games left (deleted, or their import undone; `knockbox "
                "delete --undo` brings deleted games back)" % n
            )
        return n, rows

    def latest_evening(self, **parts: Any) -> tuple[list[Row], int]:
        """(game rows, number) of the latest evening: what `settle` and `report` take when no
        games are chosen, as the device's Evening screen does (an evening past midnight is one
        evening). parts: as games()."""
        n, rows = self.evening(None, **parts)
        return rows, n

    def games(
        self,
        ids: list[int] | None = None,
        since: str | None = None,
        evening: int | None = None,
        day: str | None = None,
        seats: bool = False,
        detail: bool = False,
    ) -> list[Row]:
        """Game rows (dicts) in the order they were first synced: every game, or those of these
        ids, first synced since a date, of evening number `evening`, or first synced on `day`.
        A row: id, device_id, epoch, gid, replaced, synced, updated, method, players, hands,
        status, winners (seats), error, evening (number or None), evening_key; seats=True adds
        "seats" (knockbox.derived's per-seat counts, [] for a game the core refused);
        detail=True adds those and "record", "standings" (None if refused) and "play"."""
        cols = (
            "g.id, g.device_id, g.epoch, g.gid, g.synced, g.updated, g.method, g.players, "
            "g.hands, g.status, g.winners, g.error, g.evening, e.number, g.seq"
        )
        if detail:
            cols += ", g.record, g.standings, g.play"
        q = "SELECT %s FROM games g LEFT JOIN evenings e ON e.key = g.evening" % cols
        args: list[Any] = []
        where: list[str] = []
        if ids:
            where.append("g.id IN (%s)" % ",".join("?" * len(ids)))
            args += list(ids)
        if since:
            where.append("g.synced >= ?")
            args.append(since)
        if day:
            where.append("g.synced >= ? AND g.synced < ?")
            args += [day, day + "~"]
        if evening is not None:
            where.append("g.evening = (SELECT key FROM evenings WHERE number = ?)")
            args.append(evening)
        if where:
            q += " WHERE " + " AND ".join(where)
        out = [_game_row(r, detail) for r in self.db.execute(q + _ORDER_G, args)]
        if ids:
            have = {g["id"] for g in out}
            missing = [i for i in ids if i not in have]
            if missing:
                raise UserError(self._missing(missing))
        if seats or detail:
            self._add_seats(out)
        return out

    def _missing(self, ids: list[int]) -> str:
        """What to say of game ids the history does not hold: deleted ones can come back."""
        deleted = {
            r[0]
            for r in self.db.execute(
                "SELECT id FROM gone WHERE why = 'deleted' AND id IN (%s)"
                % ",".join("?" * len(ids)),
                ids,
            )
        }
        msg = "no game %s in the history (see `knockbox history`)" % listed(
            str(i) for i in ids if i not in deleted
        )
        if not deleted:
            return msg
        back = " ".join(str(i) for i in sorted(deleted))
        said = "game %s %s deleted: `knockbox delete --undo %s` brings %s back" % (
            listed(str(i) for i in sorted(deleted)),
            "was" if len(deleted) == 1 else "were",
            back,
            "it" if len(deleted) == 1 else "them",
        )
        return said if len(deleted) == len(ids) else msg + "; " + said

    def each_game(
        self,
        ids: list[int] | None = None,
        since: str | None = None,
        chunk: int = 500,
        **parts: Any,
    ) -> Iterator[Row]:
        """games(ids, since, **parts) a chunk of rows at a time, in the same order: an export of
        years of games holds one chunk in memory."""
        order = [r["id"] for r in self.games(ids, since)]
        for i in range(0, len(order), chunk):
            yield from self.games(order[i : i + chunk], **parts)

    def _add_seats(self, rows: list[Row]) -> None:
        by_id = {r["id"]: r for r in rows}
        for r in rows:
            r["seats"] = []
        q = "SELECT game_id, seat, player, %s FROM seats" % ", ".join(SEAT_COUNTS)
        if len(rows) <= 500:
            q += " WHERE game_id IN (%s)" % ",".join(str(i) for i in by_id)
        for t in self.db.execute(q + " ORDER BY game_id, seat"):
            row = by_id.get(t[0])
            if row is not None:
                c = dict(zip(SEAT_COUNTS, t[3:]))
                c["seat"], c["player"] = t[1], t[2]
                row["seats"].append(c)

    def game(self, gid: int, detail: bool = True) -> Row:
        """The row of game gid (detail: with its record, standings and play)."""
        return self.games([gid], detail=detail)[0]


def _game_row(t: Any, detail: bool) -> dict[str, Any]:
    d = dict(zip(_ROW, t))
    d["replaced"] = d["gid"] < 0  # the device later had another game under its number
    d["players"] = json.loads(d["players"])
    d["winners"] = json.loads(d["winners"]) if d["winners"] else []
    if detail:
        rec, st, play = t[len(_ROW) :]
        d["record"] = json.loads(rec)
        d["standings"] = json.loads(st) if st else None
        d["play"] = json.loads(play) if play else None
    return d


def standings(row: dict[str, Any]) -> dict[str, Any]:
    """The standings of a stored game (a History.games(detail=True) row, worked out when it was
    stored); UserError for a game the rules core refused."""
    if row.get("standings") is None:
        raise UserError(
            "game %d: %s" % (row["id"], row.get("error") or "refused by the rules core")
        )
    return row["standings"]
