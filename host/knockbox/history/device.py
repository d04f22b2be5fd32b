"""The history's mirror of each device: the device epochs and journal events a sync stores as
received, and the games rebuilt from them by the rules core (rebuild) into each game's "device"
copy, with what the history keeps when a device comes back with less than was synced (a "kept"
copy: knockbox.history.copies chooses the one that counts). History.devices;
knockbox.history's header says what a device game is, knockbox.link.sync drives these."""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING

from knockbox.bounds import GAME_EVENTS_MAX
from knockbox.fromevents import event_gid, evening_next, replay_events, same_game, split
from knockbox.history.copies import DEVICE, KEPT, less

if TYPE_CHECKING:
    from knockbox.history import Patient
    from knockbox.history.copies import Versions
    from knockbox.history.evening_numbers import Evenings
    from knockbox.history.players import Players
    from knockbox.history.rows import GameRows
    from knockbox.records import Record


class DeviceMirror:
    """The devices' events and games over the history's connection db: games are stored through
    rows (knockbox.history.rows.GameRows), put in their evening by evenings and named as the
    history keeps names by players."""

    def __init__(
        self, db: Patient, rows: GameRows, evenings: Evenings, players: Players, versions: Versions
    ) -> None:
        self.db = db
        self.rows, self.evenings, self.players = rows, evenings, players
        self.versions = versions

    def epochs(self, device_id: str) -> list[Any | int]:
        return [
            r[0]
            for r in self.db.execute(
                "SELECT epoch FROM devices WHERE device_id = ? ORDER BY epoch", (device_id,)
            )
        ]

    def note(
        self, device_id: str, epoch: int, board: str | None, firmware: str | None, when: str
    ) -> None:
        self.db.execute(
            "INSERT INTO devices (device_id, epoch, board, firmware, first_sync, last_sync) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, epoch) DO "
            "UPDATE SET board = excluded.board, firmware = excluded.firmware, "
            "last_sync = excluded.last_sync",
            (device_id, epoch, board, firmware, when, when),
        )

    def last_seq(self, device_id: str, epoch: int) -> int:
        r = self.db.execute(
            "SELECT MAX(seq) FROM events WHERE device_id = ? AND epoch = ?", (device_id, epoch)
        ).fetchone()
        return r[0] or 0

    def event(self, device_id: str, epoch: int, seq: int) -> dict[str, Any] | None:
        r = self.db.execute(
            "SELECT body FROM events WHERE device_id = ? AND epoch = ? AND seq = ?",
            (device_id, epoch, seq),
        ).fetchone()
        return json.loads(r[0]) if r else None

    def drop_events(self, device_id: str, epoch: int, from_seq: int) -> set[int]:
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

    def _after_evening_starts(self, device_id: str, epoch: int, from_seq: int) -> set[Any]:
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

    def orphans(self, device_id: str, epoch: int) -> set[Any]:
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

    def built(self, device_id: str, epoch: int) -> None:
        """Every game of the events held is built (the end of a sync): orphans() starts here."""
        self.db.execute(
            "UPDATE devices SET built_seq = ? WHERE device_id = ? AND epoch = ?",
            (self.last_seq(device_id, epoch), device_id, epoch),
        )

    def add_events(self, device_id: str, epoch: int, evs: list[Any]) -> set[Any]:
        """Store events as received; returns the game numbers whose evening an evening event
        among them may change (normally none: an evening starts before its games)."""
        rows, starts = [], []
        for seq, ev in evs:
            gid = event_gid(ev)
            body = json.dumps(ev, ensure_ascii=False, sort_keys=True)
            rows.append((device_id, epoch, seq, gid, body))
            g = evening_next(ev) if gid is None else None
            if g is not None:
                starts.append((device_id, epoch, seq, g))
        self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
        if not starts:
            return set()
        self.db.executemany("INSERT INTO evening_starts VALUES (?, ?, ?, ?)", starts)
        _dev, _epoch, first, _next = starts[0]
        return self._after_evening_starts(device_id, epoch, first)

    def game_events(self, device_id: str, epoch: int, gid: int) -> list[Any]:
        """[(seq, event)] of a game, the first GAME_EVENTS_MAX + 1 (more: the game is refused)."""
        return [
            (seq, json.loads(body))
            for seq, body in self.db.execute(
                "SELECT seq, body FROM events WHERE device_id = ? AND epoch = ? AND gid = ? "
                "ORDER BY seq LIMIT ?",
                (device_id, epoch, gid, GAME_EVENTS_MAX + 1),
            )
        ]

    def rebuild(
        self,
        device_id: str,
        epoch: int,
        gid: int,
        when: str,
        lost: bool = False,
        notes: list[Any] | None = None,
    ) -> str:
        """Replay a game's events with the rules core into its "device" copy
        (knockbox.history.copies) and store the copy the history counts, with what readers
        need (knockbox.derived): 'new', 'updated', 'same', 'gone' (no events and no other
        copy), 'deleted' (deleted here: left out), 'kept' (another copy has more hands than the
        device's: a device that came back with less, an import of a later copy) or 'replaced'
        (the device now has a different game under this number: the stored one is kept, moved
        off the key, and the new one added; so is each earlier game of the number, when the
        journal has several). The players' names are the history's (knockbox.players:
        trimmed, one Unicode form, renamed). lost: the device's journal was read again from
        its start (it came back shorter or changed): the device's copy as it was is kept
        ("kept") when the device now has only some of its hands or other ones; each game whose
        copies then part is noted in notes as (gid, the device's hands or None, the history's
        hands, how: "less" (the history keeps its copy, it counts), "another way" (the device's
        went on another way after their common hands: it counts, the history's is kept aside)
        or "apart" (the device's differs from the first hand: another game under the number,
        both kept and counted)). Call evenings.renumber() after the last one."""
        key = (device_id, epoch, gid)
        games = split(self.game_events(*key))
        had = self.versions.get(key, DEVICE)
        row = self.rows.on_key(key)
        moved = False
        if games[0]:
            recs = [self._replayed(evs) for evs in games]
            for raw, status, error in recs[:-1]:  # earlier games of the number: kept apart
                if self._apart(key, row, self.players.named(raw), status, error, when):
                    moved = True
                    row, had = self.rows.on_key(key), self.versions.get(key, DEVICE)
            raw, status, error = recs[-1]
            rec = self.players.named(raw)
            if row is not None and (had is None or lost) and not same_game(row["record"], rec):
                # (a device copy the journal goes on from is of this game: a game the device
                # gave this number again is a "game" record of its own, apart above)
                self._move(key, row)  # never overwritten by another game: moved apart
                row, had, moved = None, None, True
            elif row is not None and (lost or self.versions.get(key, KEPT)):
                # the device lost what the history holds of it: from its first hand on another
                # game than the history's (the number given again), both kept and counted
                have, now = row["record"].get("hands") or [], rec.get("hands") or []
                if have and now and have[0] != now[0]:
                    self._move(key, row)
                    self._note(notes, (gid, len(now), len(have), "apart"))
                    row, had, moved = None, None, True
        if had is not None and lost:  # the device's copy as it was, unless it is all still there
            have = had["record"].get("hands") or []
            if not games[0] or (rec.get("hands") or [])[: len(have)] != have:
                self.versions.put(
                    key,
                    KEPT,
                    had["record"],
                    had["status"],
                    had["error"],
                    had["synced"],
                    had["updated"],
                    had["evening"],
                    had["seq"],
                    given=False,
                )
        if not games[0]:
            if had is not None:
                self.versions.drop(key, DEVICE)
            what, best = self.versions.settle(key)
            if lost and best is not None and had is not None:
                self._note(notes, (gid, None, len(best["record"].get("hands") or []), "less"))
            return "deleted" if what == "deleted" else "gone"
        changed = had is None or (had["record"], had["status"], had["error"]) != (
            rec,
            status,
            error,
        )
        self.versions.put(
            key,
            DEVICE,
            self.players.cleaned(raw),
            status,
            error,
            when if had is None else had["synced"],
            when if changed else had["updated"],  # type: ignore[index]  # (not changed: had is not None)
            self.evenings.of_device_game(*key),
            games[-1][-1][0],  # (the seq of its last event)
        )
        before = row and row["record"]
        what, best = self.versions.settle(key)
        if best is None:
            return what
        mine = best["source"] == DEVICE
        n, m = len(rec.get("hands") or []), len(best["record"].get("hands") or [])
        if not mine and less({"record": rec, "status": status}, best):
            self._note(notes, (gid, n, m, "less"))
            return "replaced" if moved else ("kept" if what == "same" else what)
        if mine and before is not None and before != rec:
            kept = self.versions.get(key, KEPT)
            if kept is not None and kept["record"] == before and not less(kept, best):
                # the device went another way than what the history held
                self._note(notes, (gid, n, len(before.get("hands") or []), "another way"))
        return "replaced" if moved else what

    def _replayed(self, evs: list[Any]) -> Any:
        """(the record with its names as the device gave them, cleaned; status; error)."""
        rec, status, _winners, error = replay_events(evs)
        return self.players.cleaned(rec), status, error

    def _move(self, key: tuple[str, int, int], row: Any) -> None:
        """The game on key leaves it (kept as it is, off the key), with its copies."""
        self.rows.move_apart(row["id"])
        self.versions.drop(key)

    def _apart(
        self,
        key: tuple[str, int, int],
        row: Any,
        rec: Record,
        status: str,
        error: str | None,
        when: str,
    ) -> bool:
        """An earlier game the device gave this number (rec): the game stored on key when it is
        that game (moved off the key, and brought up to it), else one kept apart; True if
        anything was moved or added."""
        if row is not None and same_game(row["record"], rec):
            have = row["record"].get("hands") or []
            if (rec.get("hands") or [])[: len(have)] == have:
                self._move(key, row)
                if row["record"] != rec or row["status"] != status:
                    self.rows.set_record(
                        row["id"],
                        synced=row["synced"],
                        updated=when,
                        rec=rec,
                        status=status,
                        error=error,
                    )
                return True
        if self.rows.find(rec, key[:2], apart=True) is not None:
            return False
        self.rows.add(
            device_id=key[0],
            epoch=key[1],
            gid=None,
            synced=when,
            updated=when,
            rec=rec,
            status=status,
            error=error,
            evening=None,
        )
        return True

    @staticmethod
    def _note(notes: list[tuple[Any, ...]] | None, note: tuple[Any, ...]) -> None:
        if notes is not None:
            notes.append(note)
