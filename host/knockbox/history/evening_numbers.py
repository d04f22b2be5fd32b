"""The evenings of the history (knockbox.history's header says what an evening is): which
evening a device's game belongs to, and their numbers. An evening is numbered when it first
reaches the history, after every number given before (the new evenings of one write in the order
of their first game), and keeps that number for good: games imported later into the past get new
numbers and never move the old ones, and an evening whose games were all deleted keeps its number
(it comes back under it). So `settle --evening 3`, `report --evening 3` and the CSV's evening
column mean the same evening whatever arrives later. History.evenings; the game rows and the
device mirror set a game's evening through it, and call renumber() after the last game a write
stores."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from knockbox.history import Patient
    from knockbox.records import Record

ORDER = " ORDER BY synced, device_id, epoch, ABS(gid), id"  # the order games are listed in
_FIRST = "first_synced, first_device, first_epoch, first_gid, first_id"  # an evening's place
# the number of the latest evening: the one whose first game comes last in the history's order
LATEST = (
    "SELECT number FROM evenings WHERE first_synced IS NOT NULL ORDER BY "
    + ", ".join(c + " DESC" for c in _FIRST.split(", "))
    + " LIMIT 1"
)


class Evenings:
    """The evenings' keys and numbers over the history's connection db."""

    def __init__(self, db: Patient) -> None:
        self.db = db
        self._dirty: set[str] = set()  # keys of evenings whose games changed (renumber())

    def all(self) -> list[Record]:
        """[{number, key, first (when its first game was synced), games}] of the evenings that
        have games, in the order of their first game."""
        return [
            {"number": n, "key": k, "first": f, "games": c}
            for n, k, f, c in self.db.execute(
                "SELECT e.number, e.key, e.first_synced, (SELECT COUNT(*) FROM games g WHERE "
                "g.evening = e.key) FROM evenings e WHERE e.first_synced IS NOT NULL ORDER BY "
                + _FIRST
            )
        ]

    def of_device_game(self, device_id: str, epoch: int, gid: int) -> str | None:
        """The key of the evening a device's game belongs to: "DEVICE/EPOCH/SEQ" with SEQ the
        evening record's (0: before the epoch's first), None for a game off its key."""
        if gid < 1:
            return None
        r = self.db.execute(
            "SELECT MAX(seq) FROM evening_starts WHERE device_id = ? AND epoch = ? AND next <= ?",
            (device_id, epoch, gid),
        ).fetchone()
        return "%s/%d/%d" % (device_id, epoch, r[0] or 0)

    def set(self, row_id: int, key: str | None) -> None:
        """Game row_id belongs to evening key (None: to none); renumber() brings the evenings
        up to date."""
        old = self.db.execute("SELECT evening FROM games WHERE id = ?", (row_id,)).fetchone()[0]
        if old != key:
            self.db.execute("UPDATE games SET evening = ? WHERE id = ?", (key, row_id))
        self._dirty |= {k for k in (old, key) if k is not None}

    def renumber(self) -> None:
        """Bring the evenings up to date after games were stored: where each evening touched
        has its first game now (none: its games are gone, its number stays), and a number for
        each new one, after the last number given (in the order of their first game). Numbers
        given are never changed."""
        keys, self._dirty = self._dirty, set()
        new = []
        for key in sorted(keys):
            first = self.db.execute(
                "SELECT synced, device_id, epoch, ABS(gid), id FROM games WHERE evening = ?"
                + ORDER
                + " LIMIT 1",
                (key,),
            ).fetchone()
            first = tuple(first) if first is not None else (None,) * 5
            had = self.db.execute("SELECT number FROM evenings WHERE key = ?", (key,)).fetchone()
            if had is None:
                if first[0] is None:
                    continue
                self.db.execute(
                    "INSERT INTO evenings VALUES (?, NULL, ?, ?, ?, ?, ?)", (key,) + first
                )
                new.append((first, key))
            else:
                self.db.execute(
                    "UPDATE evenings SET first_synced = ?, first_device = ?, first_epoch = ?, "
                    "first_gid = ?, first_id = ? WHERE key = ?",
                    first + (key,),
                )
        last = self.db.execute("SELECT MAX(number) FROM evenings").fetchone()[0] or 0
        for n, (_, key) in enumerate(sorted(new), last + 1):
            self.db.execute("UPDATE evenings SET number = ? WHERE key = ?", (n, key))
