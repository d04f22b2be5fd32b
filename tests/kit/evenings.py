"""Histories with evenings for the tests: a device journal built from the worked examples of
tests/vectors/games.json with {"t":"evening","next":G} events between games (as the device will
write them), synced in-process through a stand-in link (knockbox.link.sync with a fake connection)."""

import io
import json
import os

from knockbox import history
from knockbox.link import sync
from knockcore import events

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(TESTS, "vectors", "games.json"), encoding="utf-8") as _f:
    VECTORS = {v["name"]: v for v in json.load(_f)}
M1, M2, M3 = (
    "m1 worked example (RULES 5)",
    "m2 worked example (RULES 5)",
    "m3 worked example (RULES 5)",
)
EVENING = "new evening"  # in a plan: the player starts a new evening here
UNFINISHED = "m3 double ties"
DEV = "0123456789abcdef"


def game(name, players=None):
    """A vector's game record, with other players' names if given."""
    rec = dict(VECTORS[name]["game"])
    if players:
        rec["players"] = list(players)
    return rec


def journal(plan, first_gid=1):
    """Journal events for a plan: game records (or vector names) and EVENING markers."""
    evs = [{"t": "epoch", "e": 0, "dev": DEV, "next": first_gid}]
    gid = first_gid
    for item in plan:
        if item == EVENING:
            evs.append(events.evening(gid))
            continue
        rec = game(item) if isinstance(item, str) else item
        evs.append({"t": "game", "g": gid, "rec": {k: rec[k] for k in rec if k != "hands"}})
        evs += [{"t": "hand", "g": gid, "h": h} for h in rec["hands"]]
        gid += 1
    return evs


class Link:
    """Stands in for serialio.Connection: serves a journal in pages of 7 events."""

    def __init__(self, evs, epoch=0, dev=DEV):
        self.evs, self.epoch, self.dev = evs, epoch, dev

    def hello(self):
        return {
            "ok": True,
            "device": self.dev,
            "epoch": self.epoch,
            "last_seq": len(self.evs),
            "format": "knockbox-game/1",
            "board": "test",
            "fw": "0",
        }

    def events(self, after=0, limit=None):
        page = [[i + 1, self.evs[i]] for i in range(after, min(after + 7, len(self.evs)))]
        return {"ok": True, "epoch": self.epoch, "last_seq": len(self.evs), "ev": page}


def write_names(path, names):
    """Put names {old: new} into the history file at path by hand, under every rule of
    knockbox.players (as a history from elsewhere, or an older knockbox's, may hold them)."""
    import sqlite3

    con = sqlite3.connect(path)
    with con:
        for old, new in names.items():
            a, b = json.dumps(old), json.dumps(new, ensure_ascii=False)
            con.execute(
                "UPDATE games SET players = replace(players, ?, ?), record = replace(record, ?, ?)",
                (a, b, a, b),
            )
            con.execute("UPDATE seats SET player = ? WHERE player = ?", (new, old))
    con.close()


def sync_into(path, evs, epoch=0, dev=DEV):
    """Sync a journal into the history at path; returns the Sync."""
    return sync.Sync(Link(evs, epoch, dev), history.History(path), io.StringIO()).run()


# The report's evening (tests/test_report.py, tools/report_shot.py): evening 1 has one game of each
# method among four players and one game still being played; evening 2 one game.
REPORT_PLAN = [
    game(M1, ["Ann", "Bob", "Cy"]),
    game(M3, ["Bob", "Cy", "Dee"]),
    game(M2, ["Dee", "Ann", "Bob"]),
    game(UNFINISHED, ["Ann", "Cy", "Dee"]),
    EVENING,
    game("m1 ends on an undercut, custom bonus", ["Аня", "Борис", "Ёжик"]),
]
