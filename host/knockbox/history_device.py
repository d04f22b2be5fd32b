"""The history's mirror of each device: the device epochs and journal events a sync stores as
received, and the games rebuilt from them by the rules core (rebuild), with what the history keeps
when a device comes back with less than was synced (table kept) and the games deleted here (table
deleted). History.devices; knockbox.history's header says what a device game is, knockbox.sync
drives these."""

import json

from knockbox.bounds import GAME_EVENTS_MAX
from knockbox.fromevents import event_gid, evening_next, identity, replay_events


class DeviceMirror:
    """The devices' events and games over the history's connection db: games are stored through
    rows (knockbox.history_rows.GameRows), put in their evening by evenings and named as the
    history keeps names by players."""

    def __init__(self, db, rows, evenings, players):
        self.db = db
        self.rows, self.evenings, self.players = rows, evenings, players

    def epochs(self, device_id):
        return [
            r[0]
            for r in self.db.execute(
                "SELECT epoch FROM devices WHERE device_id = ? ORDER BY epoch", (device_id,)
            )
        ]

    def note(self, device_id, epoch, board, firmware, when):
        self.db.execute(
            "INSERT INTO devices (device_id, epoch, board, firmware, first_sync, last_sync) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, epoch) DO "
            "UPDATE SET board = excluded.board, firmware = excluded.firmware, "
            "last_sync = excluded.last_sync",
            (device_id, epoch, board, firmware, when, when),
        )

    def last_seq(self, device_id, epoch):
        r = self.db.execute(
            "SELECT MAX(seq) FROM events WHERE device_id = ? AND epoch = ?", (device_id, epoch)
        ).fetchone()
        return r[0] or 0

    def event(self, device_id, epoch, seq):
        r = self.db.execute(
            "SELECT body FROM events WHERE device_id = ? AND epoch = ? AND seq = ?",
            (device_id, epoch, seq),
        ).fetchone()
        return json.loads(r[0]) if r else None

    def drop_events(self, device_id, epoch, from_seq):
        """Forget received events from from_seq on; returns the gids they touched (with those
        whose evening they started)."""
        key = (device_id, epoch, from_seq)
        gids = {
            r[0]
            for r in self.db.execute(
                "SELECT DISTINCT gid FROM events WHERE device_id = ? AND epoch = ? AND seq >= ? "
                "AND gid IS NOT NULL",
                key,
            )
        }
        gids |= self._after_evening_starts(device_id, epoch, from_seq)
        self.db.execute("DELETE FROM events WHERE device_id = ? AND epoch = ? AND seq >= ?", key)
        self.db.execute(
            "DELETE FROM evening_starts WHERE device_id = ? AND epoch = ? AND seq >= ?", key
        )
        self.db.execute(
            "UPDATE devices SET built_seq = MIN(built_seq, ?) WHERE device_id = ? AND epoch = ?",
            (from_seq - 1, device_id, epoch),
        )
        return gids

    def _after_evening_starts(self, device_id, epoch, from_seq):
        """The stored games of this device epoch from the first game of an evening started at
        or after from_seq: their evening is decided again."""
        r = self.db.execute(
            "SELECT MIN(next) FROM evening_starts WHERE device_id = ? AND epoch = ? AND seq >= ?",
            (device_id, epoch, from_seq),
        ).fetchone()
        if r[0] is None:
            return set()
        return {
            g
            for (g,) in self.db.execute(
                "SELECT gid FROM games WHERE device_id = ? AND epoch = ? AND gid >= ?",
                (device_id, epoch, r[0]),
            )
        }

    def orphans(self, device_id, epoch):
        """Game numbers that have events but no game row (a sync stopped between the two):
        looked for among the events after the last complete build (built_seq)."""
        r = self.db.execute(
            "SELECT built_seq FROM devices WHERE device_id = ? AND epoch = ?", (device_id, epoch)
        ).fetchone()
        gids = {
            g
            for (g,) in self.db.execute(
                "SELECT gid FROM events WHERE device_id = ? AND epoch = ? AND seq > ? AND gid IS NOT "
                "NULL",
                (device_id, epoch, r[0] if r else 0),
            )
        }
        return {g for g in gids if not self.rows.ids_of(device_id, epoch, g)}

    def built(self, device_id, epoch):
        """Every game of the events held is built (the end of a sync): orphans() starts here."""
        self.db.execute(
            "UPDATE devices SET built_seq = ? WHERE device_id = ? AND epoch = ?",
            (self.last_seq(device_id, epoch), device_id, epoch),
        )

    def add_events(self, device_id, epoch, evs):
        """Store events as received; returns the game numbers whose evening an evening event
        among them may change (normally none: an evening starts before its games)."""
        rows, starts = [], []
        for seq, ev in evs:
            rows.append(
                (
                    device_id,
                    epoch,
                    seq,
                    event_gid(ev),
                    json.dumps(ev, ensure_ascii=False, sort_keys=True),
                )
            )
            g = evening_next(ev) if rows[-1][3] is None else None
            if g is not None:
                starts.append((device_id, epoch, seq, g))
        self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
        if not starts:
            return set()
        self.db.executemany("INSERT INTO evening_starts VALUES (?, ?, ?, ?)", starts)
        return self._after_evening_starts(device_id, epoch, starts[0][2])

    def game_events(self, device_id, epoch, gid):
        """[(seq, event)] of a game, the first GAME_EVENTS_MAX + 1 (more: the game is refused)."""
        return [
            (r[0], json.loads(r[1]))
            for r in self.db.execute(
                "SELECT seq, body FROM events WHERE device_id = ? AND epoch = ? AND gid = ? "
                "ORDER BY seq LIMIT ?",
                (device_id, epoch, gid, GAME_EVENTS_MAX + 1),
            )
        ]

    def rebuild(self, device_id, epoch, gid, when, lost=False, notes=None):
        """Replay a game's events with the rules core and store the result with what readers
        need (knockbox.derived); 'new', 'updated', 'same', 'gone' (no events left), 'deleted'
        (deleted here: left out), 'kept' or 'replaced' (the device now has a different game
        under this number: the stored one is kept, moved off the key, and the new one added).
        The players' names are the history's (knockbox.players: trimmed, one Unicode form,
        renamed). lost: the device's journal was read again from its start (it came back
        shorter or changed): a stored game the device now has only the first hands of is kept
        as it is ('kept'), and stays so until the device's game goes on past it; one whose
        hands the device has other ones of is moved apart and the device's stored too; each
        such game is noted in notes as (gid, the device's hands or None, the history's hands,
        whether the history's copy was moved apart). Call evenings.renumber() after the
        last one."""
        key = (device_id, epoch, gid)
        if self._has("deleted", key):
            return "deleted"
        evs = self.game_events(device_id, epoch, gid)
        old = self.db.execute(
            "SELECT record, status, error, id, hands FROM games WHERE "
            "device_id = ? AND epoch = ? AND gid = ?",
            key,
        ).fetchone()
        evening = self.evenings.of_device_game(device_id, epoch, gid)
        held = old is not None and (lost or self._has("kept", key))
        if not evs:
            if old is not None:
                self.evenings.set(old[3], evening)
                if lost:
                    self._keep(key, True, notes, (gid, None, old[4], False))
            return "gone"
        rec, status, winners, error = replay_events(evs)
        rec = self.players.named(rec)
        text = json.dumps(rec, ensure_ascii=False, sort_keys=True)
        result = "new" if old is None else "updated"
        moved = old is not None and identity(json.loads(old[0])) != identity(rec)
        if held and not moved:
            have, now = json.loads(old[0])["hands"], rec.get("hands") or []
            if len(now) < len(have) and now == have[: len(now)]:  # less of the history's
                self._keep(key, True, notes, (gid, len(now), len(have), False))
                self.evenings.set(old[3], evening)
                return "kept"
            if now[: len(have)] != have:  # it went another way: both are kept
                moved = True
                self._keep(key, False, notes, (gid, len(now), len(have), True))
        if moved:
            # Never overwrite a game with another one: the old row leaves the unique key (its
            # gid becomes -id, so it cannot clash: device gids are >= 1) and stays as it was.
            self.db.execute("UPDATE games SET gid = ? WHERE id = ?", (-old[3], old[3]))
            self.evenings.set(old[3], None)
            old, result = None, "replaced"
        self._keep(key, False)
        if old is not None and (old[0], old[1], old[2]) == (text, status, error):
            self.evenings.set(old[3], evening)
            return "same"
        players = json.dumps(rec.get("players") or [], ensure_ascii=False)
        nhands = len(rec.get("hands") or [])
        self.db.execute(
            "INSERT INTO games (device_id, epoch, gid, synced, updated, method, players, hands, "
            "status, winners, record, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (device_id, epoch, gid) DO UPDATE SET updated = excluded.updated, "
            "method = excluded.method, players = excluded.players, hands = excluded.hands, "
            "status = excluded.status, winners = excluded.winners, record = excluded.record, "
            "error = excluded.error",
            (
                device_id,
                epoch,
                gid,
                when,
                when,
                rec.get("method"),
                players,
                nhands,
                status,
                json.dumps(winners),
                text,
                error,
            ),
        )
        row_id = self.db.execute(
            "SELECT id FROM games WHERE device_id = ? AND epoch = ? AND gid = ?", key
        ).fetchone()[0]
        self.rows.store_derived(row_id, rec)
        self.evenings.set(row_id, evening)
        return result

    def forget(self, device_id, epoch, gid):
        """The device game under this key was deleted here: a later sync leaves it out."""
        key = (device_id, epoch, gid)
        self.db.execute("INSERT OR IGNORE INTO deleted VALUES (?, ?, ?)", key)
        self._keep(key, False)

    def _has(self, table, key):
        return (
            self.db.execute(
                "SELECT 1 FROM %s WHERE device_id = ? AND epoch = ? AND gid = ?" % table, key
            ).fetchone()
            is not None
        )

    def _keep(self, key, on, notes=None, note=None):
        """Mark the device game under key as kept (on) or not; note it in notes."""
        if on:
            self.db.execute("INSERT OR IGNORE INTO kept VALUES (?, ?, ?)", key)
        else:
            self.db.execute("DELETE FROM kept WHERE device_id = ? AND epoch = ? AND gid = ?", key)
        if notes is not None and note is not None:
            notes.append(note)
