"""Pulling the device's journal into the history (the `knockbox sync` command is
knockbox/commands/sync.py). Protocol: docs/PROTOCOL.md.

A sync mirrors the device's journal events: it asks for the events after the last sequence
number the history holds for this (device id, epoch), a page at a time, stores them as received,
then replays every game they touch with the rules core under CPython and stores the result
with what the readers need (knockbox.derived; games keyed by device, epoch and game number: an
edit or undo on the device updates the game). A sync reads and writes only the games it
touches: its cost does not grow with the history.

All of it is one SQLite transaction per sync. If the link fails part way (unplugged, silent,
garbage) the pages that arrived whole and checked out are committed with the games they make,
and the error is reported: the next sync resumes after the last stored event. A page is never
stored in part, so the history always equals the device's journal up to some record.

A sync reads the journal up to the last record the device's hello named, and at most SYNC_MAX
records (knockbox.bounds): a device that has more, or whose journal never ends, is read on by
the next sync; so one transaction, and what Ctrl-C saves, stay bounded. The hello's device id,
board and firmware must be short texts (DEVICE_ID_MAX, INFO_MAX): they are stored with every
event and printed.
"""

from __future__ import annotations

import sys
from typing import Any, TYPE_CHECKING, TextIO

from knockbox import history as H
from knockbox import players
from knockbox.link import serialio
from knockbox.bounds import DEVICE_ID_MAX, INFO_MAX, LIST_MAX, SYNC_MAX, short_text
from knockbox.usererror import UserError
from knockbox.plural import count
from knockbox.progress import Progress
from knockbox.textsafe import visible
from knockcore import FORMAT, events
from knockcore.proto import EVENTS_MAX as PAGE  # events asked per request (a page may be shorter)

if TYPE_CHECKING:
    from knockbox.history import History
    from knockbox.link.serialio import Connection
    from knockbox.records import Record

ERASE_TIMEOUT = 45.0  # the device gives up after 30 s without a press


def _count(v: object) -> bool:
    """An epoch or a sequence number as the history can hold it (0..2**63-1)."""
    return type(v) is int and 0 <= v <= H.MAX_INT


def check_hello(r: dict[str, Any]) -> None:
    for k, t in (("device", str), ("epoch", int), ("last_seq", int)):
        if type(r.get(k)) is not t:
            raise serialio.LinkError("the device's hello lacks %r: not a Knockbox?" % k)
        if t is int and not _count(r[k]):
            raise serialio.LinkError(
                "the device's hello has %s %d, out of range (0..%d)" % (k, r[k], H.MAX_INT)
            )
    if not short_text(r["device"], DEVICE_ID_MAX):
        raise serialio.LinkError(
            "the device's hello has a device id that is not a short text (%d characters; at "
            "most %d): not a Knockbox?" % (len(r["device"]), DEVICE_ID_MAX)
        )
    for k in ("board", "fw"):
        if r.get(k) is not None and not short_text(r[k], INFO_MAX):
            raise serialio.LinkError(
                "the device's hello has a %r that is not a short text (at most %d characters): "
                "not a Knockbox?" % (k, INFO_MAX)
            )
    if r.get("format") != FORMAT:
        raise UserError(
            "the device records games as %r; this knockbox reads %r: update one of "
            "them" % (r.get("format"), FORMAT)
        )


def _check_page(r: dict[str, Any], after: int, epoch: int) -> list[Any]:
    """The page's events [(seq, event)], checked: seqs follow on from `after`."""
    if r.get("epoch") != epoch:
        raise UserError("the device was erased during the sync: run `knockbox sync` again")
    evs = r.get("ev")
    if not isinstance(evs, list) or len(evs) > PAGE or not _count(r.get("last_seq")):
        raise serialio.LinkError("the device sent a malformed events page")
    out = []
    seq = after
    for e in evs:
        if not (
            isinstance(e, list)
            and len(e) == 2
            and type(e[0]) is int
            and e[0] == seq + 1
            and isinstance(e[1], dict)
            and isinstance(e[1].get("t"), str)
        ):
            raise serialio.LinkError("the device sent a malformed event after record %d" % seq)
        seq += 1
        out.append((seq, e[1]))
    return out


class Sync:
    def __init__(self, conn: Connection, hist: History, err: TextIO = sys.stderr) -> None:
        self.conn = conn
        self.hist = hist
        self.err = err
        self.info: Any = None  # the device's hello() reply, once run() has it
        self.new_events = 0
        self.touched: set[int] = set()  # gids
        self.results = {
            "new": 0,
            "updated": 0,
            "same": 0,
            "gone": 0,
            "replaced": 0,
            "kept": 0,
            "deleted": 0,
        }
        self.reread = 0  # records held before the journal was read again
        self.notes: list[str] = []  # games the history keeps more of than the device now has
        self.invalid: list[Any] = []
        self.complete = False
        self.more = False  # SYNC_MAX records were read: the next sync reads on
        self.no_game = 0  # records of no game that are not the device's own

    def run(self, info: dict[str, Any] | None = None) -> Sync:
        info = info or self.conn.hello()
        check_hello(info)
        self.info = info
        dev, epoch = info["device"], info["epoch"]
        known = self.hist.devices.epochs(dev)
        if not known:
            self.say(
                "new device %s (%s, firmware %s)"
                % (visible(dev), visible(str(info.get("board"))), visible(str(info.get("fw"))))
            )
        elif epoch not in known:
            self.say(
                "device %s was erased since the last sync (epoch %d, before %d): its "
                "earlier games stay in the history" % (visible(dev), epoch, max(known))
            )
        when = H.now()
        with self.hist.transaction():
            self.hist.devices.note(dev, epoch, info.get("board"), info.get("fw"), when)
            # games whose events arrived but were never built (a sync stopped in between)
            self.touched |= self.hist.devices.orphans(dev, epoch)
            failure = None
            try:
                self._pull(dev, epoch, info["last_seq"])
                self.complete = not self.more
            except (serialio.LinkError, UserError, KeyboardInterrupt) as e:
                failure = e  # keep the whole pages that arrived; report after the commit
            ids = []
            for gid in sorted(self.touched):
                r = self.hist.devices.rebuild(dev, epoch, gid, when, self.reread > 0, self.notes)
                self.results[r] += 1
                ids += self.hist.rows.ids_of(dev, epoch, gid)
            self.hist.evenings.renumber()
            if self.complete:
                self.hist.devices.built(dev, epoch)
            rows = self.hist.games(ids) if ids else []
            self.invalid = [g for g in rows if g["status"] == "invalid"]
            twins = players.twins(
                {n for g in rows for n in g["players"]}, self.hist.players.names() if rows else []
            )
            clashes = self.hist.players.clashes()
        if self.no_game > LIST_MAX:
            self.say(
                "and %d more records with no usable game number: kept, not replayed"
                % (self.no_game - LIST_MAX)
            )
        if self.more:
            self.say(
                "the device has more records than one sync reads (%s): `knockbox sync` again "
                "reads on" % count(SYNC_MAX, "record")
            )
        for note in self.notes:
            self.say(kept_note(visible(dev), *note))
        for line in players.twin_lines(twins):
            self.say("note: " + line)
        for line in clashes:
            self.say("note: " + visible(line))
        if failure is not None:
            if isinstance(failure, KeyboardInterrupt):
                raise failure
            raise type(failure)(
                "%s (%d new records saved; `knockbox sync` again resumes)"
                % (failure, self.new_events)
            )
        return self

    def say(self, msg: str) -> None:
        self.err.write(msg + "\n")

    def _pull(self, dev: str, epoch: int, last: int) -> None:
        have = self.hist.devices.last_seq(dev, epoch)
        after = have
        if have:
            # Ask again for the last record we hold: the device must still have the same one
            # (a journal repaired on the device may have lost records: then re-read it all).
            after = have - 1
        if last < have:
            self._restart(
                dev, epoch, "the device has %s, the history %d" % (count(last, "record"), have)
            )
            after = have = 0
        progress, total = Progress(self.err, "sync"), max(last - have, 0)
        first = True
        try:
            while True:
                r = self.conn.events(after, PAGE)
                evs = _check_page(r, after, epoch)
                if first and have:
                    first = False
                    mine = self.hist.devices.event(dev, epoch, have)
                    if not evs or evs[0][1] != mine:
                        self._restart(dev, epoch, "record %d differs" % have)
                        after = have = 0
                        continue
                    evs = evs[1:]
                    after = have
                if evs and evs[-1][0] > last:  # (records added since the hello: the next sync's)
                    evs = [e for e in evs if e[0] <= last]
                if evs:
                    # touched first: whatever interrupts after add_events, the games get built
                    for seq, ev in evs:
                        g = H.event_gid(ev)
                        if g is not None:
                            self.touched.add(g)
                        elif ev.get("t") not in ("epoch", events.EVENING):  # its own records
                            self.no_game += 1
                            if self.no_game <= LIST_MAX:
                                self.say(
                                    "record %d (%s) has no usable game number: kept, not "
                                    "replayed" % (seq, visible(players.shown(str(ev.get("t")))))
                                )
                    self.touched |= self.hist.devices.add_events(dev, epoch, evs)
                    self.new_events += len(evs)
                    after = evs[-1][0]
                    progress("records", after - have, total)
                if after >= min(last, r["last_seq"]) or not r["ev"]:
                    break
                if self.new_events >= SYNC_MAX:
                    self.more = True
                    break
        finally:
            progress.end()  # (the line is cleared before any message)

    def _restart(self, dev: str, epoch: int, why: str) -> None:
        self.say("the device's journal no longer matches the history (%s): reading it again" % why)
        self.reread = max(self.reread, self.hist.devices.last_seq(dev, epoch))
        self.touched |= self.hist.devices.drop_events(dev, epoch, 1)

    def summary(self) -> str:
        """The sync's line for people: the device and what came of it."""
        info = self.info
        if info is None:
            raise ValueError("summary() of a sync that has not run")
        res = self.results
        games = "%s, %d updated" % (count(res["new"] + res["replaced"], "new game"), res["updated"])
        if res["replaced"]:
            games += " (%d kept apart: the device reused their numbers)" % res["replaced"]
        if self.reread:
            line = "journal read again (%s; the history held %d): %s" % (
                count(self.new_events, "record"),
                self.reread,
                games,
            )
        elif self.new_events:
            line = "%s: %s" % (count(self.new_events, "new record"), games)
        elif res["new"] or res["updated"] or res["replaced"]:
            line = "nothing new; %s" % games
        else:
            line = "nothing new"
        return "device %s (epoch %d, %s): %s" % (
            visible(info["device"]),
            info["epoch"],
            visible(str(info.get("board"))),
            line,
        )


def battery_line(info: dict[str, Any]) -> str | None:
    """The device's last battery reading (the hello's `battery`, docs/PROTOCOL.md) as a line for
    people; None without one (or with one that makes no sense)."""
    b: Any = info.get("battery")  # (anything: checked below)
    try:
        v, s, low = (b[k] / 1000.0 for k in ("vbat_mv", "supply_mv", "low_mv"))
        usb = bool(b.get("usb"))
    except (TypeError, KeyError, AttributeError):
        return None
    line = (
        "battery %.2f V, supply %.2f V (read on %s); the device switches off below a "
        % (
            v,
            s,
            "USB power" if usb else "battery",
        )
        + "%.2f V supply on battery" % low
    )
    if not usb and s < low:
        line += ": BATTERY LOW, change the batteries"
    return line


def kept_note(dev: str, gid: int, device_hands: int, kept_hands: int, how: str) -> str:
    """The line that says what the history keeps of a game the device now has less of (how:
    knockbox.history.device's DeviceMirror.rebuild)."""
    hands = count(kept_hands, "hand")
    if device_hands is None:
        return "device %s game %d: the device no longer has it, the history keeps its %s" % (
            dev,
            gid,
            hands,
        )
    now = count(device_hands, "hand")
    if how == "another way":
        return (
            "device %s game %d: the device's %s went another way than the %s the history "
            "held: the device's game counts; the history keeps its %s aside, not counted"
            % (dev, gid, now, hands, hands)
        )
    if how == "apart":
        return (
            "device %s game %d: the device's game (%s) is another game than the history's (%s; "
            "another first hand): both are kept" % (dev, gid, now, hands)
        )
    return "device %s game %d: the device now has %s, the history keeps its %d" % (
        dev,
        gid,
        now,
        kept_hands,
    )


def erase(conn: Connection, sync: Sync, err: TextIO, timeout: float = ERASE_TIMEOUT) -> Record:
    """Ask the device to erase its games (everything is synced): waits for the button."""
    if not sync.complete:
        raise UserError("not erasing: the sync did not finish")
    n = sync.hist.devices.last_seq(sync.info["device"], sync.info["epoch"])
    err.write("Hold A on the device to erase its games (C keeps them)...\n")
    err.flush()
    r = conn.erase(n, timeout)
    if not r.get("erased"):
        raise UserError("erase cancelled on the device: nothing was erased")
    if not _count(r.get("epoch")):
        raise serialio.LinkError(
            "the device erased its games but sent no valid new epoch "
            "(%r): the next sync reads it" % (r.get("epoch"),)
        )
    with sync.hist.transaction():
        sync.hist.devices.note(
            sync.info["device"], r["epoch"], sync.info.get("board"), sync.info.get("fw"), H.now()
        )
    return r
