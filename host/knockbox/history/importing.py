"""`knockbox import`'s work: game records (what `knockbox export --json` writes, or typed in from
paper score sheets) into the history, all or nothing.

A record may carry "meta": {"synced": "YYYY-MM-DD[ HH:MM[:SS]]", "evening": LABEL, and what export
writes besides: "device", "epoch", "gid", "updated", "status", "error", "replaced", "seq"}. Each
record is checked by the rules core (a refused one stops the import, naming it); what readers need
is worked out once as for a synced game (knockbox.derived).

Which game is which:
  - a record with a device key (meta device, epoch, gid) is a copy of that device's game: kept
    among the game's copies (knockbox.history.copies), and the game is the copy chosen (the
    newer one, never one that lost hands: "updated" when that changed it, "same" when not); a
    deleted game comes back; another game than the one under its key here (another start, or
    other names and another first hand) is kept apart (off the key, as a game the device
    replaced); two games of one device alike in every hand stay two;
  - a record without one (typed in, or meta device "import") belongs to the device "import"
    (epoch 0), numbered 1, 2, ... (its meta.gid when that is free); a game of the same
    meta.synced (date, or date and time) with the same record is already in the history (not
    added again; a record without meta.synced: of the same day), and games alike but for their
    dates or times are different games; one exported with its number here that went on since
    updates it; one deleted or taken out comes back under its id.
So importing the same file twice adds nothing, and two laptops' histories of one device merge.
Names: a typed-in record's as knockbox.players.check takes them (one Unicode form, trimmed, at
most the device's 24 characters, only what the device can draw; refused otherwise), a device's
record's as sync stores them (knockbox.players.from_device: never refused, so that an export
always imports back), and renamed as the history renamed them (its aliases). Each import is one
transaction and one batch, undone whole by `knockbox import --undo`. What a record may hold is
bounded (knockbox.bounds: HANDS_MAX hands; meta's device id, evening label and error cut to a
length). A file is read a record at a time (memory does not grow with its size).
Evenings: the games with the same meta.evening form one evening; without a label, the games of
one date (meta.synced, else today) do. export writes each game's evening as its label (a synced
game's: "DEVICE/EPOCH/SEQ" of the evening record), so export -> import gives the same evenings.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Any, TYPE_CHECKING, TextIO

from knockbox import derived
from knockbox import players as P
from knockbox.usererror import UserError
from knockbox.files import json_records
from knockbox.fromevents import identity, same_game
from knockbox.history import now
from knockbox.history.import_record import ImportedGame
from knockbox.history.rows import IMPORT_DEVICE as IMPORT_DEVICE  # (of games typed in)
from knockbox.history.copies import HISTORY
from knockbox.plural import count
from knockbox.progress import Progress
from knockbox.textsafe import visible
from knockcore.errors import GameError

if TYPE_CHECKING:
    from knockbox.history import History
    from knockbox.records import Record


def into(
    path: str | None, files: list[str], stdin: TextIO | None = None, err: TextIO | None = None
) -> Record:
    """run() into the history file at path (None: the default one). A history that does not
    exist yet is made whole or not at all, and never at another command's expense: the import
    goes into a new file of its own beside it (.NAME.*.new), which takes the history's name only
    once the import is committed, and only if no history appeared there meanwhile (another
    import or a sync made one: the import is then made again into that one). A failed or
    stopped import removes its own new file and nothing else."""
    from knockbox.history import History, default_path

    path = os.path.abspath(path or default_path())
    if os.path.exists(path):
        return run(History(path), files, stdin, err)
    folder, name = os.path.split(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, new = tempfile.mkstemp(dir=folder, prefix="." + name + ".", suffix=".new")
        os.close(fd)
    except OSError as e:
        raise UserError("%s: %s" % (path, e.strerror or e)) from None
    try:
        h = History(new)
        h.path = path  # (what messages name)
        try:
            counts = run(h, files, stdin, err)
        finally:
            h.close()
        if _place(new, path):
            return counts
    finally:
        for p in (new, new + "-journal"):
            with contextlib.suppress(OSError):
                os.unlink(p)
    if "-" in files:  # (standard input cannot be read again)
        raise UserError(
            "%s: another knockbox made this history while the import read standard input: "
            "nothing was imported; import again" % path
        )
    return run(History(path), files, stdin, err)


def _place(new: str, path: str) -> bool:
    """Give the file new the name path unless a file has it (then False): a hard link, which
    never replaces a file; where the file system has none, a rename after a last look."""
    try:
        os.link(new, path)
        return True
    except FileExistsError:
        return False
    except OSError:
        if os.path.exists(path):
            return False
    try:
        os.rename(new, path)  # (Windows: never replaces a file either)
    except FileExistsError:
        return False
    return True


def run(
    h: History, files: list[str], stdin: TextIO | None = None, err: TextIO | None = None
) -> Record:
    """Import the records of these files ("-": stdin) into History h in one transaction, a
    record at a time, as one batch; returns counts {"new", "updated", "same", "apart"}, "batch"
    (its number, None if it changed nothing), "twins" (knockbox.players.twins of its names),
    "changes" (a line for each game it updated: store()) and "clashes"
    (History.players.clashes()). UserError (nothing imported) at the first bad record. err:
    where progress is shown
    when it is a terminal."""
    counts: dict = {"new": 0, "updated": 0, "same": 0, "apart": 0}
    changes: list = []
    today, names, read = now(), set(), [0]
    progress, total = Progress(err, "importing"), _size(files)
    done = 0
    try:
        with h.transaction():
            h.imports.begin(files, today)
            for path in files:
                before = done
                for n, obj in json_records(path, stdin or sys.stdin, read):
                    g = _game(path, n, obj, today)
                    counts[store(h, g, changes)] += 1
                    names.update(g.rec["players"])
                    progress.show(
                        count(sum(counts.values()), "game") + _share(before + read[0], total)
                    )
                done = before + read[0]
            h.evenings.renumber()
            counts["batch"] = h.imports.end()
            counts["twins"] = P.twins(names, h.players.names())
            counts["changes"] = changes
            counts["clashes"] = h.players.clashes()
    finally:
        progress.end()  # (the line is cleared before any message)
    return counts


def _share(done: int, total: int | None) -> str:
    """ " (35%)": how far through the files' bytes (never 100% before the end); "" if unknown."""
    return " (%d%%)" % min(99, done * 100 // total) if total else ""


def _game(path: str, n: int, obj: object, today: str) -> ImportedGame:
    """ImportedGame(obj) or a UserError naming the file and the record."""
    if n == 0 and not isinstance(obj, dict):
        raise UserError("%s: neither a game record nor a list of them" % path)
    try:
        return ImportedGame(obj, today)
    except (ValueError, GameError, TypeError, KeyError) as e:
        raise UserError(
            "%s: record %d%s: %s: nothing was imported" % (path, n or 1, _who(obj), e)
        ) from None


def _who(obj: object) -> str:
    """ " (Ann, Bob, Cy)": the players of a record, for its message (a name on one line)."""
    if isinstance(obj, dict) and isinstance(obj.get("players"), list):
        return " (%s)" % ", ".join(
            P.shown(visible(p) if isinstance(p, str) else repr(p)) for p in obj["players"][:3]
        )
    return ""


def _size(files: list[str]) -> int | None:
    """The files' size in bytes, None if one is stdin or cannot be sized."""
    try:
        return sum(os.path.getsize(f) for f in files if f != "-") if "-" not in files else None
    except OSError:
        return None


def store(h: History, g: ImportedGame, changes: list[Any] | None = None) -> str:
    """Store one ImportedGame (its names as the history keeps them); returns "new", "updated", "same" or
    "apart", notes what it did in the import's batch and, when it updated a game, a line saying
    so in changes."""
    h.players.seen(g.rec.get("players"))
    rec = h.players.named(g.rec)
    if rec is not g.rec and g.status != "invalid":
        g.derived = derived.derive(rec)
    if g.key is None:
        return _typed_in(h, g, rec, changes)
    dev, epoch, gid = g.key
    if gid is not None and not g.apart:
        row = h.rows.on_key((dev, epoch, gid))
        if row is None or same_game(row["record"], rec):
            return _copy(h, g, rec, row, changes)
    # a game its device replaced, or another game than the one under its key here: off the key
    if h.rows.find(rec, (dev, epoch), apart=gid is not None and not g.apart) is not None:
        return "same"
    row_id = _add(h, g, rec, (dev, epoch, None), evening=None)
    h.imports.note(row_id, "new", (dev, epoch, -row_id))
    return "new" if g.apart or gid is None else "apart"


def _add(
    h: History,
    g: ImportedGame,
    rec: Record,
    key: tuple[str, int, int | None],
    evening: str | None,
) -> int:
    """A new games row for g (its record rec) under key (gid None: off any key); its id."""
    dev, epoch, gid = key
    return h.rows.add(
        device_id=dev,
        epoch=epoch,
        gid=gid,
        synced=g.synced,
        updated=g.updated,
        rec=rec,
        status=g.status,
        error=g.error,
        evening=evening,
        d=g.derived,
    )


def _typed_in(h: History, g: ImportedGame, rec: Record, changes: list[Any] | None) -> str:
    """A game typed in (no device): the same time (or day, undated) and the same hands is that
    game, and so is one exported with its number here that went on since; one deleted or taken
    out comes back under its id."""
    at: dict[str, Any] = {"at": g.synced} if g.dated else {"day": g.synced[:10]}
    if h.rows.find(rec, **at) is not None:
        return "same"
    # (with no gid, the key is only used behind `g.gid is not None`)
    key: tuple[str, int, int] = (IMPORT_DEVICE, 0, g.gid)  # type: ignore[assignment]
    row = h.rows.on_key(key) if g.gid is not None else None
    if row is not None and row["synced"] == g.synced and _more(row["record"], rec) is not None:
        if not _more(row["record"], rec):
            return "same"  # the history has more of it
        if not h.versions.of(key):  # the game as it was, so that an undo puts it back
            h.versions.put(
                key,
                HISTORY,
                row["record"],
                row["status"],
                row["error"],
                row["synced"],
                row["updated"],
                row["evening"],
                given=False,
            )
        return _copy(h, g, rec, row, changes, key)
    gone = h.rows.find_gone(rec, IMPORT_DEVICE, **at)
    if gone is not None:
        h.rows.put_back(dict(gone, record=rec))
        h.imports.note(gone["id"], "undeleted" if gone["why"] == "deleted" else "new", _k(gone))
        return "new"
    gid = g.gid
    if gid is None or h.rows.taken((IMPORT_DEVICE, 0, gid)):
        gid = h.rows.next_gid(IMPORT_DEVICE, 0)
    row_id = _add(h, g, rec, (IMPORT_DEVICE, 0, gid), evening=g.evening)
    h.imports.note(row_id, "new", (IMPORT_DEVICE, 0, gid))
    return "new"


def _more(have: Record, rec: Record) -> bool | None:
    """Whether rec is the game have went on since (True), have with as many hands or more
    (False), or another game (None)."""
    if identity(have) != identity(rec):
        return None
    a, b = have.get("hands") or [], rec.get("hands") or []
    if len(a) < len(b) and b[: len(a)] == a:
        return True
    return False if a[: len(b)] == b else None


def _copy(
    h: History,
    g: ImportedGame,
    rec: Record,
    row: Any,
    changes: list[Any] | None,
    key: tuple[str, int, int] | None = None,
) -> str:
    """A copy of a device's game (knockbox.history.copies), or of a game typed in that went
    on (key): kept among its copies, and the game is the copy chosen; a deleted game comes
    back."""
    key = key or g.key  # type: ignore[assignment]  # (a device game's: its gid is set)
    assert key is not None  # (a game copied has a key: its own or the one given)
    deleted = h.rows.deleted(key)
    added = not h.versions.holds(key, g.rec, g.status)
    if added:
        h.versions.put(
            key,
            h.imports.source(),
            h.players.cleaned(g.rec),
            g.status,
            g.error,
            g.synced,
            g.updated,
            g.evening,
            g.seq,
        )
    if deleted:
        h.db.execute(
            "UPDATE gone SET why = 'undone' WHERE device_id = ? AND epoch = ? AND gid = ?", key
        )
    h.versions.settle(key, rec, g.derived)
    now = h.rows.on_key(key)
    assert now is not None  # (just stored)
    if added:
        h.imports.note(now["id"], "version", key)
    if deleted:
        h.imports.note(now["id"], "undeleted", key)
    if row is None or deleted:
        return "new"
    if (now["record"], now["status"]) == (row["record"], row["status"]):
        return "same"
    if changes is not None:
        changes.append(
            "game %d (%s) updated to a newer copy: %s, %s (it had %s, %s)"
            % (
                now["id"],
                "typed in" if key[0] == IMPORT_DEVICE else "device %s game %d" % (key[0], key[2]),
                count(len(now["record"].get("hands") or []), "hand"),
                now["status"],
                count(len(row["record"].get("hands") or []), "hand"),
                row["status"],
            )
        )
    return "updated"


def _k(g: Record) -> tuple[str, int, int]:
    return (g["device_id"], g["epoch"], g["gid"])
