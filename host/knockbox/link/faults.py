"""The device's fault records on the laptop. When the firmware stops on an error (knockfw.fault)
it appends a record to its /data/faults.txt: a line "@<ms since that boot>", then the traceback
(type, message, the functions it went through). `knockbox sync` reads them (the connection's
faults(), the protocol's op "faults"), keeps them in the history (table faults, below), prints
each new one once, then has the device clear them (faults(clear=the size it read); the device
keeps the file if a fault came in between, and the next sync sees the old ones again: known,
not printed).

A record still on the device that the history holds uncleared is one already printed; a record
like an older one that was cleared (the same crash again, as deterministic code makes it) is new.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from knockbox.link import serialio
from knockbox.textsafe import visible

if TYPE_CHECKING:
    from knockbox.history import History
    from knockbox.link.serialio import Connection

TABLE = """CREATE TABLE IF NOT EXISTS faults (
    device_id TEXT NOT NULL, seen TEXT NOT NULL, record TEXT NOT NULL,
    cleared INTEGER NOT NULL DEFAULT 0)"""


def parse(text: str) -> list[str]:
    """The records in a faults.txt: each from its "@" line to the next ("@" included; anything
    before the first, a record cut by the device's trimming, is left out)."""
    out = []
    for line in text.splitlines():
        if line.startswith("@"):
            out.append([line])
        elif out:
            out[-1].append(line)
    return ["\n".join(r) for r in out]


def describe(record: str) -> str:
    """One record in two lines: when and what, then where (innermost call first)."""
    lines = record.splitlines()
    try:
        when = "%.1f s after the device started" % (int(lines[0][1:]) / 1000)
    except ValueError:
        when = "time unknown"
    what = lines[-1].strip() if len(lines) > 1 else "no details"
    where = []
    for ln in lines[1:-1]:
        ln = ln.strip()
        if ln.startswith('File "'):
            name = ln[6 : ln.index('"', 6)] if '"' in ln[6:] else "?"
            func = ln.rsplit(" in ", 1)[-1] if " in " in ln else "?"
            where.append("%s %s" % (name, func))
    # the device's text, which the terminal must not obey, on its two lines
    out = "device fault (%s): %s" % (when, visible(what))
    if where:
        out += "\n  in " + visible(" < ".join(reversed(where)))
    return out


def pull(conn: Connection, hist: History, device: str, when: str) -> list[Any]:
    """Read the device's fault records, keep the new ones in the history, clear them on the
    device. Returns the new ones (texts). A firmware without the op: []."""
    try:
        r = conn.faults()
    except serialio.DeviceError:
        return []
    text, size = r.get("faults"), r.get("size")
    if not isinstance(text, str) or type(size) is not int or size < 0:
        raise serialio.LinkError("the device sent a malformed faults reply")
    records = parse(text)
    with hist.transaction():
        db = hist.db
        db.execute(TABLE)
        known = {
            row[0]
            for row in db.execute(
                "SELECT record FROM faults WHERE device_id = ? AND cleared = 0", (device,)
            )
        }
        new = [x for x in records if x not in known]
        db.executemany(
            "INSERT INTO faults (device_id, seen, record) VALUES (?, ?, ?)",
            [(device, when, x) for x in new],
        )
    if size:
        r = conn.faults(clear=size)
        if r.get("size") == 0:
            with hist.transaction():
                hist.db.execute("UPDATE faults SET cleared = 1 WHERE device_id = ?", (device,))
    return new
