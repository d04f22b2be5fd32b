# The serial link: newline-delimited JSON requests from the laptop, one reply line each
# (docs/PROTOCOL.md). Runs inside the app's loop: poll() never blocks, never raises, and does a
# bounded amount of work per call, so the buttons and the screen stay responsive during a sync.
#
#   request  {"id": 7, "op": "events", "after": 120, "limit": 50}
#   reply    {"id": 7, "ok": true, ...}        or  {"id": 7 or null, "error": "message"}
#
# Input: read byte by byte while select.poll says there is something (sys.stdin.buffer.read(n)
# waits for all n bytes on the Pico and on the unix port). CR and LF both end a line; empty lines
# are ignored; a line longer than _MAX_LINE is dropped (never buffered) with one error reply.
# Output: replies queue here and are written in small chunks only while the port is writable, so
# a host that stops reading cannot stall the loop; the queue is dropped when the session ends.
# While a host session is active (a valid request came in the last _IDLE_MS, or an erase waits
# for its button press) Ctrl-C (0x03) is plain data; afterwards it interrupts again, so mpremote
# reaches the REPL when no sync is running.
import json
import select
import time

import micropython
from micropython import const

from knockcore import FORMAT

PROTO = 1
_MAX_LINE = const(1024)   # longest request line taken
_READ_MAX = const(512)    # bytes read per poll()
_LINES_MAX = const(4)     # requests handled per poll()
_HELD_MAX = const(8)      # complete lines waiting; reading pauses beyond this
_OUT_CHUNK = const(256)   # bytes per write()
_OUT_MAX = const(4096)    # bytes written per poll()
_WRITE_MS = const(20)     # and for no longer than this
_OUT_HIGH = const(2048)   # no new request is handled while this much output waits
_EV_MAX = const(50)       # events per reply at most
_EV_BYTES = const(3072)   # and no more JSON than this (the next page starts after the last one)
_IDLE_MS = const(10000)   # a session ends after this much silence
_ID_MAX = const(0x3FFFFFFF)

_kbd = getattr(micropython, "kbd_intr", None)   # tests replace this


def _int(req, key, default, lo, hi):
    v = req.get(key, default)
    if type(v) is not int or v < lo or v > hi:
        raise ValueError("%s must be an integer %d..%d" % (key, lo, hi))
    return v


class Link:
    def __init__(self, app, inp, out):
        self.app = app
        self.inp = inp
        self.out = out
        self._pin = select.poll()
        self._pin.register(inp, select.POLLIN)
        self._pout = select.poll()
        self._pout.register(out, select.POLLOUT)
        self._buf = b""         # the line being received
        self._drop = False      # inside an overlong line: discard up to its end
        self._held = []         # complete lines (None = an overlong one) not yet handled
        self._q = []            # reply bytes waiting to be written
        self._qo = 0            # bytes of _q[0] already written
        self._qn = 0            # bytes waiting in all
        self.active = False     # a host session is on
        self._last = 0
        self._now = 0
        self._erase = None      # id of the erase request waiting for the button press
        self.errors = 0         # lines answered with an error, for tests and the UI
        self.faults = 0         # exceptions poll() swallowed (a bug if not 0), for tests

    # ---- the loop's side

    def poll(self, now_ms):
        """Read, handle and answer what the port has, within the per-call bounds. Returns True
        when there is more to do (the caller may skip its sleep)."""
        self._now = now_ms
        try:
            self._read()
            n = 0
            while self._held and n < _LINES_MAX and self._qn < _OUT_HIGH:
                self._line(self._held.pop(0))
                n += 1
            self._write()
            if self.active and self._erase is None and \
                    time.ticks_diff(now_ms, self._last) > _IDLE_MS:
                self._end(True)
        except Exception:   # noqa: BLE001 - the UI must survive anything on the wire
            self._buf, self._held = b"", []
            self.faults += 1
        return bool(self._held or self._q)

    def _read(self):
        data = bytearray()
        while len(data) < _READ_MAX and len(self._held) < _HELD_MAX and self._pin.poll(0):
            c = self.inp.read(1)
            if not c:
                break
            if c == b"\n" or c == b"\r":
                self._eol(data)
                data = bytearray()
            else:
                data += c
        if data:
            self._more(data)

    def _more(self, data):
        if self._drop:
            return
        self._buf += bytes(data)
        if len(self._buf) > _MAX_LINE:
            self._buf = b""
            self._drop = True

    def _eol(self, data):
        self._more(data)
        if self._drop:
            self._held.append(None)
        elif self._buf.strip():
            self._held.append(self._buf)
        self._buf, self._drop = b"", False

    def _write(self):
        # The Pico reports its USB port always writable; a write then waits (up to the CDC
        # timeout) for a host that does not read. So stop once writing has taken _WRITE_MS.
        n = 0
        t = time.ticks_ms()
        while self._q and n < _OUT_MAX and self._pout.poll(0) and \
                time.ticks_diff(time.ticks_ms(), t) < _WRITE_MS:
            q = self._q
            if not self._qo:    # join small pieces (an events page) into one write
                while len(q) > 1 and len(q[0]) + len(q[1]) <= _OUT_CHUNK:
                    q[0] = q[0] + q.pop(1)
            b = q[0]
            k = len(b) - self._qo
            if k > _OUT_CHUNK:
                k = _OUT_CHUNK
            w = self.out.write(memoryview(b)[self._qo:self._qo + k])
            if not w:
                break
            self._qo += w
            self._qn -= w
            n += w
            if self._qo >= len(b):
                self._q.pop(0)
                self._qo = 0

    def _send(self, b):
        self._q.append(b)
        self._qn += len(b)

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
        if drop:    # nobody is listening: do not keep old replies for the next host, but end
            # a reply cut short with a newline, so the next reply starts on a line of its own
            self._q, self._qn = ([b"\n"], 1) if self._qo else ([], 0)
            self._qo = 0
        if _kbd:
            _kbd(3)
        self.app.link_active(False)

    # ---- requests

    def _line(self, line):
        if line is None:
            return self._error(None, "line too long (max %d bytes)" % _MAX_LINE)
        try:
            req = json.loads(line)
        except Exception:   # ValueError, UnicodeError, MemoryError...
            return self._error(None, "not JSON")
        if not isinstance(req, dict):
            return self._error(None, "not a JSON object")
        rid = req.get("id")
        if type(rid) is not int or rid < 0 or rid > _ID_MAX:
            return self._error(None, "id must be an integer 0..%d" % _ID_MAX)
        op = req.get("op")
        f = getattr(self, "_op_" + op, None) if type(op) is str and len(op) < 16 else None
        if f is None:
            return self._error(rid, "unknown op")
        self._start()
        n = len(self._q)
        try:
            r = f(req, rid)
        except Exception as e:  # noqa: BLE001 - bad arguments, an I/O error, a full heap
            while len(self._q) > n:     # drop a reply the op had begun to queue
                self._qn -= len(self._q.pop())
            if isinstance(e, (ValueError, TypeError, KeyError)):
                return self._error(rid, str(e.args[0] if e.args else e) or "bad request")
            return self._error(rid, "failed: %r" % (e,))
        if r is not None:
            self._reply(rid, r)

    def _op_hello(self, req, rid):
        s, app = self.app.store, self.app
        return {"proto": PROTO, "device": s.device_id, "fw": app.VERSION, "format": FORMAT,
                "board": app.board.name, "epoch": s.epoch, "last_seq": s.last_seq}

    def _op_bye(self, req, rid):
        self._reply(rid, {})
        self._end(False)

    def _op_games(self, req, rid):
        s = self.app.store
        out = []
        for g in s.gids():
            game = s.game(g)
            if game is None:    # an older game the store keeps on flash only: see events
                out.append({"g": g, "old": True})
            else:
                out.append({"g": g, "method": game.method, "players": game.players,
                            "hands": len(game.hands), "over": game.over, "ended": s.ended(g)})
        return {"games": out, "epoch": s.epoch, "last_seq": s.last_seq}

    def _op_events(self, req, rid):
        s = self.app.store
        after = _int(req, "after", 0, 0, _ID_MAX)
        limit = _int(req, "limit", _EV_MAX, 1, _ID_MAX)
        evs = s.events(after, limit if limit < _EV_MAX else _EV_MAX)
        # Queued piece by piece (no big contiguous buffer on a fragmented heap); a page stops
        # at _EV_BYTES and the host asks for the next one after its last seq.
        self._send(b'{"id":%d,"ok":true,"epoch":%d,"last_seq":%d,"ev":[' % (
            rid, s.epoch, s.last_seq))
        size = 0
        sep = b""
        for seq, ev in evs:
            b = b"%s[%d,%s]" % (sep, seq, json.dumps(ev).encode())
            if sep and size + len(b) > _EV_BYTES:
                break
            self._send(b)
            size += len(b)
            sep = b","
        self._send(b"]}\n")

    def _op_settings(self, req, rid):
        d = req.get("set")
        if d is not None:
            if not isinstance(d, dict):
                raise ValueError("set must be an object")
            self.app.apply_settings(d)
        return {"settings": self.app.settings}

    def _op_roster(self, req, rid):
        p = req.get("players")
        if not isinstance(p, list):
            raise ValueError("players must be a list of names")
        self.app.apply_settings({"roster": p})
        return {"settings": self.app.settings}

    def _op_erase(self, req, rid):
        if self._erase is not None:
            raise ValueError("an erase is already waiting for the button")
        n = req.get("last_seq")
        if n is not None and n != self.app.store.last_seq:
            raise ValueError("the journal changed since record %r: sync first" % (n,))
        self._erase = rid   # before the call: the app may answer at once
        try:
            self.app.request_erase(self._erased)
        except Exception:
            self._erase = None  # no press will come: the session may end; _line answers
            raise

    def _erased(self, ok):
        rid, self._erase = self._erase, None
        self._last = self._now
        if rid is not None:
            s = self.app.store
            self._reply(rid, {"erased": bool(ok), "epoch": s.epoch, "last_seq": s.last_seq})
