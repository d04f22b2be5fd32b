"""The history's import batches (tables imports, imported): each `knockbox import` is one batch,
so that undo() takes out the games it added and puts back those it updated as they were.
History.imports; knockbox.importing opens a batch (begin), notes each game it stores (note) and
closes it (end), inside the import's transaction."""

import json
import os

from knockbox.errors import UserError


class Imports:
    """The import batches over the history's connection db; games are taken out and put back
    through rows, named as the history keeps names by players, and their evenings renumbered by
    evenings."""

    def __init__(self, db, rows, players, evenings):
        self.db = db
        self.rows, self.players, self.evenings = rows, players, evenings
        self._batch = None  # the open batch's number (begin() ... end())
        self._games = 0  # the games noted in it

    def begin(self, files, when):
        """Start the batch of an import (inside its transaction)."""
        self._batch = self.db.execute(
            "INSERT INTO imports (at, files, games) VALUES (?, ?, 0)",
            (when, json.dumps([_as_text(f) for f in files], ensure_ascii=False)),
        ).lastrowid
        self._games = 0

    def note(self, row_id, before=None):
        """Game row_id was added by the import (before None) or updated (before: its row as it
        was, row_before())."""
        self._games += 1
        self.db.execute(
            "INSERT OR IGNORE INTO imported VALUES (?, ?, ?)",
            (
                self._batch,
                row_id,
                None if before is None else json.dumps(before, ensure_ascii=False),
            ),
        )

    def end(self):
        """The batch's number, None when it changed nothing (nothing to undo)."""
        if not self._games:
            self.db.execute("DELETE FROM imports WHERE id = ?", (self._batch,))
            return None
        self.db.execute("UPDATE imports SET games = ? WHERE id = ?", (self._games, self._batch))
        return self._batch

    def row_before(self, row_id):
        """What note() keeps of a game before an import updates it: record, status, error,
        updated."""
        rec, status, error, updated = self.db.execute(
            "SELECT record, status, error, updated FROM games WHERE id = ?", (row_id,)
        ).fetchone()
        return {"record": json.loads(rec), "status": status, "error": error, "updated": updated}

    def undo(self, when):
        """Undo the latest import not undone yet: the games it added are taken out, those it
        updated put back as they were. Returns {"batch", "at", "files", "removed", "restored"};
        UserError if there is none."""
        r = self.db.execute(
            "SELECT id, at, files FROM imports WHERE undone IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if r is None:
            raise UserError("no import to undo")
        batch, removed, restored = r[0], 0, 0
        for row_id, before in self.db.execute(
            "SELECT game_id, before FROM imported WHERE batch = ? ORDER BY game_id", (batch,)
        ).fetchall():
            if before is None:
                self.rows.remove(row_id)
                removed += 1
                continue
            b = json.loads(before)
            self.rows.set_record(
                row_id, b["updated"], self.players.named(b["record"]), b["status"], b["error"]
            )
            restored += 1
        self.db.execute("DELETE FROM imported WHERE batch = ?", (batch,))
        self.db.execute("UPDATE imports SET undone = ? WHERE id = ?", (when, batch))
        self.evenings.renumber()
        return {
            "batch": batch,
            "at": r[1],
            "files": json.loads(r[2]),
            "removed": removed,
            "restored": restored,
        }


def _as_text(path):
    """A file's name as text: its bytes that are not UTF-8 as escapes ("\\xff")."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")
