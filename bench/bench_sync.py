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


def main():
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    tmp = tempfile.mkdtemp(prefix="knockbox-bench-sync-")
    dev = SimDevice(os.path.join(tmp, "sim"), preimport_link=True)
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


if __name__ == "__main__":
    main()
