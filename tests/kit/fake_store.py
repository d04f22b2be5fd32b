"""A stand-in for the reading side of the device's store (knockfw.store.Store) on CPython, over a
list of journal events: what the Evening screen (knockfw.ui_evening) reads. Like the store it
keeps only the newest `keep` games in RAM (game(gid) is None for older ones), and its evening is
the newest {"t":"evening"} record's. The evening's games are the store's own code
(Store.evening_games, which replays the older ones from the journal, here the list): the board's
journal scan is native code, which CPython cannot run, so the rest is stood in for."""

from knockcore import events
from knockfw.store import Store


class FakeStore:
    def __init__(self, evs, keep=2):
        self.evs = list(evs)  # the journal: record 1 first
        self.journal = self
        self.keep = keep
        self.reads = 0  # records read through records()
        self.refresh()

    def refresh(self):
        games = {}
        self.evening_gid = self.evening_seq = 0
        for seq, ev in enumerate(self.evs, 1):
            g = events.game_of(ev)
            if g is not None:
                games[g] = events.apply(games.get(g), ev)
            elif events.evening_next(ev) is not None:
                self.evening_gid, self.evening_seq = ev["next"], seq
        self._gids = sorted(games)
        self._games = {g: games[g] for g in self._gids[-self.keep :]}

    def append(self, ev):
        self.evs.append(ev)
        self.refresh()

    # the store's reading side
    evening_games = Store.evening_games

    def gids(self):
        return list(self._gids)

    def game(self, gid):
        return self._games.get(gid)

    def current(self):
        if not self._games:
            return None
        g = max(self._games)
        return None if self._games[g].closed else g

    def new_evening(self):
        nxt = (max(self._gids) + 1) if self._gids else 1
        self.append(events.evening(nxt))

    # the journal's
    def records(self, after=0):
        for i in range(after, len(self.evs)):
            self.reads += 1
            yield i + 1, self.evs[i]
