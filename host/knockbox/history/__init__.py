"""The game history on the laptop: an SQLite file in the user's data folder. Sync and import
fill it; the readers (history, show, stats, export, settle, report, book, through knockbox.stats
and knockbox.settle) read only what they need, by index, and never replay a game.

Where: --db FILE, else $KNOCKBOX_HOME/history.sqlite3, else $XDG_DATA_HOME/knockbox/..., else
~/.local/share/knockbox/history.sqlite3.

Tables: knockbox.history.schema. History is the file (opening, upgrading, transactions) and
its parts, each a class given the connection and the parts it uses, none reaching into another:
  h.rows      GameRows (history_rows): the games table: a game stored, found, taken out
  h.evenings  Evenings (history_evenings): which evening a game belongs to, their numbers
  h.players   Players (history_players): names as the history keeps them, renames, merges
  h.versions  Versions (history_versions): each device game's copies, and the one that counts
  h.imports   Imports (history_imports): each import a batch, undone whole
  h.devices   DeviceMirror (history_device): a device's events and the games rebuilt from them
History is a Queries (history_read): games(), evening(), latest_evening(), each_game() and game()
are what almost every command asks of it, so they are its own, not behind an attribute; delete()
and undelete() are its own too (a game taken out keeps its id and key, table gone, and comes back
under them as its copies have it). A schema 3 file is upgraded by knockbox.history.upgrade.
An erase on the device starts a new epoch: its games get new keys, the old ones stay here.
What the history holds depends on the games alone: a game id is never given again, evening
numbers never change (knockbox.history.evening_numbers), a device's game is the copy chosen by its
records alone, whatever order they came in (knockbox.history.copies).

Evenings: {"t":"evening","next":G} (no "g"; knockcore.events makes and reads it: evening(G),
evening_next(event)) says the player started a new evening on the device and the next new game
gets number G. A game of that device and epoch belongs to the last such event (in journal order)
with G <= its gid (key "DEVICE/EPOCH/SEQ"); games before an epoch's first evening event are that
epoch's first evening (SEQ 0). An imported game belongs to its meta.evening label, else to its
date. Evenings are numbered 1, 2, ... as they reach the history and keep their numbers; a game
replaced on the device has no evening.
A game is never overwritten by a different one (another start record, or a second "game" record
under its number in the journal) under the same key, e.g. after the device's journal was repaired
or the device came back at an old epoch: the stored game moves off the key (gid = -id, shown as
"replaced on the device") and the new one is added.

Two knockboxes at once: one that finds the file locked by another that is writing it (an import,
a sync) waits, says so after WAIT_NOTE seconds, and gives up with a clear line after WAIT_MAX.
It waits SLICE at a time (Patient): SQLite's own wait, in C, would not hear Ctrl-C until it ends.
An SQLite error that reaches the command line (a damaged file) is said by unreadable().
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import time
from typing import TypeVar, Any, TYPE_CHECKING

from knockbox.usererror import UserError
from knockbox.fromevents import MAX_INT as MAX_INT  # (its home for the commands)
from knockbox.fromevents import event_gid as event_gid  # (its home for sync)
from knockbox.fromevents import evening_next
from knockbox.history.device import DeviceMirror
from knockbox.history.evening_numbers import Evenings
from knockbox.history.imports import Imports
from knockbox.history.players import Players
from knockbox.history.read import Queries
from knockbox.history.rows import GameRows
from knockbox.history.rows import now as now  # (its home for the commands)
from knockbox.history.schema import (
    DROPPED_4,
    INDEXES_2,
    SCHEMA,
    TABLES,
    TABLES_2,
    TABLES_3,
    TABLES_4,
    run_script,
)
from knockbox.history.upgrade import upgrade_from_3
from knockbox.history.copies import Versions
from knockbox.history.read import standings as standings  # (its home for the readers)

if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterator
    from knockbox.records import Row

FILENAME = "history.sqlite3"
STATUSES = ("playing", "over", "abandoned", "invalid")


def default_path() -> str:
    home = os.environ.get("KNOCKBOX_HOME")
    if not home:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(
            os.path.expanduser("~"), ".local", "share"
        )
        home = os.path.join(base, "knockbox")
    return os.path.join(home, FILENAME)


_opened: list[str] = []  # the history files this process opened (unreadable() names the last)
_waiting: list[bool] = []  # [True] once this process said it waits for another knockbox
WAIT_NOTE = 1.0  # seconds waited for another knockbox's lock before saying so
WAIT_MAX = 300.0  # seconds waited in all
SLICE = 0.2  # seconds SQLite waits for a lock at a time: Ctrl-C is heard between two


def _locked(e: BaseException) -> bool:
    return "locked" in str(e)


def unreadable(e: BaseException) -> str:
    """What to say of an SQLite error met reading the history (sqlite3.DatabaseError that
    reached the command line): the file is damaged, or another knockbox kept it locked."""
    where = _opened[-1] if _opened else "the history"
    if _locked(e):
        return (
            "%s: another knockbox is still writing the history (%s): try again when it is "
            "done" % (where, e)
        )
    return "%s: the history file is damaged (%s): put back a copy from a backup" % (where, e)


T = TypeVar("T")  # what a step of SQLite work gives back


class Patient(sqlite3.Connection):
    """The history's connection: a statement that finds the file locked by another knockbox is
    tried again, SQLite waiting SLICE at a time (so that Ctrl-C ends the wait at once), saying
    once after WAIT_NOTE that it waits, up to WAIT_MAX in all (then sqlite3's "database is
    locked" error, which History.patiently() and unreadable() say in one line)."""

    def execute(self, *args: Any) -> sqlite3.Cursor:
        return _again(lambda: super(Patient, self).execute(*args))

    def executemany(self, *args: Any) -> sqlite3.Cursor:
        return _again(lambda: super(Patient, self).executemany(*args))


def _again(step: Callable[[], T]) -> T:
    start = time.monotonic()
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if not _locked(e):
                raise
            waited = time.monotonic() - start
            if waited >= WAIT_MAX:
                raise
            if waited >= WAIT_NOTE and not _waiting:
                _waiting.append(True)
                sys.stderr.write(
                    "knockbox: waiting for the history (another knockbox is writing it)...\n"
                )
                sys.stderr.flush()


class History(Queries):
    def __init__(self, path: str | None = None, create: bool = True) -> None:
        self.path = path or default_path()
        _opened.append(self.path)
        if not create and not os.path.exists(self.path):
            raise UserError("no history yet at %s: run `knockbox sync` first" % self.path)
        d = os.path.dirname(os.path.abspath(self.path))
        try:
            os.makedirs(d, exist_ok=True)
            super().__init__(
                sqlite3.connect(self.path, isolation_level=None, timeout=SLICE, factory=Patient)
            )
            self.db.execute("PRAGMA foreign_keys = ON")
            self.evenings = Evenings(self.db)
            self.rows = GameRows(self.db, self.evenings)
            self.players = Players(self.db, self.rows)
            self.versions = Versions(self.db, self.rows, self.evenings, self.players)
            self.imports = Imports(self.db, self.rows, self.versions, self.evenings)
            self.devices = DeviceMirror(
                self.db, self.rows, self.evenings, self.players, self.versions
            )
            self.patiently(self._open)
        except sqlite3.DatabaseError as e:
            raise UserError("%s: not a Knockbox history (%s)" % (self.path, e)) from None
        except OSError as e:
            raise UserError("%s: %s" % (self.path, e.strerror or e)) from None

    def _schema(self) -> str | None:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.OperationalError as e:
            if _locked(e):
                raise
            if self.db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                raise UserError("%s: not a Knockbox history (no schema)" % self.path) from None
            return None
        return row[0] if row else None

    def _open(self) -> None:
        """A new file gets the tables; a file of an earlier schema is upgraded in place (one
        transaction; from schema 1: the derived data of every game, worked out from its stored
        record; from schema 3: the copies of each device game, the games taken out and the
        names given, from what it kept)."""
        if self._schema() == str(SCHEMA):
            indexes = {
                r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
            }
            if set(INDEXES_2) <= indexes and self.players.names_current():
                return
        with self.transaction():
            have = self._schema()
            if have is None:
                run_script(self.db, TABLES + TABLES_2 + TABLES_3 + TABLES_4 + DROPPED_4)
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
                self.players.clean_names()  # (nothing to clean: says the names' rules)
            elif have in ("1", "2", "3"):
                if have == "1":
                    self._upgrade_from_1()
                if have in ("1", "2"):
                    run_script(self.db, TABLES_3)
                self.players.clean_names()
                run_script(self.db, TABLES_4)
                upgrade_from_3(self)
                run_script(self.db, DROPPED_4)
                self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA),))
            elif have != str(SCHEMA):
                raise UserError(
                    "%s: history schema %s, this knockbox reads %d" % (self.path, have, SCHEMA)
                )
            elif not self.players.names_current():  # names kept by older rules
                self.players.clean_names()
            for sql in INDEXES_2.values():
                self.db.execute(sql.replace("INDEX", "INDEX IF NOT EXISTS", 1))

    def _upgrade_from_1(self) -> None:
        run_script(self.db, TABLES_2)
        starts = []
        for dev, epoch, seq, body in self.db.execute(
            "SELECT device_id, epoch, seq, body FROM events WHERE gid IS NULL"
        ):
            g = evening_next(json.loads(body))
            if g is not None:
                starts.append((dev, epoch, seq, g))
        self.db.executemany("INSERT INTO evening_starts VALUES (?, ?, ?, ?)", starts)
        rows = self.db.execute(
            "SELECT id, device_id, epoch, gid, record FROM games ORDER BY id"
        ).fetchall()
        for row_id, dev, epoch, gid, rec in rows:
            self.rows.store_derived(row_id, json.loads(rec))
            self.evenings.set(row_id, self.evenings.of_device_game(dev, epoch, gid))
        self.evenings.renumber()

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[History]:
        """BEGIN IMMEDIATE ... COMMIT; ROLLBACK when the block raises. Another knockbox writing
        the history is waited for (patiently()); an SQLite failure (disk full, read-only) rolls
        back and becomes a UserError."""
        try:
            self.patiently(lambda: self.db.execute("BEGIN IMMEDIATE"))
        except sqlite3.Error as e:
            raise UserError("%s: %s" % (self.path, e)) from None
        try:
            yield self
            self.db.execute("COMMIT")
        except BaseException as e:
            self._rollback()
            if isinstance(e, sqlite3.Error):
                raise UserError("%s: %s: nothing was saved" % (self.path, e)) from None
            raise

    def patiently(self, step: Callable[[], T]) -> T:
        """step() (SQLite work that may meet another knockbox's lock on the file: each
        statement waits for it, see Patient); a wait that ran out is a UserError."""
        try:
            return step()
        except sqlite3.OperationalError as e:
            if not _locked(e):
                raise
            raise UserError(
                "%s: another knockbox has been writing the history for %d "
                "seconds: try again when it is done" % (self.path, WAIT_MAX)
            ) from None

    def delete(self, ids: list[int]) -> list[Row]:
        """Delete these games (ids): each is kept aside under its key and its id (table gone),
        so that undelete() brings it back; a device game stays out of later syncs until then.
        Returns their rows; UserError (nothing deleted) for an id not in the history."""
        rows = self.games(ids)
        op = self.next_delete()
        for r in rows:
            self.rows.remove(r["id"], "deleted", op)
        self.evenings.renumber()
        return rows

    def undelete(self, ids: list[int] | None = None) -> list[int]:
        """Bring deleted games back under their ids: these (ids), else those of the latest
        delete. A device's game comes back as its copies have it now (a sync while it was
        deleted counts: knockbox.history.copies). Returns their ids; UserError if there is
        none, or for an id that is not a deleted game."""
        gone: list[Any]  # rows of the gone table (none is None once checked)
        if ids:
            gone = [self.rows.gone(row_id=i) for i in ids]
            bad = [str(i) for i, g in zip(ids, gone) if g is None or g["why"] != "deleted"]
            if bad:
                raise UserError(
                    "no deleted game %s (`knockbox delete --undo` alone brings back the latest "
                    "delete's games)" % ", ".join(bad)
                )
        else:
            op = self.db.execute(
                "SELECT MAX(op) FROM gone WHERE why = 'deleted' AND id IS NOT NULL"
            ).fetchone()[0]
            if op is None:
                raise UserError("no deleted game to bring back")
            gone = [
                self.rows.gone(row_id=r[0])
                for r in self.db.execute(
                    "SELECT id FROM gone WHERE why = 'deleted' AND op = ? ORDER BY id", (op,)
                ).fetchall()
            ]
        back = []
        for g in gone:
            key = (g["device_id"], g["epoch"], g["gid"])
            if self.rows.of_device(key) or self.versions.of(key):
                # a device's game: as its copies have it now (none yet: as a later sync has it)
                self.db.execute(
                    "UPDATE gone SET why = 'undone' WHERE device_id = ? AND epoch = ? AND gid = ?",
                    key,
                )
                self.versions.settle(key)
            elif g["record"] is None:
                continue  # (deleted by an older knockbox, and nothing left of it)
            else:
                self.rows.put_back(g)
            back.append(g["id"])
        self.evenings.renumber()
        return back

    def next_delete(self) -> int:
        """The number of a new delete (meta "last_delete"): undelete() alone brings back the
        latest delete's games."""
        r = self.db.execute("SELECT value FROM meta WHERE key = 'last_delete'").fetchone()
        n = (int(r[0]) if r else 0) + 1
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('last_delete', ?)", (str(n),))
        return n

    def _rollback(self) -> None:
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
