"""The history's import batches (tables imports, import_steps): each `knockbox import` is one
batch, so that undo() takes it back whole: the games it added go, the copies of device games it
brought go (knockbox.history.copies: such a game is then what its other copies say, the
device's as a later sync has it, never lost), and the deleted games it brought back are deleted
again. History.imports; knockbox.history.importing opens a batch (begin), notes each step (note) and
closes it (end), inside the import's transaction."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from knockbox.usererror import UserError
from knockbox.history.copies import imported

if TYPE_CHECKING:
    from knockbox.history import Patient
    from knockbox.history.copies import Versions
    from knockbox.history.evening_numbers import Evenings
    from knockbox.history.rows import GameRows
    from knockbox.records import Record
    from collections.abc import Callable


class Imports:
    """The import batches over the history's connection db; games are taken out through rows,
    device games settled again through versions, their evenings renumbered by evenings."""

    def __init__(self, db: Patient, rows: GameRows, versions: Versions, evenings: Evenings) -> None:
        self.db = db
        self.rows, self.versions, self.evenings = rows, versions, evenings
        self.batch: int | None = None  # the open batch's number (begin() ... end())
        self._steps = 0  # the steps noted in it

    def begin(self, files: list[str], when: str) -> None:
        """Start the batch of an import (inside its transaction)."""
        self.batch = self.db.execute(
            "INSERT INTO imports (at, files, games) VALUES (?, ?, 0)",
            (when, json.dumps([_as_text(f) for f in files], ensure_ascii=False)),
        ).lastrowid
        self._steps = 0

    def source(self) -> str:
        """The source of the copies this batch brings (knockbox.history.copies)."""
        assert self.batch is not None  # (inside begin() ... end())
        return imported(self.batch)

    def note(self, row_id: int, what: str, key: tuple[str, int, int]) -> None:
        """The import did what to game row_id (under key): "new" (added it), "version" (brought
        a copy of a device's game) or "undeleted" (brought back a deleted game)."""
        self._steps += 1
        self.db.execute(
            "INSERT OR IGNORE INTO import_steps VALUES (?, ?, ?, ?, ?, ?)",
            (self.batch, row_id, what) + tuple(key),
        )

    def end(self) -> int | None:
        """The batch's number, None when it changed nothing (nothing to undo)."""
        if not self._steps:
            self.db.execute("DELETE FROM imports WHERE id = ?", (self.batch,))
            return None
        self.db.execute("UPDATE imports SET games = ? WHERE id = ?", (self._steps, self.batch))
        return self.batch

    def undo(self, when: str, delete_op: Callable[[], int]) -> Record:
        """Undo the latest import not undone yet: the games it added are taken out, the copies
        it brought dropped (the games they were chosen for put back as their other copies have
        them), the deleted games it brought back deleted again (delete_op(): the delete's
        number). Returns {"batch", "at", "files", "removed", "restored"}; UserError if there is
        none."""
        last = self.db.execute(
            "SELECT id, at, files FROM imports WHERE undone IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if last is None:
            raise UserError("no import to undo")
        batch, at, files = last
        removed = restored = 0
        steps = self.db.execute(
            "SELECT game_id, what, device_id, epoch, gid FROM import_steps WHERE batch = ? "
            "ORDER BY game_id",
            (batch,),
        ).fetchall()
        op = None
        for row_id, what, *_key in steps:  # first, as they were: deleted
            if what == "undeleted" and self._here(row_id):
                op = op or delete_op()
                self.rows.remove(row_id, "deleted", op)
                removed += 1
        for row_id, what, *key in steps:
            if what == "version":
                self.versions.drop(key, imported(batch))
                got = self.versions.settle(key)[0]
                removed += got == "gone"
                restored += got == "updated"
            elif what == "new":
                if self._here(row_id):
                    self.rows.remove(row_id, "undone")
                    removed += 1
                else:  # deleted since: it cannot come back now
                    self.db.execute("UPDATE gone SET why = 'undone' WHERE id = ?", (row_id,))
        self.db.execute("DELETE FROM import_steps WHERE batch = ?", (batch,))
        self.db.execute("UPDATE imports SET undone = ? WHERE id = ?", (when, batch))
        self.evenings.renumber()
        return {
            "batch": batch,
            "at": at,
            "files": json.loads(files),
            "removed": removed,
            "restored": restored,
        }

    def _here(self, row_id: int) -> bool:
        return self.db.execute("SELECT 1 FROM games WHERE id = ?", (row_id,)).fetchone() is not None


def _as_text(path: str) -> str:
    """A file's name as text: its bytes that are not UTF-8 as escapes ("\\xff")."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")
