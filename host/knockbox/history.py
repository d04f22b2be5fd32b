"""The game history on the laptop: an SQLite file in the user's data folder (the commands that
read it are in knockbox/commands/: history, show, stats, export, settle; sync fills it).

Where: --db FILE, else $KNOCKBOX_HOME/history.sqlite3, else $XDG_DATA_HOME/knockbox/..., else
~/.local/share/knockbox/history.sqlite3.

Tables:
  devices(device_id, epoch, board, firmware, first_sync, last_sync)   one row per device epoch
  events(device_id, epoch, seq, gid, body)   the device's journal events as received (JSON)
  games(id, device_id, epoch, gid, ...)      one row per game, rebuilt from its events by the
                                             rules core; key (device_id, epoch, gid), so a game
                                             edited on the device after a sync is updated
An erase on the device starts a new epoch: its games get new keys, the old ones stay here.

Evenings are derived from the stored events: {"t":"evening","next":G} (no "g") says the player
started a new evening on the device and the next new game gets number G. A game of that device
and epoch belongs to the last such event (in journal order) with G <= its gid; games before an
epoch's first evening event are that epoch's first evening. Evenings that have games are
numbered 1, 2, ... in the order of their first game (the order `knockbox history` lists games);
a game replaced on the device has no evening (its events are gone).
A game is never overwritten by a different one (another start record) under the same key, e.g.
after the device's journal was repaired or the device came back at an old epoch: the stored game
moves off the key (gid = -id, shown as "replaced on the device") and the new one is added.
"""
import contextlib
import datetime
import json
import os
import sqlite3

from knockbox.errors import UserError
from knockcore import events
from knockcore.errors import GameError

FILENAME = "history.sqlite3"
SCHEMA = 1
_TABLES = """
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
STATUSES = ("playing", "over", "abandoned", "invalid")
EVENING = "evening"         # the journal event that starts a new evening
MAX_INT = (1 << 63) - 1     # SQLite's largest integer: game ids, epochs, seqs, gids


def default_path():
    home = os.environ.get("KNOCKBOX_HOME")
    if not home:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(
            os.path.expanduser("~"), ".local", "share")
        home = os.path.join(base, "knockbox")
    return os.path.join(home, FILENAME)


def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


class History:
    def __init__(self, path=None, create=True):
        self.path = path or default_path()
        if not create and not os.path.exists(self.path):
            raise UserError("no history yet at %s: run `knockbox sync` first" % self.path)
        d = os.path.dirname(os.path.abspath(self.path))
        try:
            os.makedirs(d, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.executescript(_TABLES)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            elif row[0] != str(SCHEMA):
                raise UserError("%s: history schema %s, this knockbox reads %d"
                                % (self.path, row[0], SCHEMA))
        except sqlite3.DatabaseError as e:
            raise UserError("%s: not a Knockbox history (%s)" % (self.path, e)) from None
        except OSError as e:
            raise UserError("%s: %s" % (self.path, e.strerror or e)) from None

    def close(self):
        self.db.close()

    @contextlib.contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE ... COMMIT; ROLLBACK when the block raises. An SQLite failure (disk
        full, locked, read-only) rolls back and becomes a UserError."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            raise UserError("%s: %s (another knockbox running?)" % (self.path, e)) from None
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

    def _rollback(self):
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    # ---- devices and events (sync)

    def epochs(self, device_id):
        return [r[0] for r in self.db.execute(
            "SELECT epoch FROM devices WHERE device_id = ? ORDER BY epoch", (device_id,))]

    def note_device(self, device_id, epoch, board, firmware, when):
        self.db.execute(
            "INSERT INTO devices VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, epoch) DO "
            "UPDATE SET board = excluded.board, firmware = excluded.firmware, "
            "last_sync = excluded.last_sync", (device_id, epoch, board, firmware, when, when))

    def last_seq(self, device_id, epoch):
        r = self.db.execute("SELECT MAX(seq) FROM events WHERE device_id = ? AND epoch = ?",
                            (device_id, epoch)).fetchone()
        return r[0] or 0

    def event(self, device_id, epoch, seq):
        r = self.db.execute("SELECT body FROM events WHERE device_id = ? AND epoch = ? AND "
                            "seq = ?", (device_id, epoch, seq)).fetchone()
        return json.loads(r[0]) if r else None

    def drop_events(self, device_id, epoch, from_seq):
        """Forget received events from from_seq on; returns the gids they touched."""
        gids = {r[0] for r in self.db.execute(
            "SELECT DISTINCT gid FROM events WHERE device_id = ? AND epoch = ? AND seq >= ? "
            "AND gid IS NOT NULL", (device_id, epoch, from_seq))}
        self.db.execute("DELETE FROM events WHERE device_id = ? AND epoch = ? AND seq >= ?",
                        (device_id, epoch, from_seq))
        return gids

    def orphans(self, device_id, epoch):
        """Game numbers that have events but no game row (a sync stopped between the two)."""
        return {r[0] for r in self.db.execute(
            "SELECT DISTINCT e.gid FROM events e WHERE e.device_id = ? AND e.epoch = ? AND "
            "e.gid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM games g WHERE g.device_id = "
            "e.device_id AND g.epoch = e.epoch AND g.gid = e.gid)", (device_id, epoch))}

    def add_events(self, device_id, epoch, evs):
        rows = []
        for seq, ev in evs:
            rows.append((device_id, epoch, seq, event_gid(ev),
                         json.dumps(ev, ensure_ascii=False, sort_keys=True)))
        self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)

    def game_events(self, device_id, epoch, gid):
        return [(r[0], json.loads(r[1])) for r in self.db.execute(
            "SELECT seq, body FROM events WHERE device_id = ? AND epoch = ? AND gid = ? "
            "ORDER BY seq", (device_id, epoch, gid))]

    def rebuild(self, device_id, epoch, gid, when):
        """Replay a game's events with the rules core and store the result; 'new', 'updated',
        'same', 'gone' (no events left) or 'replaced' (the device now has a different game under
        this number: the stored one is kept, moved off the key, and the new one added)."""
        evs = self.game_events(device_id, epoch, gid)
        old = self.db.execute("SELECT record, status, error, id FROM games WHERE device_id = ? "
                              "AND epoch = ? AND gid = ?", (device_id, epoch, gid)).fetchone()
        if not evs:
            return "gone"
        rec, status, winners, error = replay_events(evs)
        text = json.dumps(rec, ensure_ascii=False, sort_keys=True)
        result = "new" if old is None else "updated"
        if old is not None and _identity(json.loads(old[0])) != _identity(rec):
            # Never overwrite a game with another one: the old row leaves the unique key (its
            # gid becomes -id, so it cannot clash: device gids are >= 1) and stays as it was.
            self.db.execute("UPDATE games SET gid = ? WHERE id = ?", (-old[3], old[3]))
            old, result = None, "replaced"
        if old is not None and (old[0], old[1], old[2]) == (text, status, error):
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
            (device_id, epoch, gid, when, when, rec.get("method"), players, nhands, status,
             json.dumps(winners), text, error))
        return result

    # ---- reading

    def games(self, ids=None, since=None):
        """Game rows (dicts) in the order they were first synced; ids: list of game ids."""
        q = "SELECT * FROM games"
        args = []
        where = []
        if ids:
            where.append("id IN (%s)" % ",".join("?" * len(ids)))
            args += list(ids)
        if since:
            where.append("synced >= ?")
            args.append(since)
        if where:
            q += " WHERE " + " AND ".join(where)
        cur = self.db.execute(q + _ORDER, args)
        names = [d[0] for d in cur.description]
        out = [_game_row(dict(zip(names, r))) for r in cur]
        evening = self.evening_of()
        for g in out:
            g["evening"] = evening.get(g["id"])
        if ids:
            have = {g["id"] for g in out}
            missing = [str(i) for i in ids if i not in have]
            if missing:
                raise UserError("no game %s in the history (see `knockbox history`)"
                                % ", ".join(missing))
        return out

    def game(self, gid):
        return self.games([gid])[0]

    # ---- evenings

    def evening_of(self):
        """{game id: evening number} for every game that has an evening (see the top)."""
        starts = {}     # (device, epoch) -> [(seq, next gid)] in journal order
        for dev, epoch, seq, body in self.db.execute(
                "SELECT device_id, epoch, seq, body FROM events WHERE gid IS NULL "
                "ORDER BY device_id, epoch, seq"):
            ev = json.loads(body)
            g = ev.get("next") if isinstance(ev, dict) and ev.get("t") == EVENING else None
            if type(g) is int and 0 <= g <= MAX_INT:
                starts.setdefault((dev, epoch), []).append((seq, g))
        numbers, out = {}, {}
        for game_id, dev, epoch, g in self.db.execute(
                "SELECT id, device_id, epoch, gid FROM games" + _ORDER):
            if g < 0:
                continue
            seq = 0
            for s, first in starts.get((dev, epoch), ()):
                if first <= g:
                    seq = s
            key = (dev, epoch, seq)
            if key not in numbers:
                numbers[key] = len(numbers) + 1
            out[game_id] = numbers[key]
        return out

    def evening(self, n=None):
        """(number, game rows) of evening n, the latest when n is None; UserError if none."""
        count = max(self.evening_of().values(), default=0)
        if not count:
            raise UserError("no games yet: `knockbox sync` pulls them from the device")
        if n is None:
            n = count
        if not 1 <= n <= count:
            raise UserError("no evening %d: the history has evenings 1 to %d (see `knockbox "
                            "history`)" % (n, count))
        return n, [g for g in self.games() if g["evening"] == n]


_ORDER = " ORDER BY synced, device_id, epoch, ABS(gid), id"


def _game_row(d):
    d["replaced"] = d["gid"] < 0     # the device later had another game under its number
    d["players"] = json.loads(d["players"])
    d["winners"] = json.loads(d["winners"]) if d["winners"] else []
    d["record"] = json.loads(d["record"])
    return d


def standings(row):
    """The standings of a stored game (a History.games() row); UserError if the rules core
    refuses it."""
    from knockcore.game import from_record

    try:
        return from_record(row["record"]).standings()
    except GameError as e:
        raise UserError("game %d: %s" % (row["id"], e)) from None


def replay_events(evs):
    """(record, status, winners, error) of one game from its events [(seq, event)], each applied
    by knockcore.events.apply as on the device; a game the rules core refuses keeps the hands up
    to the refused event and status 'invalid'."""
    g, error, rec0 = None, None, None
    for seq, ev in evs:
        try:
            if g is None and isinstance(ev, dict) and ev.get("t") == events.GAME:
                rec0 = ev.get("rec")
            g = events.apply(g, ev)
        except (GameError, TypeError, AttributeError) as e:
            error = "record %d: %s" % (seq, e if isinstance(e, GameError) else "malformed (%r)"
                                       % (e,))
            break
    if g is None:
        return _clean(rec0), "invalid", [], error or "no game record"
    rec = g.record()
    if error:
        return rec, "invalid", [], error
    if g.over:
        return rec, "over", list(g.winners), None
    return rec, ("abandoned" if g.closed else "playing"), [], None


def event_gid(ev):
    """The game number an event belongs to, None if it has none we can use (1..MAX_INT)."""
    g = events.game_of(ev)
    return g if g is not None and 1 <= g <= MAX_INT else None


def _identity(rec):
    """What makes a game that game: its start record (an edit or undo never changes it)."""
    return [rec.get(k) for k in ("method", "players", "start", "rules")]


def _clean(rec0):
    """The parts of a start record the rules core refused that are safe to store and show."""
    rec = {"hands": []}
    if not isinstance(rec0, dict):
        return rec
    m, p = rec0.get("method"), rec0.get("players")
    if type(m) is int and 0 <= m <= MAX_INT:
        rec["method"] = m
    if isinstance(p, list) and all(isinstance(x, str) for x in p):
        rec["players"] = p
    for k in ("start", "rules"):
        if isinstance(rec0.get(k), dict):
            rec[k] = rec0[k]
    return rec
