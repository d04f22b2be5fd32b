"""The evenings of the history (knockbox.history's header says what an evening is): which
evening a device's game belongs to, and their numbers, 1, 2, ... in the order of their first game,
kept up to date as games are stored. History.evenings; the game rows and the device mirror set a
game's evening through it, and call renumber() after the last game a write stores."""

ORDER = " ORDER BY synced, device_id, epoch, ABS(gid), id"  # the order games are listed in
_FIRST = "first_synced, first_device, first_epoch, first_gid, first_id"  # an evening's place


class Evenings:
    """The evenings' keys and numbers over the history's connection db."""

    def __init__(self, db):
        self.db = db
        self._dirty = set()  # keys of evenings whose games changed (renumber())

    def all(self):
        """[{number, key, first (when its first game was synced), games}] in order."""
        return [
            {"number": n, "key": k, "first": f, "games": c}
            for n, k, f, c in self.db.execute(
                "SELECT e.number, e.key, e.first_synced, (SELECT COUNT(*) FROM games g WHERE "
                "g.evening = e.key) FROM evenings e ORDER BY e.number"
            )
        ]

    def of_device_game(self, device_id, epoch, gid):
        """The key of the evening a device's game belongs to: "DEVICE/EPOCH/SEQ" with SEQ the
        evening record's (0: before the epoch's first), None for a game off its key."""
        if gid < 1:
            return None
        r = self.db.execute(
            "SELECT MAX(seq) FROM evening_starts WHERE device_id = ? AND epoch = ? AND next <= ?",
            (device_id, epoch, gid),
        ).fetchone()
        return "%s/%d/%d" % (device_id, epoch, r[0] or 0)

    def set(self, row_id, key):
        """Game row_id belongs to evening key (None: to none); renumber() brings the numbers
        up to date."""
        old = self.db.execute("SELECT evening FROM games WHERE id = ?", (row_id,)).fetchone()[0]
        if old != key:
            self.db.execute("UPDATE games SET evening = ? WHERE id = ?", (key, row_id))
        self._dirty |= {k for k in (old, key) if k is not None}

    def renumber(self):
        """Bring the evenings' numbers up to date after games were stored (1, 2, ... in the
        order of their first game); only the evenings touched are looked at again, and only
        numbers that changed are written."""
        keys, self._dirty = self._dirty, set()
        moved = []  # where the touched evenings were and are in the order
        for key in keys:
            old = self.db.execute(
                "SELECT " + _FIRST + " FROM evenings WHERE key = ?", (key,)
            ).fetchone()
            if old is not None:
                moved.append(tuple(old))
            first = self.db.execute(
                "SELECT synced, device_id, epoch, ABS(gid), id FROM games WHERE evening = ?"
                + ORDER
                + " LIMIT 1",
                (key,),
            ).fetchone()
            if first is None:
                self.db.execute("DELETE FROM evenings WHERE key = ?", (key,))
                continue
            moved.append(tuple(first))
            self.db.execute(
                "INSERT INTO evenings VALUES (?, NULL, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE "
                "SET first_synced = excluded.first_synced, first_device = excluded.first_device,"
                " first_epoch = excluded.first_epoch, first_gid = excluded.first_gid, "
                "first_id = excluded.first_id",
                (key,) + tuple(first),
            )
        if not moved:
            return
        # the evenings before the first one touched keep their numbers: those from it on are
        # numbered again (a new evening at the end: itself alone)
        low = min(moved)
        before = self.db.execute(
            "SELECT COUNT(*) FROM evenings WHERE (%s) < (?, ?, ?, ?, ?)" % _FIRST, low
        ).fetchone()[0]
        self.db.execute(
            "UPDATE evenings SET number = r.n FROM (SELECT key, ? + ROW_NUMBER() OVER (ORDER BY "
            "%s) AS n FROM evenings WHERE (%s) >= (?, ?, ?, ?, ?)) AS r WHERE evenings.key = "
            "r.key AND evenings.number IS NOT r.n" % (_FIRST, _FIRST),
            (before,) + low,
        )
