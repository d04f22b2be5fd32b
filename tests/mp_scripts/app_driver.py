# Drives the real firmware app (knockfw.app.App on the simulated board, flash on a RAM littlefs)
# with a script of button actions on a virtual clock. Used by the firmware tests and benchmarks.
# argv: script.json out_dir flash.img (a fresh or existing littlefs image file). The script is a list of actions:
#   ["press", "a"]  a short press (80 ms) then 120 ms released; ["long", "b"] held 800 ms;
#   ["hold", "up", ms] held for ms; ["shot", "name"] saves the panel to out_dir/name.pbm;
#   ["reboot"] rebuilds the app from the flash (a power cycle between writes);
#   ["wait", ms].
# Prints one JSON line: the games on the device, refresh counts, presses and timings.
import gc
import json
import sys
import time

from knockfw import app as A
from knockfw import board_sim

script = json.load(open(sys.argv[1]))
out_dir = sys.argv[2]
board = board_sim.Board(sim_dir="", flash_path=sys.argv[3])
clock = [1000]
dev = A.App(board, clock[0])
presses = 0
busy_us = 0
steps = 0
max_step_us = 0


def run_for(ms):
    global busy_us, steps, max_step_us
    end = clock[0] + ms
    while clock[0] < end:
        clock[0] += 10
        t0 = time.ticks_us()
        dev.step(clock[0])
        dt = time.ticks_diff(time.ticks_us(), t0)
        busy_us += dt
        steps += 1
        if dt > max_step_us:
            max_step_us = dt


def hold(name, ms):
    global presses
    presses += 1
    board.levels[name] = 1
    run_for(ms)
    board.levels[name] = 0
    run_for(120)


def save(name):
    with open("%s/%s.pbm" % (out_dir, name), "wb") as f:
        f.write(b"P4\n296 128\n")
        f.write(dev.display.buf)


run_for(100)
for act in script:
    op = act[0]
    if op == "press":
        hold(act[1], 80)
    elif op == "long":
        hold(act[1], 800)
    elif op == "hold":
        hold(act[1], act[2])
    elif op == "wait":
        run_for(act[1])
    elif op == "shot":
        run_for(20)
        save(act[1])
    elif op == "reboot":
        dev = A.App(board, clock[0])
        run_for(100)
gc.collect()
games = []
for gid in dev.store.gids():
    g = dev.store.game(gid)
    games.append({"gid": gid, "record": g.record(), "totals": g.totals, "over": g.over})
print(json.dumps({"games": games, "presses": presses, "refreshes": dev.display.frames,
                  "fulls": dev.display.fulls, "msg": dev.ui.msg, "mode": dev.ui.mode,
                  "busy_ms": busy_us // 1000, "steps": steps, "max_step_us": max_step_us,
                  "mem_free": gc.mem_free(), "mem_alloc": gc.mem_alloc()}))
