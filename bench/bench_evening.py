"""What the Evening screen costs on the emulated Pico (bench/README.md): opening it for an evening of 10
finished games (about 100 hands: the store keeps up to two games in RAM, the others are replayed
from the journal with the rules core), in emulated RP2040 time, Badger 2040 build. Also the boot
with that journal (the store finds the current evening at boot) and the heap while the screen is
open.

    .venv/bin/python bench/bench_evening.py [--image FLASH.img] [--games 10] [--opens 4]

The journal is written on the laptop by the firmware's own store under the MicroPython unix port
(a first evening of 6 games, "New evening", then the evening measured and a game still being
played), copied to /data with mpremote; the firmware is deployed with `knockbox deploy` into a
fresh instance unless --image gives a flash image that has it (bench/bench_pico.py's helpers).
Measured: A released on the menu's "Evening" -> the panel's refresh command (the press a player
makes; the module is imported each time, as it is forgotten when left), and, at the REPL, the
parts: the store's sums (knockfw.ui_evening.tally) and the drawing; then the same with 100 KB of
the heap held from the start.
"""

import os
import random
import shutil
import sys
import time

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import bench_pico as P
import budgets
import emu_device
from kit.gamegen import random_start
from knockcore.game import Game

BUDGET_MS = budgets.EVENING_S * 1000  # "well under" it
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]

PARTS = r"""
import gc, time
gc.collect()
from knockfw import app as A, board as B, screens
from knockfw.ui_evening import tally
a = A.App(B.load())
for i in range(30):  # the loop of app.run(): boot, the first screen, what comes after it
    a.step(time.ticks_ms())
    time.sleep_ms(10)
gc.collect()
free0 = gc.mem_free()
t0 = time.ticks_us()
led, n, run = tally(a.store)
t1 = time.ticks_us()
a.ui.open("evening", a.game(), a.settings)
t2 = time.ticks_us()
screens.draw(a.display, a.ui, a.game(), a.settings)
t3 = time.ticks_us()
free1 = gc.mem_free()
gc.collect()
print("PARTS", n, time.ticks_diff(t1, t0), time.ticks_diff(t2, t1), time.ticks_diff(t3, t2),
      free0, free1, gc.mem_free(), len(a.ui.act.pages))
"""


def hand(g, rnd):
    # hands a table plays: a knock of 0..10 (a gin now and then), the others 5..45
    s = rnd.choice(g.active)
    counts = [None, None, None]
    for i in g.active:
        counts[i] = rnd.randint(5, 45)
    if rnd.random() < 0.15:
        counts[s] = 0
        return {"gin": s, "counts": counts}
    if rnd.random() < 0.05:
        return {"void": True}
    counts[s] = rnd.randint(0, 10)
    return {"knock": s, "counts": counts}


def make_journal(d, before, games, seed=11):
    rnd = random.Random(seed)
    ops, hands = [], 0
    for k in range(before + games + 1):
        if k == before:
            ops.append(["evening"])
        method = (k % 3) + 1
        players = [NAMES[(k + i) % len(NAMES)] for i in range(3)]
        start = random_start(method, rnd)
        g = Game(method, players, start, {"preset": "seed"})
        ops.append(
            [
                "new",
                {"method": method, "players": players, "start": start, "rules": {"preset": "seed"}},
            ]
        )
        last = k == before + games
        while not g.over and not (last and len(g.hands) >= 3):
            h = hand(g, rnd)
            g.add(h)
            ops.append(["hand", h])
            hands += k >= before
        if last and g.over:
            raise SystemExit("the running game ended: another seed")
    info = P.write_journal(d, ops)
    info["hands"] = hands
    return info


def measure(emu, image, work, jdir, opens):
    dev = emu_device.Device(emu, os.path.join(work, "evening"), image).start()
    times = []
    try:
        dev.wait_refresh(0, 300)
        dev.wait_quiet(300)
        P.put_journal(dev, jdir)
        boot = [f.t_us for f in dev.frames().frames if f.boot == dev.boot()]
        for _ in range(opens):
            # the menu of a game being played: Up from the top is Back, then New evening, Evening
            missed = dev.act([("up", "press"), ("up", "press"), ("up", "press"), ("up", "press")])
            if missed:
                raise SystemExit("presses unanswered on the way to the menu: %r" % missed)
            dev.wait_quiet(300)
            n = dev.refreshes()
            r = dev.press("a", 100)
            if not dev.wait_refresh(n, emu_ms=5000):
                raise SystemExit("the Evening screen never came: " + P.last_words(dev))
            dev.wait_quiet(300)
            times.append((dev.last_release[1], r["release_us"]))
            dev.act([("c", "press")])
            dev.wait_quiet(300)
        frames = dev.frames().frames
        out = P.mpremote(dev, "exec", PARTS, timeout=300)
        # the app with 100 KB held from the start (bench_pico's main.py): the Evening screen
        # opened (the budget: >= 100 KB free at every point)
        main = os.path.join(work, "main_ballast.py")
        with open(main, "w") as f:
            f.write(P.BALLAST_MAIN)
        P.mpremote(dev, "fs", "cp", main, ":/main.py")
        held = None
        try:
            dev.reset_and_wait(timeout=60)
            dev.wait_quiet(300)
            missed = dev.act([("up", "press")] * 4 + [("a", "press")])
            dev.wait_quiet(300)
            held = "yes" if not missed else "no: " + P.last_words(dev)
        except AssertionError:
            held = "no, the app did not boot: " + P.last_words(dev)
    finally:
        dev.stop()
    opened = [
        P.refresh_after(frames, b, t) / 1000
        for b, t in times
        if P.refresh_after(frames, b, t) is not None
    ]
    parts = [x for x in out.splitlines() if x.startswith("PARTS")]
    return (
        (boot[0] / 1000 if boot else None),
        opened,
        (parts[-1].split()[1:] if parts else None),
        held,
    )


def main():
    args = sys.argv[1:]
    image = P.option(args, "--image")
    games = int(P.option(args, "--games", 10))
    opens = int(P.option(args, "--opens", 4))
    started = P.start("bench_evening")
    if started is None:
        return 0
    emupico, work = started
    try:
        t = time.time()
        jdir = os.path.join(work, "j")
        info = make_journal(jdir, 6, games)
        if image is None:
            image = P.deploy(emupico, work)
        boot, opened, parts, held = measure(emupico, image, work, jdir, opens)
        print(
            "The Evening screen, emulated RP2040 time, Badger 2040 build (journal: %d records; "
            "the evening: %d finished games, %d hands, and a game being played):"
            % (info["last_seq"], games, info["hands"])
        )
        P.say(
            "Evening screen: A released -> refresh (median)",
            P.med(opened),
            BUDGET_MS,
            extra="max %.0f ms over %d opens" % (max(opened or [0]), len(opened)),
        )
        P.say("reset -> first refresh with this journal", boot, budgets.BOOT_MS)
        if parts:
            n, tally_us, open_us, draw_us, free0, free1, free2, pages = (int(v) for v in parts)
            print(
                "  at the REPL: %d games summed in %.0f ms (all but the newest in RAM "
                "replayed from the journal), opening %.0f ms (imports, the sums again), "
                "drawing %.0f ms, %d pages; heap free %.1f KB before, %.1f KB with the screen "
                "open (%.1f after a collection)"
                % (
                    n,
                    tally_us / 1000,
                    open_us / 1000,
                    draw_us / 1000,
                    pages,
                    free0 / 1024,
                    free1 / 1024,
                    free2 / 1024,
                )
            )
        print(
            "%-46s %9s     (boot with this journal, the menu, the Evening screen)"
            % (">= 100 KB free at every point (100 KB held)", held)
        )
        print("(%.0f s wall)" % (time.time() - t))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
