"""One game record read for `knockbox import` (knockbox.history.importing stores it): its meta
checked and its names, status, dates, evening and device key worked out, the record itself
checked by the rules core (knockbox.derived). What a record may carry is in importing's header.
"""

from __future__ import annotations

import datetime
from typing import Any, TYPE_CHECKING

from knockbox import derived
from knockbox import players as P
from knockbox.bounds import DEVICE_ID_MAX, ERROR_MAX, HANDS_MAX, LABEL_MAX, short_text
from knockbox.history import MAX_INT, STATUSES
from knockbox.history.rows import IMPORT_DEVICE

if TYPE_CHECKING:
    from knockbox.records import Record


def when(v: object, what: str) -> str:
    """A meta date/time as the history keeps it ("YYYY-MM-DD HH:MM:SS"), or ValueError."""
    if not isinstance(v, str):
        raise ValueError("%s %s is not a date like 2025-01-31 or 2025-01-31 20:15" % (what, _r(v)))
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.datetime.strptime(v, fmt).strftime("%Y-%m-%d %H:%M:%S")
        except ValueError:
            pass
    raise ValueError("%s %s is not a date like 2025-01-31 or 2025-01-31 20:15" % (what, _r(v)))


def _r(v: object) -> str:
    """A value as a message shows it: its repr, cut short."""
    return P.shown(repr(v))


class ImportedGame:
    """One record made ready to store: rec (without meta), status, error, synced, updated,
    evening (key or None), key ((device, epoch, gid) or None), apart (replaced: off any key)."""

    derived: derived.Derived | None = None  # (None: a game its history had refused)

    def __init__(self, obj: Any, today: str) -> None:
        if not isinstance(obj, dict):
            raise ValueError("not a game record (a JSON object)")
        meta = obj.get("meta", {})
        if not isinstance(meta, dict):
            raise ValueError("meta must be an object")
        self.rec = {k: obj[k] for k in obj if k != "meta"}
        hands = self.rec.get("hands")
        if isinstance(hands, list) and len(hands) > HANDS_MAX:
            raise ValueError("%d hands: a game has at most %d" % (len(hands), HANDS_MAX))
        self.key: tuple[str, int, int | None] | None = _key(meta)
        self.gid: int | None = None
        if self.key is not None and self.key[0] == IMPORT_DEVICE:  # typed in, on another laptop
            self.key, self.gid = None, self.key[2]  # type: ignore[index]  # (not None: just tested)
        names = self.rec.get("players")
        if (
            isinstance(names, list)
            and all(isinstance(n, str) for n in names)
            and (self.key is not None or meta.get("status") == "invalid")
        ):
            # a device's game: its names as sync stores them (an older export may hold names
            # the device cannot draw, or empty, or too long), so that every export imports back
            self.rec["players"] = P.from_device(names)
        elif isinstance(names, list):
            self.rec["players"] = [P.check(n, "player") if isinstance(n, str) else n for n in names]
        self.synced = when(meta["synced"], "meta.synced") if "synced" in meta else today
        self.dated = "synced" in meta  # (when it was played, as the record says)
        self.updated = when(meta["updated"], "meta.updated") if "updated" in meta else self.synced
        self.apart = meta.get("replaced") is True
        self.seq = meta.get("seq")
        if self.seq is not None and not (type(self.seq) is int and 0 <= self.seq <= MAX_INT):
            raise ValueError("meta.seq %s is not a record number" % _r(self.seq))
        label = meta.get("evening")
        if label is not None and (
            type(label) not in (str, int) or label == "" or len(str(label)) > LABEL_MAX
        ):
            raise ValueError(
                "meta.evening %s is not a label (a name or a number of at most %d characters)"
                % (_r(label), LABEL_MAX)
            )
        self.evening = (
            None if self.apart else (str(label) if label is not None else self.synced[:10])
        )
        status = meta.get("status")
        if status is not None and status not in STATUSES:
            raise ValueError("meta.status %s is not one of %s" % (_r(status), ", ".join(STATUSES)))
        self.error = None
        if status == "invalid":
            self._refused(meta)
            return
        self.derived = derived.derive(self.rec)  # GameError: the rules core refuses it
        self.rec = self.derived.record
        over = self.derived.standings["over"]
        self.status = "over" if over else ("abandoned" if status == "abandoned" else "playing")

    def _refused(self, meta: Record) -> None:
        """A game the history that exported it had refused (status "invalid"): kept as it was,
        with its error, so that export -> import loses nothing; it counts nowhere."""
        rec = self.rec
        if not (
            type(rec.get("method")) is int
            and 0 <= rec["method"] <= MAX_INT
            and isinstance(rec.get("players"), list)
            and all(isinstance(p, str) for p in rec["players"])
            and isinstance(meta.get("error"), str)
            and len(meta["error"]) <= ERROR_MAX
        ):
            raise ValueError(
                'a refused game (meta.status "invalid") needs its method, players and meta.error '
                "(at most %d characters)" % ERROR_MAX
            )
        self.status, self.error, self.derived = "invalid", meta["error"], None


def _key(meta: Record) -> tuple[str, int, int | None] | None:
    dev, epoch, gid = meta.get("device"), meta.get("epoch"), meta.get("gid")
    if dev is None:
        return None
    if not (
        short_text(dev, DEVICE_ID_MAX)
        and type(epoch) is int
        and 0 <= epoch <= MAX_INT
        and (gid is None or (type(gid) is int and 1 <= gid <= MAX_INT))
    ):
        raise ValueError(
            "meta.device, meta.epoch and meta.gid must be a device id (at most %d characters) "
            "and whole numbers (as `knockbox export --json` writes them)" % DEVICE_ID_MAX
        )
    return (dev, epoch, gid)
