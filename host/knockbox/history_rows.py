"""The history's game rows (table games, with each game's seats and derived data): a game stored,
its record set again, found by its record or its device key, taken out. History.rows; the device
mirror, the imports and the players' edits store games through it, knockbox.importing adds the
games that come with no events. knockbox.history's header says what a game's key is."""

import json

from knockbox import derived
from knockbox.fromevents import MAX_INT
from knockbox.history_read import SEAT_COUNTS
from knockcore.errors import GameError


class GameRows:
    """The games table over the history's connection db; a game's evening is set through
    evenings (knockbox.history_evenings.Evenings)."""

    def __init__(self, db, evenings):
        self.db = db
        self.evenings = evenings

    def add(self, device_id, epoch, gid, synced, updated, rec, status, error, evening, d=None):
        """Store a game that comes with no events (`knockbox import`): its record, checked and
        derived (d: derived.derive(rec) if made); gid None: off any device's key (-id); evening:
        its evening's key or None. Returns the new row's id. Call evenings.renumber() after the
        last."""
        if d is None and status != "invalid":
            d = derived.derive(rec)
        winners = d[0]["winners"] if d and d[0]["over"] else []
        cur = self.db.execute(
            "INSERT INTO games (device_id, epoch, gid, synced, updated, method, players, hands, "
            "status, winners, record, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                device_id,
                epoch,
                0 if gid is None else gid,
                synced,
                updated,
                rec.get("method"),
                json.dumps(rec.get("players") or [], ensure_ascii=False),
                len(rec.get("hands") or []),
                status,
                json.dumps(winners),
                json.dumps(rec, ensure_ascii=False, sort_keys=True),
                error,
            ),
        )
        row_id = cur.lastrowid
        if gid is None:
            self.db.execute("UPDATE games SET gid = ? WHERE id = ?", (-row_id, row_id))
        self.store_derived(row_id, rec, d)
        self.evenings.set(row_id, evening)
        return row_id

    def set_record(self, row_id, updated, rec, status, error, d=None):
        """Game row_id's record, status and derived data, as given (`knockbox import` of a later
        copy of a game, an import undone)."""
        if d is None and status != "invalid":
            d = derived.derive(rec)
        winners = d[0]["winners"] if d and d[0]["over"] else []
        self.db.execute(
            "UPDATE games SET updated = ?, players = ?, hands = ?, status = ?, "
            "winners = ?, record = ?, error = ? WHERE id = ?",
            (
                updated,
                json.dumps(rec.get("players") or [], ensure_ascii=False),
                len(rec.get("hands") or []),
                status,
                json.dumps(winners),
                json.dumps(rec, ensure_ascii=False, sort_keys=True),
                error,
                row_id,
            ),
        )
        self.store_derived(row_id, rec, d)

    def set_players(self, row_id, rec):
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

    def stored_record(self, device_id, epoch, gid):
        """The record of the game under this device key, None if none."""
        r = self.db.execute(
            "SELECT record FROM games WHERE device_id = ? AND epoch = ? AND gid = ?",
            (device_id, epoch, gid),
        ).fetchone()
        return json.loads(r[0]) if r else None

    def next_gid(self, device_id, epoch):
        """The next free game number of a device epoch (the device "import"'s games): one after
        the highest, or, when a game (imported so) has the highest number SQLite holds, the
        lowest free one."""
        key = (device_id, epoch)
        r = self.db.execute("SELECT MAX(gid) FROM games WHERE device_id = ? AND epoch = ?", key)
        top = max(r.fetchone()[0] or 0, 0)
        if top < MAX_INT:
            return top + 1
        if not self.ids_of(device_id, epoch, 1):
            return 1
        return self.db.execute(
            "SELECT MIN(g.gid) + 1 FROM games g WHERE g.device_id = ? AND g.epoch = ? AND "
            "g.gid >= 1 AND NOT EXISTS (SELECT 1 FROM games WHERE device_id = g.device_id AND "
            "epoch = g.epoch AND gid = g.gid + 1)",
            key,
        ).fetchone()[0]

    def find(self, rec, source=None, day=None, apart=False):
        """The id of a stored game with exactly this record, else None; only among the games of
        this (device_id, epoch) when given, first synced on day (YYYY-MM-DD) when given, off
        their device's key when apart."""
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
            args = list(source) + [players]
        args.append(len(rec.get("hands") or []))
        if day is not None:
            q += " AND synced >= ? AND synced < ?"
            args += [day, day + "~"]
        if apart:
            q += " AND gid < 0"
        q += " AND record = ?"
        args.append(text)
        r = self.db.execute(q + " LIMIT 1", args).fetchone()
        return r[0] if r else None

    def ids_of(self, device_id, epoch, gid):
        """[the row id] of the game under this device key, [] if none."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT id FROM games WHERE device_id = ? AND epoch = ? AND gid = ?",
                (device_id, epoch, gid),
            )
        ]

    def store_derived(self, row_id, rec, d=None):
        """The standings, play and seats of a stored game (none if the core refuses it); d:
        derived.derive(rec) if already made."""
        self.db.execute("DELETE FROM seats WHERE game_id = ?", (row_id,))
        try:
            st, play, seats = (d or derived.derive(rec))[:3]
        except (GameError, TypeError, AttributeError, KeyError):
            self.db.execute(
                "UPDATE games SET standings = NULL, play = NULL WHERE id = ?", (row_id,)
            )
            return
        self.db.execute(
            "UPDATE games SET standings = ?, play = ? WHERE id = ?",
            (_dumps(st), _dumps(play), row_id),
        )
        self.db.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(row_id, c["seat"], c["player"]) + tuple(c[k] for k in SEAT_COUNTS) for c in seats],
        )

    def remove(self, row_id):
        """Game row_id out of the history, with its seats and its import notes."""
        self.evenings.set(row_id, None)
        for sql in (
            "DELETE FROM seats WHERE game_id = ?",
            "DELETE FROM imported WHERE game_id = ?",
            "DELETE FROM games WHERE id = ?",
        ):
            self.db.execute(sql, (row_id,))


def _dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
