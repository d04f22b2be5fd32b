# The serial link: newline-delimited JSON requests from the laptop, one reply line each
# (docs/PROTOCOL.md; its numbers are knockcore.proto). Runs inside the app's loop: poll() never
# blocks, never raises, and works for at most _BUSY_MS per call, so the buttons and the screen
# stay responsive during a sync.
#
#   request  {"id": 7, "op": "events", "after": 120, "limit": 200}
#   reply    {"id": 7, "ok": true, ...}        or  {"id": 7 or null, "error": "message"}
#
# Input: read byte by byte while select.poll says there is something (a stream's readinto(buf)
# waits for all of buf on the Pico and on the unix port), into one line buffer allocated once. CR
# and LF both end a line; empty lines are ignored; a line longer than _MAX_LINE is dropped (never
# buffered) with one error reply.
# Output: replies queue here and are written in small pieces only while the port is writable, so
# a host that stops reading cannot stall the loop; the queue is dropped when the session ends.
# An events page is streamed: the journal's records go out as they are on flash (their JSON is
# never parsed here), a few hundred bytes at a time while the port takes them, so a page costs
# the heap the same whatever its length. Its reply ends with "ok": true, or with "error" if the
# page could not be finished (the journal was erased, a flash error): the host never takes a
# half page for a whole one.
# While a host session is active (a valid request came in the last _IDLE_MS, or an erase waits
# for its button press) Ctrl-C (0x03) is plain data; afterwards it interrupts again, so mpremote
# reaches the REPL when no sync is running.
#
# _Wire is the port (lines in, bytes out), _Page one events reply on its way, Link the protocol
# (sessions, requests, the ops) and what the app's loop calls.
import json
import select
import time

import micropython
from micropython import const

from knockcore import FORMAT
from knockcore.proto import EVENTS_MAX, ID_MAX, OPS, PROTO
from knockfw.version import VERSION

_MAX_LINE = const(1024)  # longest request line taken
_HELD_MAX = const(8)  # complete lines waiting; reading pauses beyond this
_READ_MAX = const(128)  # bytes read before the poll looks at its time again
_BUSY_MS = const(15)  # work per poll() at most (one request, one flash write may take longer)
_OUT_CHUNK = const(256)  # bytes per write(); an events page is queued in pieces of about this
_OUT_HIGH = const(1024)  # no new request is handled, no page piece queued, while this much waits
_IDLE_MS = const(10000)  # a session ends after this much silence

_ERASED = "the journal was erased during the sync"
_kbd = getattr(micropython, "kbd_intr", None)  # tests replace this


def _int(req, key, default, lo, hi):
    v = req.get(key, default)
    if type(v) is not int or v < lo or v > hi:
        raise ValueError("%s must be an integer %d..%d" % (key, lo, hi))
    return v


class _Wire:
    # The port: request lines in (byte by byte into one buffer), reply bytes out (queued, written
    # in pieces while the port takes them). Link adds the protocol on top.
    def __init__(self, inp, out):
        self.inp = inp
        self.out = out
        p = select.poll()
        p.register(inp, select.POLLIN)
        self._ready = p.ipoll  # ready(0) yields once when a byte is there
        p = select.poll()
        p.register(out, select.POLLOUT)
        self._writable = p.poll
        self._line_buf = bytearray(_MAX_LINE)
        self._byte = bytearray(1)
        self._n = 0  # bytes of the line being received (> _MAX_LINE: dropping it)
        self._held = []  # complete lines (None = an overlong one) not yet handled
        self._q = []  # reply bytes waiting to be written
        self._qo = 0  # bytes of _q[0] already written
        self._qn = 0  # bytes waiting in all
        self._mid = False  # the last byte written did not end a line

    def _read(self):
        got = 0
        n = self._n
        buf, b, held = self._line_buf, self._byte, self._held
        ready, readinto = self._ready, self.inp.readinto
        while got < _READ_MAX and len(held) < _HELD_MAX:
            for _ in ready(0):  # a byte is there (ipoll allocates nothing)
                break
            else:
                break
            if not readinto(b):
                break
            got += 1
            c = b[0]
            if c == 10 or c == 13:
                if n > _MAX_LINE:
                    held.append(None)
                elif n:
                    line = bytes(buf[:n])
                    if line.strip():
                        held.append(line)
                n = 0
            elif n < _MAX_LINE:
                buf[n] = c
                n += 1
            else:
                n = _MAX_LINE + 1
        self._n = n
        return got

    def _write(self, t):
        """Write what is queued while the port takes it and the poll (started at t) has time;
        returns the bytes written. (The Pico reports its USB port always writable; a write then
        waits, up to the CDC timeout, for a host that does not read: hence the time.)"""
        n = 0
        q = self._q
        while q and time.ticks_diff(time.ticks_ms(), t) < _BUSY_MS and self._writable(0):
            if not self._qo:  # join small replies (a burst of errors) into one write
                while len(q) > 1 and len(q[0]) + len(q[1]) <= _OUT_CHUNK:
                    q[0] = q[0] + q.pop(1)
            b = q[0]
            k = len(b) - self._qo
            if k > _OUT_CHUNK:
                k = _OUT_CHUNK
            w = self.out.write(memoryview(b)[self._qo : self._qo + k])
            if not w:
                break
            self._qo += w
            self._mid = b[self._qo - 1] != 10
            self._qn -= w
            n += w
            if self._qo >= len(b):
                q.pop(0)
                self._qo = 0
        return n

    def _send(self, b):
        self._q.append(b)
        self._qn += len(b)


class _Page:
    # One events reply on its way: the journal's records after `after` (their JSON as stored),
    # queued a piece at a time. Its reader (an open file) stays open between polls while the
    # journal stays as it was; a record added meanwhile makes it read the file afresh.
    def __init__(self, rid, store, after, limit):
        self.rid = rid
        self.store = store
        self.after = after
        self.limit = limit
        self.epoch = store.epoch
        self.n = 0  # records queued
        self._it = None
        self._it_last = 0

    def fill(self, link, t):
        """Queue records on link in pieces of about _OUT_CHUNK bytes while under _OUT_HIGH waits
        and the poll (started at t) has time. Returns (bytes queued, more to come, error): the
        page ends when more is False, whole when error is None."""
        s = self.store
        if s.epoch != self.epoch:
            return 0, False, _ERASED
        more, err, size, queued = False, None, 0, 0
        parts: list = []  # one piece: joined and queued at about _OUT_CHUNK bytes
        add = parts.append
        n, after, room = self.n, self.after, _OUT_HIGH - link._qn
        try:
            j = s.journal
            if self._it is not None and self._it_last != j.last_seq:
                self.close()
            if self._it is None:
                self._it = j.records(after, True)
                self._it_last = j.last_seq
            for seq, body in self._it:  # (locals: this loop is most of a sync's CPU)
                k = len(body)
                if size + k > _OUT_CHUNK and parts:
                    link._send(b"".join(parts))
                    queued += size
                    parts, size = [], 0
                    add = parts.append
                head = b",[%d," % seq if n else b"[%d," % seq
                add(head)
                add(body)
                add(b"]")
                size += len(head) + k + 1
                after = seq
                n += 1
                if n >= self.limit:
                    break
                if not n & 3 and (
                    queued + size >= room or time.ticks_diff(time.ticks_ms(), t) >= _BUSY_MS
                ):
                    more = True
                    break
        except Exception as e:  # noqa: BLE001 - a flash error, a full heap
            more, err = False, "failed: %r" % (e,)
        self.n, self.after = n, after
        if parts:
            link._send(b"".join(parts))
        return queued + size, more, err

    def close(self):
        it, self._it = self._it, None
        if it is not None:
            try:
                it.close()  # closes the file now (MicroPython does not finalise generators)
            except Exception:  # noqa: BLE001 - a file that will not close is closed enough
                pass


class Link(_Wire):
    def __init__(self, app, inp, out):
        _Wire.__init__(self, inp, out)
        self.app = app
        self._page = None  # the events page being streamed (_Page)
        self._later = None  # an erase reply that waits for the page to end
        self.active = False  # a host session is on
        self._last = 0
        self._now = 0
        self._erase = None  # id of the erase request waiting for the button press
        self.errors = 0  # lines answered with an error, for tests and the UI
        self.faults = 0  # exceptions poll() swallowed (a bug if not 0), for tests

    # ---- the loop's side

    def poll(self, now_ms):
        """Read, handle and answer what the port has, for at most about _BUSY_MS. Returns True
        when there is more to do and the port let it get on (the caller may skip its sleep)."""
        self._now = now_ms
        t = time.ticks_ms()
        moved = 0
        try:
            while True:
                n = self._read()
                if self._page is not None and self._qn < _OUT_HIGH:
                    size, more, err = self._page.fill(self, t)
                    if not more:
                        self._end_page(err)
                    n += size + 1
                while (
                    self._held
                    and self._page is None
                    and self._qn < _OUT_HIGH
                    and time.ticks_diff(time.ticks_ms(), t) < _BUSY_MS
                ):
                    self._line(self._held.pop(0))
                    n += 1
                w = self._write(t)
                if w:
                    self._last = now_ms  # a host taking a long reply is not idle
                n += w
                moved += n
                if not n or time.ticks_diff(time.ticks_ms(), t) >= _BUSY_MS:
                    break
            if (
                self.active
                and self._erase is None
                and time.ticks_diff(now_ms, self._last) > _IDLE_MS
            ):
                self._end(True)
        except Exception:  # noqa: BLE001 - the UI must survive anything on the wire
            self._n, self._held = 0, []
            if self._page is not None:  # never leave a page's line open for the next reply
                self._page.close()
                self._page = None
                self._send(b'],"error":"failed"}\n')
            self.faults += 1
        return bool(moved and (self._held or self._q or self._page))

    def _reply(self, rid, d):
        d["id"] = rid
        d["ok"] = True
        self._send(json.dumps(d).encode() + b"\n")

    def _error(self, rid, msg):
        self.errors += 1
        self._send(json.dumps({"id": rid, "error": msg}).encode() + b"\n")

    # ---- sessions

    def _start(self):
        self._last = self._now
        if not self.active:
            self.active = True
            if _kbd:
                _kbd(-1)
            self.app.link_active(True)

    def _end(self, drop):
        self.active = False
        if drop:  # nobody is listening: do not keep old replies for the next host, but end
            # a line cut short with a newline, so the next reply starts on a line of its own
            self._q, self._qn = ([b"\n"], 1) if self._mid else ([], 0)
            self._qo = 0
            if self._page is not None:
                self._page.close()
            self._page = self._later = None
        if _kbd:
            _kbd(3)
        self.app.link_active(False)

    # ---- requests

    def _line(self, line):
        if line is None:
            return self._error(None, "line too long (max %d bytes)" % _MAX_LINE)
        try:
            req = json.loads(line)
        except Exception:  # ValueError, UnicodeError, MemoryError...
            return self._error(None, "not JSON")
        if not isinstance(req, dict):
            return self._error(None, "not a JSON object")
        rid = req.get("id")
        if type(rid) is not int or rid < 0 or rid > ID_MAX:
            return self._error(None, "id must be an integer 0..%d" % ID_MAX)
        op = req.get("op")
        f = getattr(self, "_op_" + op, None) if op in OPS else None
        if f is None:
            return self._error(rid, "unknown op")
        self._start()
        n = len(self._q)
        try:
            r = f(req, rid)
        except Exception as e:  # noqa: BLE001 - bad arguments, an I/O error, a full heap
            while len(self._q) > n:  # drop a reply the op had begun to queue
                self._qn -= len(self._q.pop())
            if isinstance(e, (ValueError, TypeError, KeyError)):
                return self._error(rid, str(e.args[0] if e.args else e) or "bad request")
            return self._error(rid, "failed: %r" % (e,))
        if r is not None:
            self._reply(rid, r)

    def _op_hello(self, req, rid):
        s, app = self.app.store, self.app
        return {
            "proto": PROTO,
            "device": s.device_id,
            "fw": VERSION,
            "format": FORMAT,
            "board": app.board.name,
            "epoch": s.epoch,
            "last_seq": s.last_seq,
            "battery": app.board.battery,
        }

    def _op_bye(self, req, rid):
        self._reply(rid, {})
        self._end(False)

    def _op_events(self, req, rid):
        s = self.app.store
        after = _int(req, "after", 0, 0, ID_MAX)
        limit = _int(req, "limit", EVENTS_MAX, 1, ID_MAX)
        self._send(b'{"id":%d,"epoch":%d,"ev":[' % (rid, s.epoch))
        self._page = _Page(rid, s, after, limit if limit < EVENTS_MAX else EVENTS_MAX)

    def _end_page(self, err):
        """Close the page's reply: ok with the journal's last seq, or the error."""
        pg, self._page = self._page, None
        if pg is not None:
            pg.close()
        if err is None:
            self._send(b'],"last_seq":%d,"ok":true}\n' % self.app.store.last_seq)
        else:
            self.errors += 1
            self._send(b'],"error":%s}\n' % json.dumps(err).encode())
        if self._later is not None:
            self._reply(*self._later)
            self._later = None

    def _op_settings(self, req, rid):
        d = req.get("set")
        if d is not None:
            if not isinstance(d, dict):
                raise ValueError("set must be an object")
            self.app.apply_settings(d)
        return {"settings": self.app.settings}

    def _op_faults(self, req, rid):
        from knockfw import fault

        return fault.read(req.get("clear"))

    def _op_erase(self, req, rid):
        if self._erase is not None:
            raise ValueError("an erase is already waiting for the button")
        n = req.get("last_seq")
        if n is not None and n != self.app.store.last_seq:
            raise ValueError("the journal changed since record %r: sync first" % (n,))
        self._erase = rid  # before the call: the app may answer at once
        try:
            self.app.request_erase(self._erased)
        except Exception:
            self._erase = None  # no press will come: the session may end; _line answers
            raise

    def _erased(self, ok):
        rid, self._erase = self._erase, None
        self._last = self._now
        if rid is None:
            return
        s = self.app.store
        r = (rid, {"erased": bool(ok), "epoch": s.epoch, "last_seq": s.last_seq})
        if self._page is not None and s.epoch != self._page.epoch:
            self._end_page(_ERASED)
        if self._page is None:
            self._reply(*r)
        else:  # a reply never goes into the middle of a page's line
            self._later = r
