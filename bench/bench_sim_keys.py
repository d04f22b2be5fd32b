"""Scripted keys are never lost: a script of presses typed into `knockbox simulate --no-tty` at
once (ahead of the firmware's boot), played by the real firmware while CPU-bound processes keep
both cores busy; the games read back through `knockbox sync` over the printed serial port must be
exactly the ones typed. Every hand's counts are made of Up presses (some taken back with Down),
so one lost or doubled press shows.

    .venv/bin/python bench/bench_sim_keys.py [--presses 2000] [--runs 3] [--hogs 2] [--seed 1]

Prints one line per run (presses, hands, seconds, frames, result) and a summary; exits 1 if any
run recorded something other than what was typed. A run of 2,000 presses takes about 8 minutes
(each press is 120 ms down and 100 ms up in the firmware's time).
"""

import argparse
import os
import shutil
import sys

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
from test_simulate_firmware import (
    OUT,
    first_difference,
    play_stress,
    script_ms,
    stress_script,
)

SIM_DIR = os.path.join(OUT, "bench_sim_keys")  # the simulated device (wiped at each run)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presses", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--hogs", type=int, default=2, help="CPU-bound processes alongside")
    ap.add_argument("--seed", type=int, default=1, help="first run's script (then +1 a run)")
    ap.add_argument(
        "--hold",
        type=int,
        default=None,
        metavar="MS",
        help="every press NAME hold MS (default: plain taps, 120 ms)",
    )
    ap.add_argument("--keep", action="store_true", help="keep each run's folder")
    args = ap.parse_args(argv)
    print(
        "bench_sim_keys: %d presses a run, %d CPU hog(s), %d CPU(s)"
        % (args.presses, args.hogs, os.cpu_count() or 0)
    )
    bad = 0
    total = 0
    for run in range(args.runs):
        keys, records = stress_script(args.presses, seed=args.seed + run, hold_ms=args.hold)
        hands = sum(len(r["hands"]) for r in records)
        r = play_stress(keys, records, SIM_DIR, hogs=args.hogs)
        total += r["presses"]
        verdict = "exact" if r["ok"] else "DIFFERENT: " + first_difference(r["expected"], r["got"])
        bad += not r["ok"]
        names = [k.split()[0] for k in keys]
        print(
            "run %d: %d presses (%d Up, %d Down), %d games, %d hands; planned %.0f s, took "
            "%.0f s, %d frames; %s"
            % (
                run + 1,
                r["presses"],
                names.count("up"),
                names.count("down"),
                len(records),
                hands,
                script_ms(keys) / 1000.0,
                r["seconds"],
                r["frames"],
                verdict,
            ),
            flush=True,
        )
        if args.keep or not r["ok"]:
            print("  history kept: %s (device: %s)" % (r["dir"], SIM_DIR))
        else:
            shutil.rmtree(r["dir"], ignore_errors=True)
    print("summary: %d runs, %d presses, %d run(s) with a difference" % (args.runs, total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
