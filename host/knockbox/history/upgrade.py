"""A history of schema 3 brought to schema 4 in place (knockbox.history.schema says what each
holds), inside the transaction that opens it: nothing is lost and no game, id, evening or figure
changes. What schema 3 kept becomes:
  - each device game's copies (table versions): its replay from the events mirrored ("device"),
    the copy each import batch still in force brought ("import N": the record it left, what the
    next batch found), the record before the first import of it and the game as the history
    holds it when no other copy says it ("history"; "kept" for a game kept because the device
    came back with less);
  - what each import did (import_steps) from table imported;
  - the device games deleted (table deleted) as games taken out (gone: why "deleted", under a
    new id, theirs unknown, their record unknown: `delete --undo` brings them back as their
    device's copy has them);
  - the names a device or an import gave (names): every name of the events and of the games,
    and each alias's old name, but not a name only a rename gave;
  - the last game id given (meta "last_id"), and each game that is its device's copy the number
    of the device's record it was last changed by (games.seq).
Then the old tables go (history_schema.DROPPED_4)."""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING

from knockbox.fromevents import replay_events, same_game, split
from knockbox.history.rows import now
from knockbox.history.schema import named
from knockbox.history.copies import DEVICE, HISTORY, KEPT, imported

if TYPE_CHECKING:
    from knockbox.history import History


def upgrade_from_3(h: History) -> None:
    db = h.db
    last = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
    if last:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('last_id', ?)", (str(last),))
    notes: dict = {}  # game id -> [(batch, before)] of the imports in force, in order
    for batch, game_id, before in db.execute(
        "SELECT i.batch, i.game_id, i.before FROM imported i JOIN imports b ON b.id = i.batch "
        "WHERE b.undone IS NULL ORDER BY i.batch"
    ):
        notes.setdefault(game_id, []).append((batch, json.loads(before) if before else None))
    kept = set(db.execute("SELECT device_id, epoch, gid FROM kept"))
    steps = []
    for row in named(
        db.execute(
            "SELECT id, device_id, epoch, gid, record, status, error, synced, updated, evening "
            "FROM games ORDER BY id"
        )
    ).fetchall():
        row_id, key = row["id"], (row["device_id"], row["epoch"], row["gid"])
        device_game = h.rows.of_device(key)
        for batch, _ in notes.get(row_id, []):
            steps.append((batch, row_id, "version" if device_game else "new") + key)
        if device_game:
            held = dict(row, record=json.loads(row["record"]))
            _copies(h, key, held, notes.get(row_id, []), KEPT if key in kept else HISTORY)
    db.executemany("INSERT INTO import_steps VALUES (?, ?, ?, ?, ?, ?)", steps)
    # the device games deleted: under a new id (theirs was not kept), with their device's copy
    for key in db.execute("SELECT device_id, epoch, gid FROM deleted").fetchall():
        evs = h.devices.game_events(*key)
        if evs:
            last = split(evs)[-1]
            drec, dstatus, _w, derror = replay_events(last)
            h.versions.put(
                key,
                DEVICE,
                h.players.cleaned(drec),
                dstatus,
                derror,
                now(),
                now(),
                None,
                last[-1][0],
            )
        db.execute(
            "INSERT INTO gone (device_id, epoch, gid, id, why, op, at) VALUES (?, ?, ?, ?, "
            "'deleted', 0, ?)",
            key + (h.rows.new_id(), now()),
        )
    _names(h)


def _copies(
    h: History,
    key: tuple[str, int, int],
    row: Any,
    batches: list[Any],
    held_as: str,
) -> None:
    """The copies of one device game (key) the history held as row (its record, status, error,
    synced, updated, evening)."""
    rec, status, error = row["record"], row["status"], row["error"]
    synced, updated, evening = row["synced"], row["updated"], row["evening"]
    held = []
    evs = h.devices.game_events(*key)
    if evs:
        last = split(evs)[-1]
        drec, dstatus, _w, derror = replay_events(last)
        drec = h.players.cleaned(drec)
        if same_game(h.players.named(drec), rec):
            h.versions.put(
                key, DEVICE, drec, dstatus, derror, synced, updated, evening, last[-1][0]
            )
            held.append(h.players.named(drec))
            if held[0] == rec and dstatus == status:  # the game is the device's copy
                h.db.execute(
                    "UPDATE games SET seq = ? WHERE device_id = ? AND epoch = ? AND gid = ?",
                    (last[-1][0],) + key,
                )
    # batch i left what batch i+1 found before it (the last one: the game as it is)
    afters = [b for _, b in batches[1:]] + [
        {"record": rec, "status": status, "error": error, "updated": updated}
    ]
    for (batch, before), after in zip(batches, afters):
        if before is not None and not held and before["record"] != rec:
            _held(h, key, HISTORY, before, synced, evening)
            held.append(before["record"])
        _held(h, key, imported(batch), after, synced, evening)
        held.append(after["record"])
    if rec not in held:
        h.versions.put(key, held_as, rec, status, error, synced, updated, evening, given=False)


def _held(
    h: History, key: tuple[str, int, int], source: str, row: Any, synced: str, evening: str | None
) -> None:
    """A copy of the game under key as a row of schema 3 held it (imported's "before")."""
    h.versions.put(
        key,
        source,
        row["record"],
        row["status"],
        row["error"],
        synced,
        row["updated"],
        evening,
        given=False,
    )


def _names(h: History) -> None:
    """Table names, from the events, the games and the aliases' old names; a name that is only
    an alias's new name is none of them."""
    db = h.db
    names = {n for (n,) in db.execute("SELECT name FROM aliases")}
    targets = {n for (n,) in db.execute("SELECT player FROM aliases")}
    for (players,) in db.execute("SELECT DISTINCT players FROM games"):
        names.update(n for n in json.loads(players) if n not in targets)
    for (body,) in db.execute('SELECT body FROM events WHERE body LIKE \'%"t": "game"%\''):
        rec = json.loads(body).get("rec")
        if isinstance(rec, dict):
            h.players.seen(h.players.cleaned(rec).get("players"))
    h.players.seen(sorted(n for n in names if isinstance(n, str)))
