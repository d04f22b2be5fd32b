"""The copies of each device game the history has had, and the one it counts (table versions).

A device's game (key: device id, epoch, game number) can reach a history more than once: from the
device's own journal (a sync: source "device", its events replayed), as what the history held when
the device came back with less ("kept"), and as the copies other laptops made (an import of their
export: "import N", one per import batch; "history": held by an older knockbox). The games row
is the copy chosen by choose(), from the copies alone, whatever order they came in:
  - a copy the device's journal went through (its hands and end as they were after one of the
    device's events), or the device's copy as it was before its journal came back changed
    ("kept"), is older than the device's: the device's wins (an undo or an edit made on the
    device after another laptop synced; a journal that went on another way);
  - else a copy whose hands are the first hands of another copy never wins over it: a device
    that lost hands (a repaired journal) or a laptop that synced earlier never makes the history
    lose hands;
  - else the newest wins: the one made from the later record of the device's journal (seq), else
    (a copy that does not say) the one a laptop saw change last (updated), then the one with more
    hands, the device's own, the record.
So two laptops that import each other's export hold the same game, the newest version of the
device's record. An import undone takes its copies away and the game is what the others say (the
device's, as a later sync has it); a deleted game keeps its copies, so that `delete --undo`, or an
import of it, brings it back as the device has it now. History.versions; the device mirror and the
imports put copies, settle() stores the one chosen through rows.
"""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING

from knockbox.bounds import GAME_EVENTS_MAX
from knockbox.fromevents import split, state, states
from knockbox.history.schema import named

if TYPE_CHECKING:
    from collections.abc import Callable
    from knockbox.derived import Derived
    from knockbox.history import Patient
    from knockbox.history.evening_numbers import Evenings
    from knockbox.history.players import Players
    from knockbox.history.rows import GameRows
    from knockbox.records import Record

DEVICE, KEPT, HISTORY = "device", "kept", "history"
_KEY = "device_id = ? AND epoch = ? AND gid = ?"


def imported(batch: int) -> str:
    """The source of the copies import batch `batch` brought."""
    return "import %d" % batch


class Versions:
    """The copies of device games over the history's connection db; the chosen one is stored
    through rows, in its evening by evenings, named as the history keeps names by players."""

    def __init__(self, db: Patient, rows: GameRows, evenings: Evenings, players: Players) -> None:
        self.db = db
        self.rows, self.evenings, self.players = rows, evenings, players

    def of(self, key: tuple[str, int, int]) -> list[Any]:
        """[{source, record, status, error, synced, updated, evening, seq}] of the game under
        key (its names as the history keeps them: a rename renames them too)."""
        out = []
        for r in named(
            self.db.execute(
                "SELECT source, record, status, error, synced, updated, evening, seq FROM "
                "versions WHERE %s ORDER BY source" % _KEY,
                key,
            )
        ):
            out.append(dict(r, record=json.loads(r["record"])))
        return out

    def get(self, key: tuple[str, int, int], source: str) -> dict[str, Any] | None:
        for v in self.of(key):
            if v["source"] == source:
                return v
        return None

    def put(
        self,
        key: tuple[str, int, int],
        source: str,
        rec: dict[str, Any],
        status: str,
        error: str | None,
        synced: str,
        updated: str,
        evening: str | None,
        seq: int | None = None,
        given: bool = True,
    ) -> None:
        """Keep a copy of the game under key (in place of the source's copy before; an import's
        second copy of one game: the one chosen of the two), named as the history keeps names
        (given: its names are as a device or an import gave them: Players.seen); seq: the
        number of the device's journal record it was last changed by, when known."""
        if given:
            self.players.seen(rec.get("players"))
        rec = self.players.named(rec)
        if source.startswith("import "):
            had = self.get(key, source)
            if had is not None:
                new: dict[str, Any] = dict(source=source, record=rec, status=status, error=error)
                new.update(synced=synced, updated=updated, evening=evening, seq=seq)
                if choose([had, new], set) is had:
                    return
        self.db.execute(
            "INSERT OR REPLACE INTO versions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            tuple(key) + (source, _text(rec), status, error, synced, updated, evening, seq),
        )

    def drop(self, key: tuple[str, int, int], source: str | None = None) -> None:
        """Forget the source's copy of the game under key (every copy when None)."""
        if source is None:
            self.db.execute("DELETE FROM versions WHERE " + _KEY, key)
        else:
            self.db.execute(
                "DELETE FROM versions WHERE %s AND source = ?" % _KEY, tuple(key) + (source,)
            )

    def holds(self, key: tuple[str, int, int], rec: Record, status: str) -> bool:
        """Whether a copy of the game under key is rec with this status."""
        text = _text(self.players.named(rec))
        return any(_text(v["record"]) == text and v["status"] == status for v in self.of(key))

    def settle(
        self, key: tuple[str, int, int], made: Record | None = None, d: Derived | None = None
    ) -> Any:
        """Make the game under key the copy chosen (choose()): (what, the copy) with what "new",
        "updated", "same", "gone" (no copy left: the game taken out, its id kept for the key),
        "deleted" (deleted here: left out) or None (no copy, no game). made, d: a record and
        knockbox.derived.derive of it, when already made (an import's)."""
        if self.rows.deleted(key):
            return "deleted", None
        vs = self.of(key)
        row = self.rows.on_key(key)
        if not vs:
            if row is None:
                return None, None
            self.rows.remove(row["id"], "undone")
            return "gone", None
        best = choose(vs, lambda: self.device_states(key))
        synced = min(v["synced"] for v in vs)
        # when this version was first seen changed: of the copies that are it, the earliest
        same = [v for v in vs if (v["record"], v["status"]) == (best["record"], best["status"])]
        updated = min(v["updated"] for v in same)
        seqs = [v["seq"] for v in same if v["seq"] is not None]
        seq = max(seqs) if seqs else None
        evening = best["evening"]
        dev = next((v for v in vs if v["source"] == DEVICE), None)
        if dev is not None or evening is None:
            evening = self.evenings.of_device_game(*key)
        rec = best["record"]
        if dev is not None and rec.get("players") != dev["record"].get("players"):
            # the names as the device gave them (renamed here): another laptop's may differ
            rec = dict(rec, players=dev["record"]["players"])
        d = d if d is not None and made == rec else None
        if row is None:
            self.rows.add(
                device_id=key[0],
                epoch=key[1],
                gid=key[2],
                synced=synced,
                updated=updated,
                rec=rec,
                status=best["status"],
                error=best["error"],
                evening=evening,
                row_id=self.rows.reserved(key),
                seq=seq,
                d=d,
            )
            return "new", best
        self.evenings.set(row["id"], evening)
        now = dict(
            rec=rec,
            status=best["status"],
            error=best["error"],
            synced=synced,
            updated=updated,
            seq=seq,
        )
        if all(row["record" if k == "rec" else k] == v for k, v in now.items()):
            return "same", best
        self.rows.set_record(row["id"], d=d, **now)
        return "updated", best

    def device_states(self, key: tuple[str, int, int]) -> set[tuple[str, str]]:
        """Where the device's copy of the game under key has been (fromevents.states of the
        game its events end with)."""
        evs = [
            (seq, json.loads(body))
            for seq, body in self.db.execute(
                "SELECT seq, body FROM events WHERE %s ORDER BY seq LIMIT ?" % _KEY,
                tuple(key) + (GAME_EVENTS_MAX + 1,),
            )
        ]
        return states(split(evs)[-1]) if evs else set()


def choose(vs: list[dict[str, Any]], device_states: Callable) -> dict[str, Any]:
    """The copy that counts among vs (of(); see the module's doc); device_states(): where the
    device's copy has been (asked only when needed)."""
    dev = next((v for v in vs if v["source"] == DEVICE), None)
    seen: list[set] = []

    def device_had(v: Record) -> bool:
        if not seen:
            seen.append(device_states())
        return state(v["record"].get("hands") or [], v["status"]) in seen[0]

    def beaten(v: Record) -> bool:
        for w in vs:
            if w is v:
                continue
            if w is dev and (device_had(v) or (v["source"] == KEPT and not less(w, v))):
                return True  # (what the device had: a kept copy is one too)
            if v is dev and device_had(w):
                continue
            if less(v, w):
                return True
        return False

    left = [v for v in vs if not beaten(v)] or vs
    by_seq = all(v["seq"] is not None for v in left)
    return max(left, key=lambda v: (v["seq"] if by_seq else 0,) + _rank(v))


def less(v: Record, w: Record) -> bool:
    """Whether copy v has less of the game than copy w: its hands are w's first hands and no
    more, or the same hands while w was ended and v not."""
    a, b = v["record"].get("hands") or [], w["record"].get("hands") or []
    if len(a) < len(b):
        return b[: len(a)] == a
    return a == b and v["status"] == "playing" and w["status"] in ("abandoned", "over")


def _rank(v: dict[str, Any]) -> tuple[str, int, bool, str]:
    hands = v["record"].get("hands") or []
    return (v["updated"], len(hands), v["source"] == DEVICE, _text(v["record"]))


def _text(rec: dict[str, Any]) -> str:
    return json.dumps(rec, ensure_ascii=False, sort_keys=True)
