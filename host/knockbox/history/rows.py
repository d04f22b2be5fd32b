"""The history's game rows (table games, with each game's seats and derived data): a game stored,
its record set again, found by its record or its device key, taken out (to table gone, keyed as
it was, so that its id is never another game's and a delete can be undone) and put back.
History.rows; the device mirror, the versions, the imports and the players' edits store games
through it. knockbox.history's header says what a game's key is."""

from __future__ import annotations

import datetime
import json
from typing import Any, TYPE_CHECKING

from knockbox import derived
from knockbox.fromevents import MAX_INT
from knockbox.history.read import SEAT_COUNTS
from knockbox.history.schema import named
from knockcore.errors import GameError

if TYPE_CHECKING:
    from knockbox.history.evening_numbers import Evenings
    from knockbox.derived import Derived
    from knockbox.history import Patient
    from knockbox.records import Record


class GameRows:
    """The games table over the history's connection db; a game's evening is set through
    evenings (knockbox.history.evening_numbers.Evenings)."""

    def __init__(self, db: Patient, evenings: Evenings) -> None:
        self.db = db
        self.evenings = evenings

    def add(
        self,
        *,
        device_id: str,
        epoch: int,
        gid: int | None,
        synced: str,
        updated: str,
        rec: dict[str, Any],
        status: str,
        error: str | None,
        evening: str | None,
        d: derived.Derived | None = None,
        row_id: int | None = None,
        seq: int | None = None,
    ) -> int:
        """Store a game: its record, checked and derived (d: derived.derive(rec) if made); gid
        None: off any device's key (-id); evening: its evening's key or None; row_id: its id
        (one it had before), else a new one. Returns the row's id. Call evenings.renumber()
        after the last."""
        if d is None and status != "invalid":  # (a game the history refused is not derived)
            d = derived.derive(rec)
        if row_id is None:
            row_id = self.new_id()
        self.db.execute(
            "INSERT INTO games (id, device_id, epoch, gid, synced, updated, method, players, "
            "hands, status, winners, record, error, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?)",
            (
                row_id,
                device_id,
                epoch,
                0 if gid is None else gid,
                synced,
                updated,
                rec.get("method"),
                *_record_columns(rec, status, d, error, seq),
            ),
        )
        if gid is None:
            self.db.execute("UPDATE games SET gid = ? WHERE id = ?", (-row_id, row_id))
        self.store_derived(row_id, rec, d)
        self.evenings.set(row_id, evening)
        return row_id

    def new_id(self) -> int:
        """A game id never given before: one more than the last one given (meta "last_id"), so
        that the id of a game deleted or taken out is never another game's."""
        have = self.db.execute("SELECT MAX(id) FROM games").fetchone()[0] or 0
        r = self.db.execute("SELECT value FROM meta WHERE key = 'last_id'").fetchone()
        row_id = max(have, int(r[0]) if r else 0) + 1
        self.db.execute(
            "INSERT INTO meta VALUES ('last_id', ?) ON CONFLICT (key) DO UPDATE SET value = "
            "excluded.value",
            (str(row_id),),
        )
        return row_id

    def set_record(
        self,
        row_id: int,
        *,
        synced: str,
        updated: str,
        rec: dict[str, Any],
        status: str,
        error: str | None,
        d: derived.Derived | None = None,
        seq: int | None = None,
    ) -> None:
        """Game row_id's record, status and derived data, as given (another copy of the game
        chosen: knockbox.history.copies)."""
        if d is None and status != "invalid":  # (a game the history refused is not derived)
            d = derived.derive(rec)
        self.db.execute(
            "UPDATE games SET synced = ?, updated = ?, players = ?, hands = ?, status = ?, "
            "winners = ?, record = ?, error = ?, seq = ? WHERE id = ?",
            (
                synced,
                updated,
                *_record_columns(rec, status, d, error, seq),
                row_id,
            ),
        )
        self.store_derived(row_id, rec, d)

    def set_players(self, row_id: int, rec: Record) -> None:
        """Game row_id's record rec, that differs from the stored one only in its names."""
        self.db.execute(
            "UPDATE games SET players = ?, record = ? WHERE id = ?",
            (
                json.dumps(rec["players"], ensure_ascii=False),
                json.dumps(rec, ensure_ascii=False, sort_keys=True),
                row_id,
            ),
        )
        self.store_derived(row_id, rec)

    def on_key(self, key: tuple[str, int, int]) -> dict[str, Any] | None:
        """The game under this key (device id, epoch, gid) as {id, record, status, error,
        synced, updated, evening}, None if none."""
        r = named(
            self.db.execute(
                "SELECT id, record, status, error, synced, updated, evening, seq FROM games WHERE "
                "device_id = ? AND epoch = ? AND gid = ?",
                key,
            )
        ).fetchone()
        if r is None:
            return None
        return dict(r, record=json.loads(r["record"]))

    def next_gid(self, device_id: str, epoch: int) -> int:
        """The next free game number of a device epoch (the device "import"'s games), never one
        a game taken out had: one after the highest, or, when a game (imported so) has the
        highest number SQLite holds, the lowest free one."""
        key = (device_id, epoch)
        taken = (
            "SELECT gid FROM games WHERE device_id = ?1 AND epoch = ?2 UNION "
            "SELECT gid FROM gone WHERE device_id = ?1 AND epoch = ?2"
        )
        top = self.db.execute("SELECT MAX(gid) FROM (%s)" % taken, key).fetchone()[0]
        top = max(top or 0, 0)
        if top < MAX_INT:
            return top + 1
        if not self.taken(key + (1,)):
            return 1
        return self.db.execute(
            "SELECT MIN(t.gid) + 1 FROM (%s) t WHERE t.gid >= 1 AND t.gid + 1 NOT IN (%s)"
            % (taken, taken),
            key,
        ).fetchone()[0]

    @staticmethod
    def of_device(key: tuple[str, int, int]) -> bool:
        """Whether key is a device's game on its number (not typed in, not kept apart)."""
        return key[2] >= 1 and key[0] != IMPORT_DEVICE

    def taken(self, key: tuple[str, int, int]) -> bool:
        """Whether a game, here or taken out, has this key."""
        return any(
            self.db.execute(
                "SELECT 1 FROM %s WHERE device_id = ? AND epoch = ? AND gid = ?" % t, key
            ).fetchone()
            for t in ("games", "gone")
        )

    def find(
        self,
        rec: dict[str, Any],
        source: tuple[str, int] | None = None,
        day: str | None = None,
        apart: bool = False,
        at: str | None = None,
    ) -> int | None:
        """The id of a stored game with exactly this record, else None; only among the games of
        this (device_id, epoch) when given, first synced on day (YYYY-MM-DD) or at the time at
        ("YYYY-MM-DD HH:MM:SS") when given, off their device's key when apart."""
        text = json.dumps(rec, ensure_ascii=False, sort_keys=True)
        players = json.dumps(rec.get("players") or [], ensure_ascii=False)
        args: list[object]
        if source is None:  # by games_found: players, hands (and date)
            q, args = "SELECT id FROM games WHERE players = ? AND hands = ?", [players]
        else:  # by the device's key: its games (off the key)
            q = (
                "SELECT id FROM games WHERE device_id = ? AND epoch = ? AND +players = ? AND "
                "+hands = ?"
            )
            args = [*source, players]
        args.append(len(rec.get("hands") or []))
        if day is not None:
            q += " AND synced >= ? AND synced < ?"
            args += [day, day + "~"]
        if at is not None:
            q += " AND synced = ?"
            args.append(at)
        if apart:
            q += " AND gid < 0"
        q += " AND record = ?"
        args.append(text)
        r = self.db.execute(q + " LIMIT 1", args).fetchone()
        return r[0] if r else None

    def ids_of(self, device_id: str, epoch: int, gid: int) -> list[int]:
        """[the row id] of the game under this device key, [] if none."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT id FROM games WHERE device_id = ? AND epoch = ? AND gid = ?",
                (device_id, epoch, gid),
            )
        ]

    def store_derived(self, row_id: int, rec: dict[str, Any], d: Derived | None = None) -> None:
        """The standings, play and seats of a stored game (none if the core refuses it); d:
        derived.derive(rec) if already made."""
        self.db.execute("DELETE FROM seats WHERE game_id = ?", (row_id,))
        try:
            d = d or derived.derive(rec)
        except (GameError, TypeError, AttributeError, KeyError):
            self.db.execute(
                "UPDATE games SET standings = NULL, play = NULL WHERE id = ?", (row_id,)
            )
            return
        self.db.execute(
            "UPDATE games SET standings = ?, play = ? WHERE id = ?",
            (_dumps(d.standings), _dumps(d.play), row_id),
        )
        self.db.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(row_id, c["seat"], c["player"]) + tuple(c[k] for k in SEAT_COUNTS) for c in d.seats],
        )

    def remove(self, row_id: int, why: str, op: int | None = None) -> None:
        """Game row_id out of the history, with its seats, into table gone under its key (why:
        "deleted", with the delete's number op, or "undone"): its id is never another game's,
        and put_back() brings it back."""
        self.db.execute(
            "INSERT OR REPLACE INTO gone SELECT device_id, epoch, gid, id, ?, ?, ?, synced, "
            "updated, status, error, evening, record, seq FROM games WHERE id = ?",
            (why, op, now(), row_id),
        )
        self.evenings.set(row_id, None)
        self.db.execute("DELETE FROM seats WHERE game_id = ?", (row_id,))
        self.db.execute("DELETE FROM games WHERE id = ?", (row_id,))

    def gone(
        self, key: tuple[str, int, int] | None = None, row_id: int | None = None
    ) -> dict[str, Any] | None:
        """The game taken out under this key, or with this id: {device_id, epoch, gid, id, why,
        op, synced, updated, status, error, evening, record}, None if none."""
        where, args = ("id = ?", (row_id,)) if key is None else (_KEY, key)
        r = named(
            self.db.execute(
                "SELECT device_id, epoch, gid, id, why, op, synced, updated, status, error, "
                "evening, record, seq FROM gone WHERE " + where,
                args,
            )
        ).fetchone()
        if r is None:
            return None
        return dict(r, record=json.loads(r["record"]) if r["record"] else None)

    def find_gone(
        self, rec: dict[str, Any], device_id: str, at: str | None = None, day: str | None = None
    ) -> dict[str, Any] | None:
        """A game of device_id taken out (gone()) with exactly this record, first synced at the
        time at or on day; None if none."""
        q = "SELECT id FROM gone WHERE device_id = ? AND record = ?"
        args = [device_id, json.dumps(rec, ensure_ascii=False, sort_keys=True)]
        if at is not None:
            q += " AND synced = ?"
            args.append(at)
        if day is not None:
            q += " AND synced >= ? AND synced < ?"
            args += [day, day + "~"]
        r = self.db.execute(q + " LIMIT 1", args).fetchone()
        return self.gone(row_id=r[0]) if r else None

    def deleted(self, key: tuple[str, int, int]) -> bool:
        """Whether the game under this key was deleted here (a sync leaves it out)."""
        return (
            self.db.execute("SELECT 1 FROM gone WHERE why = 'deleted' AND " + _KEY, key).fetchone()
            is not None
        )

    def reserved(self, key: tuple[str, int, int]) -> int | None:
        """The id a game taken out under this key had (it comes back under it), None if none;
        the key is no longer taken out."""
        g = self.gone(key)
        if g is None:
            return None
        self.db.execute("DELETE FROM gone WHERE " + _KEY, key)
        return g["id"]

    def put_back(self, g: Record) -> None:
        """A game taken out (gone()) back in the history as it was, under its id."""
        self.db.execute("DELETE FROM gone WHERE " + _KEY, (g["device_id"], g["epoch"], g["gid"]))
        self.add(
            device_id=g["device_id"],
            epoch=g["epoch"],
            gid=g["gid"] if g["gid"] > 0 else None,
            synced=g["synced"],
            updated=g["updated"],
            rec=g["record"],
            status=g["status"],
            error=g["error"],
            evening=g["evening"],
            row_id=g["id"],
            seq=g["seq"],
        )

    def move_apart(self, row_id: int) -> None:
        """The game leaves its device's key, kept as it was (the device gave its number to
        another game): its gid becomes -id (device gids are >= 1, so it cannot clash)."""
        self.db.execute("UPDATE games SET gid = ? WHERE id = ?", (-row_id, row_id))
        self.evenings.set(row_id, None)


IMPORT_DEVICE = "import"  # the device of the games typed in (knockbox.history.importing)
_KEY = "device_id = ? AND epoch = ? AND gid = ?"


def _winners(d: derived.Derived | None) -> list[int]:
    """The winners of a game over (none while it is not, or when the history refused it)."""
    return d.standings["winners"] if d and d.standings["over"] else []


def _record_columns(
    rec: dict[str, Any],
    status: str,
    d: derived.Derived | None,
    error: str | None,
    seq: int | None,
) -> tuple[str, int, str, str, str, str | None, int | None]:
    """A game row's players, hands, status, winners, record, error and seq, in that order."""
    return (
        json.dumps(rec.get("players") or [], ensure_ascii=False),
        len(rec.get("hands") or []),
        status,
        json.dumps(_winners(d)),
        json.dumps(rec, ensure_ascii=False, sort_keys=True),
        error,
        seq,
    )


def now() -> str:
    """The time the history writes (when a game was synced, updated, taken out)."""
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def _dumps(v: dict[str, Any]) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
