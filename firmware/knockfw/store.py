# The device's games, kept as events in the journal (knockfw.journal) and rebuilt at boot.
#
# Events (the JSON objects of the journal's records): the game events of knockcore.events
# (game, hand, undo, edit, end; applied with events.apply, exactly as the laptop replays them),
# and two of the store's own, which belong to no game (no "g"):
#   {"t":"epoch","e":E,"dev":ID,"next":G}   record 1 of every journal: epoch E of device ID; gids
#                                           of this epoch start at G (>= every older gid)
#   {"t":"evening","next":G}                the player started a new evening: its games are
#                                           those from gid G on (knockcore.events makes and
#                                           reads it, here and on the laptop); the games before
#                                           the first one are one evening
#
# Every change is applied to the in-memory game first (the rules core validates it); only a valid
# change is journaled, so refused input never reaches flash. When the journal write itself fails
# (flash full, I/O error) the store reloads from the journal, so RAM never disagrees with flash.
#
# The boot checkpoint, /data/snap.json (only a speed-up: the journal stays the truth):
#   <crc> [1, E, ID, S, END, CRC, [[gid, SNAPSHOT], ...]]      (1: this format)
# <crc>: the CRC-32 of the JSON after it (littlefs checks no file's data); the games in RAM as
# knockcore.game snapshots after record S (ending at byte END, with CRC as its crc). Boot restores
# them and applies only the records after S (instead of replaying every hand of the games on the
# table: bench/bench_pico.py measures the boot with and without it), if the file is whole and record S is still that record of this epoch of this
# device; anything else (an erase, a journal cut short, a torn or foreign file) means a full
# replay, and the file is removed. Written when the buttons are left alone and after a boot's
# first screen (App.step, App._warm_up); a failed write (flash full) is skipped. `knockbox
# deploy` removes it with the code it replaces.
#
# /data/meta.json = {"device_id": hex, "epoch": E, "next_gid": G}, written temp-then-rename.
# device_id is made once from os.urandom; erase() increments the epoch and starts a new journal
# whose record 1 repeats the meta. An erase counts once meta.json is written: if power is cut
# before the new journal is in place, load() finishes the erase. A lost meta.json is rebuilt
# from the journal's first record.
import binascii
import os

from knockcore import events
from knockcore.game import restore
from knockfw import META_FILE
from knockfw.journal import load_json, save_json

KEEP = 2  # games kept in RAM: the one on the table and the one before it (boot replays only
# the one on the table from the journal: the one before it comes back from the checkpoint alone)


class StoreError(ValueError):
    pass


class _Scan:
    # What boot does. First one pass over the journal (visit), without parsing every record: the
    # gid of every game, and where the newest `keep` games start (only those are rebuilt with the
    # rules core: from the checkpoint and the records after it, or, for the game on the table
    # alone, from its first record on; the others stay on flash, for the host and the Evening
    # screen, which replays them when it opens). Records of no game known are counted as
    # skipped, with the first one's reason; those without a game at all (an evening's start, or
    # junk) are listed, to be read afterwards (find_evening). Then rebuild() puts the kept games
    # into the store.
    def __init__(self, keep, snap):
        self.keep = keep
        self.snap = snap  # the checkpoint read (_read_snap), until rebuild() is done with it
        self.after = snap[3] + 1 if snap else -1  # the record after the checkpoint's, which
        self.end = None  # starts where that one ends
        self.head = False  # record 1 is no game's (the epoch record)
        self.gids = []
        self.known = set()
        self.kept = {}  # gid -> seq of its "game" record, for the newest `keep` games
        self.skipped = 0
        self.first = None  # (seq, reason) of the first skipped record: a note or a GameError
        self.loose = []  # seqs of the other records without a game: read after the scan

    def skip(self, seq, why):
        self.skipped += 1
        if self.first is None or seq < self.first[0]:
            self.first = (seq, why)

    def visit(self, seq, off, g, game):
        if seq == self.after:
            self.end = off
        if g < 0:
            if seq == 1:
                self.head = True
            else:
                self.loose.append(seq)  # an evening's start (rare), or not an event at all
        elif game:
            if g in self.known:
                self.skip(seq, ("game %d twice", (g,)))
                return
            self.gids.append(g)
            self.known.add(g)
            self.kept[g] = seq
            if len(self.kept) > self.keep:
                del self.kept[min(self.kept)]
        elif g not in self.known:
            self.skip(seq, ("no game %d", (g,)))

    def rebuild(self, st):
        # The kept games into the store: each from the checkpoint and the records after it, if
        # the checkpoint is of a record this journal still has, else from its first record.
        for g in self.gids:
            if g >= st._next:
                st._next = g + 1
            if g not in self.kept:
                st._old.append(g)
        j = st.journal
        snap, self.snap = self.snap, None
        try:  # the checkpoint's games, if it is of a record this journal still has
            _v, e, dev, s, end, crc, games = snap
            if (
                e == st.epoch
                and dev == st.device_id
                and s <= j.last_seq
                and crc == j.crc_before(end)
                and end == (j.size if s == j.last_seq else self.end)
            ):
                for g, gs in games:
                    if self.kept.get(g, s + 1) <= s:
                        st._games[g] = restore(gs)
                st.snap_seq = s
        except Exception:
            st._games = {}
        if not st.snap_seq:
            st._drop_snap()  # none, torn, or of other records: never to be taken for them
        snap = games = None
        s = st.snap_seq
        start = {}  # gid -> the first record of it to apply
        top = max(self.kept) if self.kept else None
        for g in self.kept:
            if g in st._games:
                start[g] = s + 1
            elif g == top:
                start[g] = self.kept[g]
            else:  # replayed only for the game on the table: the first screen waits for it
                st._old.append(g)
        if start:
            first = min(start[g] for g in start)
            it = st.journal.records(first - 1)
            try:
                for seq, ev in it:
                    g = events.game_of(ev)
                    if (
                        g not in start
                        or seq < start[g]
                        or (seq > self.kept[g] and ev.get("t") == events.GAME)
                    ):
                        continue  # another game's, or a "game twice" (counted by the scan)
                    try:
                        st._games[g] = events.apply(st._games.get(g), ev)
                    except (ValueError, KeyError, TypeError, AttributeError) as e:
                        self.skip(seq, e if hasattr(e, "template") else ("%s", (str(e),)))
            finally:
                it.close()
        st._old.sort()
        f = self.first
        if f is not None:  # (as soon as one was skipped)
            return ("skipped %d journal records (record %d: %s)", (self.skipped, f[0], f[1]))
        return None

    def find_evening(self, st):
        # The current evening starts at the newest "evening" record. The records without a game
        # are read newest first, down to that one; any other is skipped. Those older than it are
        # past evenings' starts and are not read (nothing in them could change a game).
        for seq in reversed(self.loose):
            g = events.evening_next(_record_after(st.journal, seq - 1))
            if g is not None:
                st.evening_gid, st.evening_seq = g, seq
                return
            self.skip(seq, ("not a game event", ()))


def _record_after(j, seq):
    # The record after record seq of journal j (the object), None if there is none.
    it = j.records(seq)
    try:
        for _seq, ev in it:
            return ev
    finally:
        it.close()
    return None


def _read_snap(path):
    # The checkpoint on flash if there is a whole one (its CRC right) of this format, else None.
    snap = load_json(path, None, crc=True) if path else None
    if isinstance(snap, list) and len(snap) == 7 and snap[0] == 1 and type(snap[3]) is int:
        return snap
    return None


def _int(v, default):
    return v if type(v) is int and v >= 0 else default


class Store:
    def __init__(self, journal, meta_path=META_FILE, keep=KEEP, snap_path=None):
        self.journal = journal
        self.keep = keep
        self._meta_path = meta_path
        self._snap_path = snap_path  # None: no boot checkpoint
        self.snap_seq = 0  # the record the last checkpoint is of (0: none)
        self.device_id = None
        self.epoch = 0
        self.notes = []  # what boot repaired or skipped: [(template, args)] (journal)
        self._games = {}
        self._old = []  # gids of older games, kept on flash only (see _retire)
        self._next = 1
        self.evening_gid = 0  # the current evening's first gid (0: every game so far)
        self.evening_seq = 0  # the seq of its "evening" record (0: none yet)

    # --- boot

    def read_snap(self):
        """The boot checkpoint (see the header) if there is a whole one, else None."""
        return _read_snap(self._snap_path)

    def load(self, snap=0):
        """Open the journal and rebuild the games from it, in one pass over the journal plus a
        read of the newest games' records. snap: what read_snap() gave, read before (0: read
        it now), so that a missing checkpoint is not looked for twice."""
        j = self.journal
        scan = _Scan(self.keep, self.read_snap() if snap == 0 else snap)
        j.open(scan.visit)
        notes = list(j.notes)
        hd = _record_after(j, 0) if scan.head else None  # record 1: the epoch's head
        hd = hd if isinstance(hd, dict) and hd.get("t") == "epoch" else {}
        meta = load_json(self._meta_path, None)
        if not isinstance(meta, dict):
            meta = {}
        dev = meta.get("device_id")
        if not isinstance(dev, str) or not dev:
            dev = hd.get("dev")
            if not isinstance(dev, str) or not dev:
                dev = binascii.hexlify(os.urandom(8)).decode()
        self.device_id = dev
        self.epoch = max(_int(meta.get("epoch"), 0), _int(hd.get("e"), 0))
        self._next = max(_int(meta.get("next_gid"), 1), _int(hd.get("next"), 1))
        if (
            meta.get("device_id") != dev
            or meta.get("epoch") != self.epoch
            or meta.get("next_gid") != self._next
        ):
            self._save_meta()
        self._games, self._old = {}, []
        self.evening_gid = self.evening_seq = 0
        self.snap_seq = 0
        if j.last_seq == 0:
            j.reset(self._head())
            self._drop_snap()
        elif hd and _int(hd.get("e"), 0) < self.epoch:
            j.reset(self._head())  # erase() was cut after meta.json, before the new journal
            self._drop_snap()
            notes.append(("finished an interrupted erase", ()))
        else:
            scan.find_evening(self)
            bad = scan.rebuild(self)
            if bad:
                notes.append(bad)
        if self._next != _int(meta.get("next_gid"), 1):
            self._save_meta()  # gids seen in the journal: never hand them out again
        self.notes = notes
        return self

    def checkpoint(self):
        """Merge the quick appends (knockfw.journal: a store with a checkpoint, the app's, journals
        each change with one, so a save waits for no flash erase), then write the boot
        checkpoint of the games in RAM (see the header), unless it was written (or tried: flash
        full, heap short) for the last record already. The app calls it when the buttons are
        left alone. Never raises: without a new one the next boot only replays more (and open()
        merges what is left)."""
        j = self.journal
        p = self._snap_path
        if j._new or p and self.snap_seq != j.last_seq:
            try:
                j.merge()  # the quick appends into the journal (its erase), while nobody waits
                crc = p and j.crc_before(j.size)
                if crc:
                    save_json(
                        p,
                        [
                            1,
                            self.epoch,
                            self.device_id,
                            j.last_seq,
                            j.size,
                            crc,
                            [[g, self._games[g].snapshot()] for g in self._games],
                        ],
                        True,
                    )
            except (OSError, MemoryError):
                pass
            self.snap_seq = j.last_seq

    def _drop_snap(self):
        # A checkpoint of games no longer there: the next one is written afresh.
        self.snap_seq = 0
        if self._snap_path:
            try:
                os.remove(self._snap_path)
            except OSError:
                pass

    def _head(self):
        return {"t": "epoch", "e": self.epoch, "dev": self.device_id, "next": self._next}

    def _save_meta(self):
        save_json(
            self._meta_path,
            {"device_id": self.device_id, "epoch": self.epoch, "next_gid": self._next},
        )

    def _commit(self, ev):
        try:
            self.journal.append(ev, self._snap_path)  # quick (see checkpoint())
        except Exception:
            self.load()  # RAM may hold a change flash does not: rebuild from flash
            raise

    # --- changes (each validated by the core before anything is written)

    def record(self, ev):
        """Record a change the player made: an event of knockcore.events less what the store
        fills in, the game number (a new game gets the next one; the others are about the game
        on the table, current()) or the evening's first game:
            {"t":"game","rec":REC}  {"t":"hand","h":H}  {"t":"undo"}  {"t":"edit","i":I,"h":H}
            {"t":"end"}  {"t":"evening"}
        The rules core applies it first (a refused one raises GameError, a change with no game
        on the table StoreError, and nothing is written); then it is journaled: once this
        returns, it is on flash. Returns the event as journaled, or None when there was nothing
        to write (a new evening while the evening showing has no game yet)."""
        t = ev.get("t")
        g = self._next
        if t == events.EVENING:
            if self.evening_seq and self.evening_gid == g:
                return None
            ev = events.evening(g)
            self._commit(ev)
            self.evening_gid, self.evening_seq = g, self.journal.last_seq
            return ev
        new = t == events.GAME
        if not new:
            g = self.current()
            if g is None:
                raise StoreError("no game")
        ev["g"] = g
        game = events.apply(None if new else self._games[g], ev)
        self._commit(ev)
        if new:
            self._games[g] = game
            self._retire()
            self._next = g + 1
            # A game number is never given twice in an epoch, even if damage later costs the
            # journal its tail: the laptop may already hold that game under this number.
            self._save_meta()
        return ev

    def erase(self):
        """Forget every game: new epoch, new empty journal; device_id and gid numbering go on."""
        self.epoch += 1
        try:
            self._save_meta()
            self.journal.reset(self._head())
        except Exception:
            self.load()
            raise
        self._games, self._old = {}, []
        self._drop_snap()
        self.evening_gid = self.evening_seq = 0
        self.notes = []

    def _retire(self):
        # Only the newest KEEP games stay in RAM as rules-core games: a season of games on a
        # 192 KB heap would not fit otherwise. Older ones live on in the journal (the host syncs
        # them from there) and are listed by gids(); game(gid) is None for them.
        while len(self._games) > self.keep:
            gid = min(self._games)
            del self._games[gid]
            self._old.append(gid)

    # --- reading

    def game(self, gid):
        return self._games.get(gid)

    def evening_games(self):
        """Yield the standings (Game.standings(False)) of the current evening's finished games:
        those in RAM, then the older ones, replayed from the journal records after the
        evening's own, one game at a time (an evening's games follow each other in the journal:
        only the game on the table takes changes). A record the rules core refuses is skipped,
        as boot skips it."""
        old = []
        for g in self.gids():
            game = self._games.get(g)
            if g < self.evening_gid:
                continue
            if game is None:
                old.append(g)
            elif game.over:
                yield game.standings(False)
        if not old:
            return
        g = -1
        game = None
        it = self.journal.records(self.evening_seq)
        try:
            for _seq, ev in it:
                k = events.game_of(ev)
                if k is None:
                    continue
                if k != g:
                    if game is not None and game.over:
                        yield game.standings(False)
                    game = None
                    g = k
                    if k > old[-1]:
                        break
                if k in old:
                    try:
                        game = events.apply(game, ev)
                    except (ValueError, KeyError, TypeError, AttributeError):
                        pass
        finally:
            it.close()
        if game is not None and game.over:
            yield game.standings(False)

    def gids(self):
        return self._old + sorted(self._games)

    def current(self):
        """The latest game's gid, or None when there is none or it was closed by end()."""
        if not self._games:
            return None
        gid = max(self._games)
        return None if self._games[gid].closed else gid

    @property
    def last_seq(self):
        return self.journal.last_seq
