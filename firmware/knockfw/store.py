# The device's games, kept as events in the journal (knockfw.journal) and rebuilt at boot.
#
# Events (the JSON objects of the journal's records):
#   {"t":"epoch","e":E,"dev":ID,"next":G}   record 1 of every journal: epoch E of device ID,
#                                           gids of this epoch start at G (>= every older gid)
#   {"t":"game","g":gid,"rec":REC}          new game; REC = game record without "hands"
#   {"t":"hand","g":gid,"h":HAND}           a confirmed hand (DESIGN.md section 4)
#   {"t":"undo","g":gid}                    drop that game's last hand
#   {"t":"edit","g":gid,"i":i,"h":HAND}     replace hand i (0-based)
#   {"t":"end","g":gid}                     game closed without finishing; refuses further input
#
# Every change is applied to the in-memory game first (the rules core validates it); only a valid
# change is journaled, so refused input never reaches flash. When the journal write itself fails
# (flash full, I/O error) the store reloads from the journal, so RAM never disagrees with flash.
#
# /data/meta.json = {"device_id": hex, "epoch": E, "next_gid": G}, written temp-then-rename.
# device_id is made once from os.urandom; erase() increments the epoch and starts a new journal
# whose record 1 repeats the meta. An erase counts once meta.json is written: if power is cut
# before the new journal is in place, load() finishes the erase. A lost meta.json is rebuilt
# from the journal's first record.
import binascii
import os

from knockfw.journal import load_json, save_json

META = "/data/meta.json"
KEEP = 2  # games kept in RAM: the one on the table and the one before it


class StoreError(ValueError):
    pass


def _int(v, default):
    return v if type(v) is int and v >= 0 else default


class Store:
    def __init__(self, journal, core_factory, meta_path=META, keep=KEEP):
        self.journal = journal
        self.keep = keep
        self._new = core_factory    # rec -> game with add(h), undo() -> hand|None, replace(i, h)
        self._meta_path = meta_path
        self.device_id = None
        self.epoch = 0
        self.note = ""              # what boot repaired or skipped, for the UI ("" if nothing)
        self._games = {}
        self._ended = set()
        self._old = []              # gids of older games, kept on flash only (see _retire)
        self._next = 1

    # --- boot

    def load(self):
        """Open the journal and rebuild every game from it (the only full read of the journal)."""
        j = self.journal.open()
        notes = [j.note] if j.note else []
        self._games, self._ended, self._old = {}, set(), []
        head = self.events(0, 1)
        head = head[0][1] if head else None
        if not isinstance(head, dict) or head.get("t") != "epoch":
            head = None
        meta = load_json(self._meta_path, None)
        if not isinstance(meta, dict):
            meta = {}
        hd = head or {}
        dev = meta.get("device_id")
        if not isinstance(dev, str) or not dev:
            dev = hd.get("dev")
            if not isinstance(dev, str) or not dev:
                dev = binascii.hexlify(os.urandom(8)).decode()
        self.device_id = dev
        self.epoch = max(_int(meta.get("epoch"), 0), _int(hd.get("e"), 0))
        self._next = max(_int(meta.get("next_gid"), 1), _int(hd.get("next"), 1))
        if meta.get("device_id") != dev or meta.get("epoch") != self.epoch or \
                meta.get("next_gid") != self._next:
            self._save_meta()
        if j.last_seq == 0:
            j.reset(self._head())
        elif head is not None and _int(head.get("e"), 0) < self.epoch:
            j.reset(self._head())     # erase() was cut after meta.json, before the new journal
            notes.append("finished an interrupted erase")
        bad = self._replay()
        if bad:
            notes.append(bad)
        if self._next != _int(meta.get("next_gid"), 1):
            self._save_meta()   # gids seen in the journal: never hand them out again
        self.note = "; ".join(notes)
        return self

    def _replay(self):
        skipped, first = 0, ""
        for seq, ev in self.journal.records():
            try:
                self._apply(ev)
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                skipped += 1
                if not first:
                    first = "record %d: %s" % (seq, e)
        if skipped:
            return "skipped %d journal records (%s)" % (skipped, first)
        return ""

    def _apply(self, ev):
        t = ev["t"]
        if t == "epoch":
            return
        g = ev["g"]
        if t == "game":
            if g in self._games:
                raise StoreError("game %d twice" % g)
            self._games[g] = self._new(ev["rec"])
            self._retire()
            if g >= self._next:
                self._next = g + 1
        elif t == "hand":
            self._games[g].add(ev["h"])
        elif t == "undo":
            self._games[g].undo()
        elif t == "edit":
            self._games[g].replace(ev["i"], ev["h"])
        elif t == "end":
            self._ended.add(g)
        else:
            raise StoreError("unknown event %r" % (t,))

    def _head(self):
        return {"t": "epoch", "e": self.epoch, "dev": self.device_id, "next": self._next}

    def _save_meta(self):
        save_json(self._meta_path, {"device_id": self.device_id, "epoch": self.epoch,
                                    "next_gid": self._next})

    def _commit(self, ev):
        try:
            self.journal.append(ev)
        except Exception:
            self.load()     # RAM may hold a change flash does not: rebuild from flash
            raise

    # --- changes (each validated by the core before anything is written)

    def new_game(self, rec):
        """Start a game from a game record without hands; returns its gid."""
        if not isinstance(rec, dict):
            raise StoreError("new game: need a game record")
        if rec.get("hands"):
            raise StoreError("new game: a new game has no hands")
        rec = dict(rec)
        rec.pop("hands", None)
        game = self._new(rec)
        gid = self._next
        self._commit({"t": "game", "g": gid, "rec": rec})
        self._games[gid] = game
        self._retire()
        self._next = gid + 1
        # A game number is never given twice in an epoch, even if damage later costs the journal
        # its tail: the laptop may already hold that game under this number.
        self._save_meta()
        return gid

    def add_hand(self, gid, hand):
        """Record a hand; once this returns, the hand is on flash."""
        self._live(gid).add(hand)
        self._commit({"t": "hand", "g": gid, "h": hand})

    def undo(self, gid):
        if self._live(gid).undo() is None:
            raise StoreError("nothing to undo")
        self._commit({"t": "undo", "g": gid})

    def edit(self, gid, i, hand):
        self._live(gid).replace(i, hand)
        self._commit({"t": "edit", "g": gid, "i": i, "h": hand})

    def end(self, gid):
        """Close a game without finishing it (abandoned); it takes no more input."""
        self._live(gid)
        self._commit({"t": "end", "g": gid})
        self._ended.add(gid)

    def erase(self):
        """Forget every game: new epoch, new empty journal; device_id and gid numbering go on."""
        self.epoch += 1
        try:
            self._save_meta()
            self.journal.reset(self._head())
        except Exception:
            self.load()
            raise
        self._games, self._ended, self._old = {}, set(), []
        self.note = ""

    def _retire(self):
        # Only the newest KEEP games stay in RAM as rules-core games: a season of games on a
        # 192 KB heap would not fit otherwise. Older ones live on in the journal (the host syncs
        # them from there) and are listed by gids(); game(gid) is None for them.
        while len(self._games) > self.keep:
            gid = min(self._games)
            del self._games[gid]
            self._ended.discard(gid)
            self._old.append(gid)

    def _live(self, gid):
        g = self._games.get(gid)
        if g is None:
            raise StoreError("no game %r" % (gid,))
        if gid in self._ended:
            raise StoreError("game %d is closed" % gid)
        return g

    # --- reading

    def game(self, gid):
        return self._games.get(gid)

    def ended(self, gid):
        return gid in self._ended

    def gids(self):
        return self._old + sorted(self._games)

    def current(self):
        """The latest game's gid, or None when there is none or it was closed by end()."""
        if not self._games:
            return None
        gid = max(self._games)
        return None if gid in self._ended else gid

    @property
    def last_seq(self):
        return self.journal.last_seq

    def events(self, after_seq=0, limit=100):
        """Up to `limit` journal events with seq > after_seq, as a list of (seq, event)."""
        out: list = []
        if limit < 1:
            return out
        it = self.journal.records(after_seq)
        try:
            for r in it:
                out.append(r)
                if len(out) >= limit:
                    break
        finally:
            it.close()      # closes the file now (MicroPython does not finalise generators)
        return out
