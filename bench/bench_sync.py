"""Syncing 1,000 hands, and the serial link's costs on the device, against the budgets of
bench/README.md (bench/budgets.py: SYNC_S, a sync of SYNC_HANDS hands as a new `knockbox sync`
process against the emulated Pico; DRAIN_S, DRAIN_LINES queued serial lines drained in emulated
time; and the heap an events page holds).

On the emulated Pico (../shared/rp2040-emu, or $RP2040_EMU), a fresh instance:
  - `knockbox deploy --port`, then a journal of HANDS hands (10 games of 100) written by the
    firmware's own Store under the unix port, copied to /data with mpremote while the app is
    stopped, and a reset;
  - the link alone on the Pico (mpremote run): every events page of the journal through
    Link.poll() into a port that takes everything: CPU per record, the longest poll, the
    most heap a page holds (free heap after a collection, at rest minus lowest while paging);
  - `knockbox sync` as a user runs it (a new process, an empty history), 3 times: wall time
    and emulated time from start to exit;
  - 2,000 hostile lines (tests/emu/test_emu_serial.py's garbage) written at once, then a hello:
    emulated time until it is answered.
Emulated times are the RP2040's; wall times depend on how fast the emulator runs here (0.3-0.9x
a Pico, slower on a busy machine: the load average is printed with them).

Without the emulator (or with --sim): the same sync against the firmware under the unix port
behind a pseudo-terminal (the simulator), and the link's CPU per page on the unix port.

    .venv/bin/python bench/bench_sync.py [--sim] [HANDS]
"""

import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import budgets
import emu_device
from emu_device import HAVE_EMU, load_emupico
from kit import mp
from kit.gamegen import random_hand
from test_sync_e2e import FLASH_SCRIPT, KNOCKBOX, SimDevice, ops_for

from knockbox import history
from knockbox.link import serialio
from knockbox.link import sync
from knockcore.game import Game

BUDGET_S = budgets.SYNC_S  # knockbox sync of budgets.SYNC_HANDS hands, wall
DRAIN_BUDGET_S = budgets.DRAIN_S  # budgets.DRAIN_LINES queued lines, emulated
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def device_ops(hands, per_game=100):
    rnd = random.Random(1)
    ops, left = [], hands
    while left > 0:
        g = Game(3, ["Ann", "Bob", "Cy"], {"dealer": 0}, {"preset": "seed", "m3_target": 100000})
        for _ in range(min(per_game, left)):
            g.add(random_hand(g, rnd))
        left -= len(g.hands)
        ops += ops_for(g)
    return ops


# The link alone: every page of the journal through poll() into a port that takes everything.
# Runs on the device (mpremote run, journal at /data/journal.txt) or the unix port (argv[1]).
LINK_SCRIPT = r"""
import gc, io, json, sys, time
from knockcore.proto import EVENTS_MAX
from knockfw import link as L
from knockfw.journal import Journal
from knockfw.store import Store
PATH = "/data/journal.txt"
META = "/data/meta.json"
try:
    PATH, META = sys.argv[1] + "/journal.txt", sys.argv[1] + "/meta.json"
except (AttributeError, IndexError):
    pass

class Port(io.IOBase):
    def __init__(self):
        self.rx = b""
        self.n = 0
    def ioctl(self, req, arg):
        return -1 if req == 10 else (arg if req == 3 else 0)
    def readinto(self, b):
        if not self.rx:
            return 0
        b[0] = self.rx[0]
        self.rx = self.rx[1:]
        return 1
    def write(self, b):
        self.n += len(b)
        return len(b)

class App:
    class board:
        name = "bench"
    settings = {}
    def link_active(self, on):
        pass

st = Store(Journal(PATH), META).load()
app = App()
app.store = st
inp, out = Port(), Port()
lk = L.Link(app, inp, out)
L._kbd = None
lk._ready = lambda t: (inp,) if inp.rx else ()
lk._writable = lambda t: True
gc.collect()
rest = gc.mem_free()
low = rest
after = busy = worst = polls = pages = 0
while after < st.last_seq:
    inp.rx = b'{"id":%d,"op":"events","after":%d}\n' % (pages, after)
    pages += 1
    while inp.rx or lk._page is not None or lk._q:
        t = time.ticks_us()
        lk.poll(0)
        d = time.ticks_diff(time.ticks_us(), t)
        busy += d
        worst = max(worst, d)
        polls += 1
        if polls % 4 == 0:
            gc.collect()
            low = min(low, gc.mem_free())
    after = min(after + EVENTS_MAX, st.last_seq)
print(json.dumps({"records": st.last_seq, "pages": pages, "polls": polls, "bytes": out.n,
                  "busy_ms": busy / 1000, "worst_ms": worst / 1000, "rest": rest, "low": low}))
"""


def write_journal(hands, folder):
    """journal.txt and meta.json in folder, written by the firmware's own Store (unix port)."""
    ops = os.path.join(folder, "ops.jsonl")
    with open(ops, "w", encoding="utf-8") as f:
        for op in device_ops(hands):
            f.write(json.dumps(op, ensure_ascii=False) + "\n")
    r = mp.run_file(FLASH_SCRIPT, [folder, ops], heap="4M", timeout=600)
    if r.returncode != 0:
        raise SystemExit(r.stdout + r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])["last_seq"]


def link_report(d, where):
    print(
        "the link alone (%s): %d records in %d pages (%d KB): %.0f ms of CPU, %.2f ms a "
        "record; longest poll %.1f ms; a page holds %.1f KB of heap between polls (live, "
        "after a collection)"
        % (
            where,
            d["records"],
            d["pages"],
            d["bytes"] // 1024,
            d["busy_ms"],
            d["busy_ms"] / d["records"],
            d["worst_ms"],
            (d["rest"] - d["low"]) / 1024,
        )
    )


# ---- the emulated Pico -----------------------------------------------------------------------


def emu_time(pico):
    return pico.time()["emu_total_s"]


def wait_app(port, timeout=120):
    """Until the app answers hello on the port (it is booted)."""
    import serial

    end = time.time() + timeout
    rid = 7000
    while time.time() < end:
        rid += 1
        try:
            with serial.Serial(port, timeout=0.2) as s:
                s.write(b'\n{"id":%d,"op":"hello"}\n' % rid)
                buf, t = b"", time.time()
                while time.time() - t < 3:
                    buf += s.read(4096)
                    if b'"id": %d' % rid in buf or b'"id":%d' % rid in buf:
                        s.write(b'{"id":%d,"op":"bye"}\n' % (rid + 1))
                        time.sleep(0.2)
                        return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit("the app never answered on %s" % port)


def drain(pico, port):
    import serial

    from test_emu_serial import garbage

    lines = garbage(random.Random(9))
    data = b"".join(lines)
    with serial.Serial(port, timeout=0.05, write_timeout=600) as s:
        s.reset_input_buffer()
        e0 = emu_time(pico)
        s.write(data + b'\n{"id":424242,"op":"hello"}\n')
        buf, end = b"", time.time() + 900
        while b'"id": 424242' not in buf and time.time() < end:
            buf += s.read(65536)
        e1 = emu_time(pico)
        s.write(b'{"id":424243,"op":"bye"}\n')
        time.sleep(0.3)
    return len(lines), len(data), e1 - e0


def main_emu(hands):
    emupico = load_emupico()
    tmp = tempfile.mkdtemp(prefix="knockbox-bench-sync-")
    pico = emupico.Pico(os.path.join(tmp, "pico"))
    try:
        pico.start("--fresh", "--wait", "repl", "--timeout", "120")
        port = pico.tty
        p = subprocess.run([KNOCKBOX, "deploy", "--port", port], capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(p.stdout + p.stderr)
        records = write_journal(hands, tmp)
        p = subprocess.run(
            [
                MPREMOTE,
                "connect",
                port,
                "fs",
                "cp",
                os.path.join(tmp, "journal.txt"),
                ":/data/journal.txt",
                "+",
                "fs",
                "cp",
                os.path.join(tmp, "meta.json"),
                ":/data/meta.json",
            ],
            capture_output=True,
            text=True,
        )
        if p.returncode != 0:
            raise SystemExit(p.stdout + p.stderr)
        script = os.path.join(tmp, "link_bench.py")
        with open(script, "w") as f:
            f.write(LINK_SCRIPT)
        p = subprocess.run(
            [MPREMOTE, "connect", port, "run", script], capture_output=True, text=True, timeout=600
        )
        if p.returncode != 0:
            raise SystemExit(p.stdout + p.stderr)
        link = json.loads(p.stdout.strip().splitlines()[-1])
        pico.reset()
        wait_app(port)
        print(
            "hands on the emulated Pico: %d in %d games (%d journal records)"
            % (hands, (hands + 99) // 100, records)
        )
        link_report(link, "emulated RP2040")
        walls = []
        for i in range(3):
            db = os.path.join(tmp, "h%d.sqlite3" % i)
            load = os.getloadavg()[0]
            e0, t0 = emu_time(pico), time.perf_counter()
            p = subprocess.run(
                [KNOCKBOX, "sync", "--port", port, "--db", db], capture_output=True, text=True
            )
            wall, emu = time.perf_counter() - t0, emu_time(pico) - e0
            if p.returncode != 0:
                raise SystemExit(p.stderr)
            walls.append(wall)
            print(
                "knockbox sync (new process): %.2f s wall, %.2f s emulated (load average "
                "%.1f)" % (wall, emu, load)
            )
        print(
            "budget:                      %.1f s wall  -> best %.2f s: %s"
            % (BUDGET_S, min(walls), "ok" if min(walls) <= BUDGET_S else "OVER")
        )
        n, size, emu = drain(pico, port)
        print(
            "%d hostile lines (%d KB) queued at once, then hello: answered after %.1f s "
            "emulated (budget %.0f s: %s)"
            % (n, size // 1024, emu, DRAIN_BUDGET_S, "ok" if emu <= DRAIN_BUDGET_S else "OVER")
        )
    finally:
        pico.stop(check=False, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


# ---- the unix port (the simulator) -----------------------------------------------------------


def main_sim(hands):
    tmp = tempfile.mkdtemp(prefix="knockbox-bench-sync-")
    try:
        dev = SimDevice(os.path.join(tmp, "sim"))
        head = dev.write(device_ops(hands))
        dev.start()
        try:
            db = os.path.join(tmp, "cli.sqlite3")
            t = time.perf_counter()
            p = subprocess.run(
                [KNOCKBOX, "sync", "--port", dev.port, "--db", db], capture_output=True, text=True
            )
            cli = time.perf_counter() - t
            if p.returncode != 0:
                raise SystemExit(p.stderr)
            t = time.perf_counter()
            with serialio.Connection(dev.port) as conn:
                s = sync.Sync(
                    conn, history.History(os.path.join(tmp, "lib.sqlite3")), io.StringIO()
                ).run()
                conn.bye()
            inproc = time.perf_counter() - t
        finally:
            dev.stop()
        print(
            "hands on the simulated device: %d in %d games (%d journal records)"
            % (hands, (hands + 99) // 100, head["last_seq"])
        )
        print("knockbox sync (new process): %.3f s" % cli)
        print(
            "sync in-process:             %.3f s  (%d records, %d games)"
            % (inproc, s.new_events, s.results["new"])
        )
        jdir = os.path.join(tmp, "journal")
        os.makedirs(jdir)
        write_journal(hands, jdir)
        r = mp.run(LINK_SCRIPT.replace("sys.argv[1]", repr(jdir)), heap="4M", timeout=600)
        if r.returncode != 0:
            raise SystemExit(r.stdout + r.stderr)
        link_report(json.loads(r.stdout.strip().splitlines()[-1]), "unix port")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    hands = int(args[0]) if args else budgets.SYNC_HANDS
    if "--sim" in sys.argv or not HAVE_EMU:
        if not HAVE_EMU:
            print("no emulated Pico (%s): the simulator instead" % emu_device.EMU)
        main_sim(hands)
    else:
        main_emu(hands)


if __name__ == "__main__":
    main()
