"""The history file's tables, for knockbox.history.

Tables (schema 2; a schema 1 file is upgraded in place when opened, nothing lost):
  devices(device_id, epoch, board, firmware, first_sync, last_sync, built_seq)
                        one row per device epoch; its events up to built_seq are built into games
  events(device_id, epoch, seq, gid, body)   the device's journal events as received (JSON)
  games(id, device_id, epoch, gid, synced, updated, method, players, hands, status, winners,
        record, error, evening, standings, play)
                        one row per game, rebuilt from its events by the rules core (or imported);
                        key (device_id, epoch, gid), so a game edited on the device after a sync
                        is updated; standings, play and its seats' rows are knockbox.derived's,
                        worked out once when the game is stored
  seats(game_id, seat, player, won, hands, hands_won, gins, undercuts, points, net)
  evening_starts(device_id, epoch, seq, next)   the device's evening records
  evenings(key, number, first_...)              each evening's number and its first game
Schema 3 (a schema 2 file gets these tables when first opened):
  kept(device_id, epoch, gid)        device games the history holds more of than the device now
                                     has (its journal came back shorter): kept as they were
  deleted(device_id, epoch, gid)     device games deleted here: a later sync leaves them out
  aliases(name, player)              a player renamed or merged: a game that still has the old
                                     name (a later sync, an import) is stored under the new one
  imports(id, at, files, games, undone)  each import, so that it can be undone whole
  imported(batch, game_id, before)   what an import did to each game: added (before NULL) or
                                     updated (before: the row's record, status, error, updated)
  and the index import finds a typed-in game by (its players, hands and date: games_found)
Schema 4 (a schema 3 file is upgraded when first opened: kept, deleted and imported become the
tables below, nothing lost; meta "last_id": the last game id given, never given again):
  versions(device_id, epoch, gid, source, record, status, error, synced, updated, evening, seq)
                        each copy of a device's game the history has had (knockbox.history.copies):
                        source "device" (its replay from the events a sync mirrors), "kept" (what
                        the history held when the device came back with less), "import N" (what
                        import batch N brought), "history" (held by an older knockbox, source
                        unknown); seq: the device's journal record the copy was last changed
                        by (when known); the games row is the one chosen (games.seq: its seq),
                        so that an import undone or a delete undone leaves what the others say
  gone(device_id, epoch, gid, id, why, op, at, synced, updated, status, error, evening, record,
       seq)
                        games taken out, keyed as they were: why "deleted" (by delete number op:
                        a device game stays out of later syncs; `delete --undo` puts it back
                        under its id) or "undone" (an import undone took it out: the id is kept
                        for its key, should it come back)
  import_steps(batch, game_id, what, device_id, epoch, gid)
                        what each import did: "new" (a game added), "version" (a copy of a device's
                        game added to its versions), "undeleted" (a deleted game brought back)
  names(name)           the names a device or an import gave: a rename leaves an alias only for
                        these (a name the history made up itself is nobody's on a device)
"""

from __future__ import annotations

import sqlite3

SCHEMA = 4  # 1: before the derived data, 2: before kept games, aliases and import batches,
# 3: before versions, gone games and names
TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS devices (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, board TEXT, firmware TEXT,
    first_sync TEXT NOT NULL, last_sync TEXT NOT NULL, PRIMARY KEY (device_id, epoch));
CREATE TABLE IF NOT EXISTS events (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, seq INTEGER NOT NULL, gid INTEGER,
    body TEXT NOT NULL, PRIMARY KEY (device_id, epoch, seq));
CREATE INDEX IF NOT EXISTS events_game ON events (device_id, epoch, gid, seq);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, device_id TEXT NOT NULL, epoch INTEGER NOT NULL,
    gid INTEGER NOT NULL, synced TEXT NOT NULL, updated TEXT NOT NULL, method INTEGER,
    players TEXT NOT NULL, hands INTEGER NOT NULL, status TEXT NOT NULL, winners TEXT,
    record TEXT NOT NULL, error TEXT, UNIQUE (device_id, epoch, gid));
"""
# Schema 2: what the readers need, worked out once when a game is stored (knockbox.derived)
TABLES_2 = """
ALTER TABLE devices ADD COLUMN built_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN evening TEXT;
ALTER TABLE games ADD COLUMN standings TEXT;
ALTER TABLE games ADD COLUMN play TEXT;
CREATE INDEX games_evening ON games (evening);
CREATE INDEX games_synced ON games (synced);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id), seat INTEGER NOT NULL, player TEXT NOT NULL,
    won INTEGER NOT NULL, hands INTEGER NOT NULL, hands_won INTEGER NOT NULL,
    gins INTEGER NOT NULL, undercuts INTEGER NOT NULL, points INTEGER NOT NULL, net INTEGER,
    PRIMARY KEY (game_id, seat));
CREATE INDEX seats_player ON seats (player);
CREATE TABLE evening_starts (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, seq INTEGER NOT NULL, next INTEGER NOT NULL,
    PRIMARY KEY (device_id, epoch, seq));
CREATE TABLE evenings (
    key TEXT PRIMARY KEY, number INTEGER, first_synced TEXT, first_device TEXT,
    first_epoch INTEGER, first_gid INTEGER, first_id INTEGER);
CREATE INDEX evenings_number ON evenings (number);
"""
TABLES_3 = """
CREATE TABLE kept (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, gid INTEGER NOT NULL,
    PRIMARY KEY (device_id, epoch, gid));
CREATE TABLE deleted (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, gid INTEGER NOT NULL,
    PRIMARY KEY (device_id, epoch, gid));
CREATE TABLE aliases (name TEXT PRIMARY KEY, player TEXT NOT NULL);
CREATE TABLE imports (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, files TEXT NOT NULL, games INTEGER NOT NULL,
    undone TEXT);
CREATE TABLE imported (
    batch INTEGER NOT NULL REFERENCES imports (id), game_id INTEGER NOT NULL, before TEXT,
    PRIMARY KEY (batch, game_id));
CREATE INDEX imported_game ON imported (game_id);
DROP INDEX IF EXISTS games_players;
CREATE INDEX games_found ON games (players, hands, synced);
"""
TABLES_4 = """
CREATE TABLE versions (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, gid INTEGER NOT NULL, source TEXT NOT NULL,
    record TEXT NOT NULL, status TEXT NOT NULL, error TEXT, synced TEXT NOT NULL,
    updated TEXT NOT NULL, evening TEXT, seq INTEGER, PRIMARY KEY (device_id, epoch, gid, source));
ALTER TABLE games ADD COLUMN seq INTEGER;
CREATE INDEX versions_source ON versions (source);
CREATE TABLE gone (
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, gid INTEGER NOT NULL, id INTEGER,
    why TEXT NOT NULL, op INTEGER, at TEXT NOT NULL, synced TEXT, updated TEXT, status TEXT,
    error TEXT, evening TEXT, record TEXT, seq INTEGER, PRIMARY KEY (device_id, epoch, gid));
CREATE INDEX gone_id ON gone (id);
CREATE INDEX gone_op ON gone (why, op);
CREATE TABLE import_steps (
    batch INTEGER NOT NULL REFERENCES imports (id), game_id INTEGER NOT NULL, what TEXT NOT NULL,
    device_id TEXT NOT NULL, epoch INTEGER NOT NULL, gid INTEGER NOT NULL,
    PRIMARY KEY (batch, game_id, what));
CREATE TABLE names (name TEXT PRIMARY KEY) WITHOUT ROWID;
"""
# What schema 4 keeps elsewhere (knockbox.history.upgrade moves it first)
DROPPED_4 = """
DROP TABLE kept;
DROP TABLE deleted;
DROP TABLE imported;
"""
# Indexes added to schema 2 since it first landed: made when missing
INDEXES_2 = {
    "evenings_first": "CREATE INDEX evenings_first ON evenings (first_synced, first_device, "
    "first_epoch, first_gid, first_id)"
}


def named(cursor: sqlite3.Cursor) -> sqlite3.Cursor:
    """The cursor's rows as sqlite3.Row: each column read by its name, never by its place."""
    cursor.row_factory = sqlite3.Row
    return cursor


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Run the statements of an SQL script one by one inside the caller's transaction (sqlite3's
    executescript would commit it first)."""
    for stmt in script.split(";"):
        if stmt.strip():
            db.execute(stmt)
