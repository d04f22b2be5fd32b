"""A device's journal that a test plays on between syncs (new games, hands, undo, edit, end, a new
evening, records lost), served to `knockbox sync` on a pseudo-terminal (kit.ptydevice) and synced
through the command line in this process (kit.clirun): the path a user takes, at a few
milliseconds a sync. The device's games as it holds them now are kept beside the journal
(`games`), replayed by the rules core's own events (knockcore.events), for the tests to compare
with the history."""

import json

from kit.clirun import knockbox
from kit.gamegen import random_hand, random_start
from kit.ptydevice import DEV, HELLO, FakeDevice, good_device
from knockcore import events
from knockcore.game import Game

QUICK = {"preset": "seed", "target": 40, "m3_target": 80}  # games over in a few hands
_FIRST_START = {1: {"idle": 2, "dealer": 1}, 2: {"box": 0, "captain": 1}, 3: {"dealer": 0}}


class Journal:
    def __init__(self, dev=DEV):
        self.dev = dev
        self.evs = [{"t": "epoch", "e": 0, "dev": dev, "next": 1}]
        self.next = 1  # the device's next game number

    # ---- what the device records

    def new_game(self, players, method=3, start=None, rules=None, rnd=None, gid=None):
        """A new game (number gid, else the next one); returns its number."""
        if start is None:
            start = random_start(method, rnd) if rnd else _FIRST_START[method]
        g = Game(method, list(players), start, dict(rules or QUICK))
        rec = g.record()
        rec.pop("hands")
        rec.pop("format", None)
        if gid is None:
            gid, self.next = self.next, self.next + 1
        self.evs.append({"t": "game", "g": gid, "rec": rec})
        return gid

    def record(self, rec, gid=None):
        """A whole game record played on the device (its start, then each hand)."""
        start = {k: rec[k] for k in rec if k not in ("hands", "format", "meta")}
        if gid is None:
            gid, self.next = self.next, self.next + 1
        self.evs.append({"t": "game", "g": gid, "rec": start})
        for h in rec["hands"]:
            self.evs.append({"t": "hand", "g": gid, "h": h})
        return gid

    def hand(self, gid, h=None, rnd=None):
        """A hand of game gid (h, else a random one); False if the game takes no more."""
        g = self.games().get(gid)
        if g is None or g.over or g.closed:
            return False
        self.evs.append({"t": "hand", "g": gid, "h": h or random_hand(g, rnd)})
        return True

    def undo(self, gid):
        g = self.games().get(gid)
        if g is None or g.closed or not g.hands:
            return False
        self.evs.append({"t": "undo", "g": gid})
        return True

    def edit(self, gid, i, h):
        self.evs.append({"t": "edit", "g": gid, "i": i, "h": h})

    def end(self, gid):
        self.evs.append({"t": "end", "g": gid})

    def evening(self):
        self.evs.append(events.evening(self.next))

    def lose(self, n):
        """The journal loses its last n records (a repaired flash), never its first."""
        del self.evs[max(1, len(self.evs) - n) :]

    # ---- what it holds

    def games(self):
        """{gid: Game} as the device holds them now (the last game under each number)."""
        out = {}
        for ev in self.evs:
            g = events.game_of(ev)
            if g is None:
                continue
            if ev["t"] == "game":
                out[g] = None
            out[g] = events.apply(out[g], ev)
        return out

    def sync(self, db, *extra):
        """`knockbox sync` of this journal into the history db: (exit code, stdout, stderr)."""
        with FakeDevice(good_device(self.evs, hello=dict(HELLO, device=self.dev))) as d:
            return knockbox("sync", "--port", d.path, "--db", db, "--timeout", "5", *extra)


def export(db):
    """`knockbox export --json` of db, as a list."""
    code, out, err = knockbox("export", "--json", "--db", db)
    assert code == 0, err
    return json.loads(out)
