"""The stand-in device for the `knockbox sync` tests (test_sync_faults.py, test_sync_records.py):
a pseudo-terminal whose other end (a thread here) answers each request line as a test says, a
well-behaved journal device to start from, and running the installed `knockbox` command."""

import json
import os
import pty
import random
import subprocess
import sys
import threading
import time
import tty


from knockcore.game import Game

KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
DEV = "f00dfeed00000001"
HELLO = {
    "ok": True,
    "proto": 1,
    "device": DEV,
    "fw": "0.1.0",
    "format": "knockbox-game/1",
    "board": "fake",
    "epoch": 0,
    "last_seq": 0,
}


def open_pty():
    """(master, slave, path) of a new pseudo-terminal in raw mode."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def reads(fd):
    """What comes from fd, a piece at a time, until it is closed."""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if not data:
            return
        yield data


class FakeDevice:
    """A pty whose other end answers each request line with answer(request_dict or None,
    raw_line) -> bytes (may be b"" for silence)."""

    def __init__(self, answer):
        self.master, self.slave, self.path = open_pty()
        self.answer = answer
        self.seen = []
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        buf = b""
        for data in reads(self.master):
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if not line.strip():
                    continue
                try:
                    req = json.loads(line)
                except ValueError:
                    req = None
                self.seen.append(req)
                out = self.answer(req, line)
                try:
                    if isinstance(out, list):  # a reply that streams: (pause in s, bytes) pieces
                        for pause, b in out:
                            time.sleep(pause)
                            os.write(self.master, b)
                    elif out:
                        os.write(self.master, out)
                except OSError:  # closed (the test is over)
                    return

    def close(self):
        # The slave first: the reader's read() of the master then fails (EIO) and its thread
        # ends; only then the master. Closing the master under a thread still reading it would
        # let that thread read the next FakeDevice's master, which reuses the fd number.
        os.close(self.slave)
        self.t.join(5)
        os.close(self.master)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def reply(req, **kw):
    d = dict(kw)
    d["id"] = req["id"]
    return (json.dumps(d) + "\n").encode()


def journal(n_hands=120):
    """Journal events of one method-3 game with n_hands hands."""
    rnd = random.Random(4)
    g = Game(3, ["Ann", "Bob", "Cy"], {"dealer": 0}, {"preset": "seed", "m3_target": 100000})
    from kit.gamegen import random_hand

    evs = [
        {"t": "epoch", "e": 0, "dev": DEV, "next": 1},
        {
            "t": "game",
            "g": 1,
            "rec": {
                "method": 3,
                "players": g.players,
                "start": g.start,
                "rules": {"preset": "seed", "m3_target": 100000},
            },
        },
    ]
    for _ in range(n_hands):
        h = random_hand(g, rnd)
        g.add(h)
        evs.append({"t": "hand", "g": 1, "h": h})
    return evs, g


def good_device(evs, page_hook=None, hello=HELLO, cap=50):
    def answer(req, line):
        if not isinstance(req, dict) or "op" not in req:
            return b'{"id":null,"error":"not a request"}\n'
        if req["op"] == "hello":
            return reply(req, **dict(hello, last_seq=len(evs)))
        if req["op"] == "events":
            a, n = req["after"], min(req["limit"], cap)
            page = [[i + 1, evs[i]] for i in range(a, min(a + n, len(evs)))]
            if page_hook:
                out = page_hook(req, page)
                if out is not None:
                    return out
            return reply(req, ok=True, epoch=0, last_seq=len(evs), ev=page)
        if req["op"] == "bye":
            return reply(req, ok=True)
        return reply(req, error="unknown op")

    return answer


def run(*args):
    return subprocess.run([KNOCKBOX] + list(args), capture_output=True, text=True, timeout=60)


def failed(p, *words):
    assert p.returncode == 1, p.stdout + p.stderr
    assert p.stderr.startswith("knockbox: ") or "\nknockbox: " in p.stderr, p.stderr
    assert "Traceback (most recent call last):\n" not in p.stderr, p.stderr
    for w in words:
        assert w in p.stderr, p.stderr
    return p
