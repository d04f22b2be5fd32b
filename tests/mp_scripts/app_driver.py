# Drives the real firmware app (knockfw.app.App on the simulated board, flash on a RAM littlefs)
# with a script of button actions on a virtual clock. Used by the firmware tests and benchmarks.
# argv: script.jsonl (one action per line) out_dir flash.img (a fresh or existing littlefs image file). The script is a list of actions:
#   ["press", "a"]  a short press (80 ms) then 120 ms released; ["long", "b"] held 800 ms;
#   ["hold", "up", ms] held for ms; ["shot", "name"] saves the panel to out_dir/name.pbm;
#   ["reboot"] rebuilds the app from the flash (a power cycle between writes);
#   ["wait", ms]; and, as a player watching the screen would do them:
#   ["new", method, [names], start]  start a game from the menu (start as in the game record);
#   ["next"] the next game from the game-over screen (then roles, as "new" gives them);
#   ["hand", HAND] record a hand; ["undo"]; ["edit", i, HAND] correct hand i (0-based);
#   ["blind", [[name, "press"|"long"], ...], tap_ms, long_ms, gap_ms] a hand keyed as a person
#   does without looking (bench/bench_entry.py's model): each press held tap_ms or long_ms, then
#   gap_ms up, no wait for the panel but before the last press (the save): then the panel must
#   show the confirm screen. Prints {"blind": [method, presses, ms from the first press down
#   to the last one's release]}; ["dump"] prints {"dumped": the record of the game on the table}
#   (the store keeps only the newest games in RAM: a long session reads each game so).
# Prints one JSON line: the games on the device, refresh counts, presses and timings.
import gc
import json
import sys
import time

from knockfw import app as A
import simboard as board_sim

from knockfw import screens, text

# Every string drawn during the latest render, as [x, y, w, h, s]: saved beside each screenshot
# so the tests can check that no text runs off the panel or into other text.
boxes = []
_draw = text.draw
_render = screens.draw


def traced_draw(fb, s, x, y, font, color=1):
    w = _draw(fb, s, x, y, font, color)
    boxes.append([x, y, w, font[0], s])  # a face's byte 0: its height (knockfw/text.py)
    return w


def traced_render(*args):
    del boxes[:]
    return _render(*args)


text.draw = traced_draw
screens.draw = traced_render
script = open(sys.argv[1])  # one action per line: the whole list would crowd the small heap
out_dir = sys.argv[2]
# Power cuts: with a 4th argument K, the flash dies at its K-th program or erase (that one is not
# done), as when the battery is pulled; the session ends there and reports what was confirmed.
CUT_AT = int(sys.argv[4]) if len(sys.argv) > 4 else 0


class PowerCut(Exception):
    pass


class CuttingDevice(board_sim.flash.FileBlockDevice):
    ops = 0

    def _tick(self):
        CuttingDevice.ops += 1
        if CUT_AT and CuttingDevice.ops >= CUT_AT:
            raise PowerCut()

    def _program(self, a, buf):
        self._tick()
        super()._program(a, buf)

    def _erase(self, n):
        self._tick()
        super()._erase(n)


board_sim.flash.FileBlockDevice = CuttingDevice
board = board_sim.Board(sim_dir="", flash_path=sys.argv[3])
confirmed = []  # hands whose "Saved" was on the screen before the cut
clock = [1000]
# The panel takes as long as a real one (UC8151: the vendor's times) on the virtual clock,
# so updates during a refresh coalesce as they do on the device.
board.display.now = lambda: clock[0]
board.display.full_ms = 3000
board.display.partial_ms = 600
boot_us = []
dev = None
commit_us = [0, 0, 0]  # loop turns that recorded a change (commit + persist + render):
# count, sum, max (lists of 300 would crowd the heap being measured)
hand_presses = [0, 0, 0]  # presses per "hand" action: count, sum, max
hand_ms = [0, 0, 0]  # button time per "hand" action (virtual clock): count, sum, max
hand_frames = [0, 0, 0]  # panel refreshes per "hand" action


def tally(t, v):
    t[0] += 1
    t[1] += v
    if v > t[2]:
        t[2] = v


presses = 0
method = 0  # the method of the game being played (for the per-hand lines)
busy_us = 0
steps = 0
max_step_us = 0


def run_for(ms):
    global busy_us, steps, max_step_us
    end = clock[0] + ms
    while clock[0] < end:
        clock[0] += 10
        seq = dev.store.last_seq
        t0 = time.ticks_us()
        dev.step(clock[0])
        dt = time.ticks_diff(time.ticks_us(), t0)
        if dev.store.last_seq != seq:
            tally(commit_us, dt)
        busy_us += dt
        steps += 1
        if dt > max_step_us:
            max_step_us = dt


def hold(name, ms, gap=120):
    global presses
    presses += 1
    board.levels[name] = 1
    run_for(ms)
    board.levels[name] = 0
    run_for(gap)


def save(name):
    with open("%s/%s.pbm" % (out_dir, name), "wb") as f:
        dev.display.write_pbm(f)
    with open("%s/%s.json" % (out_dir, name), "w") as f:
        f.write(json.dumps({"boxes": boxes, "mode": dev.ui.mode}))


def boot():
    """Power on: a new App from the flash as it is (the old one must be dropped first)."""
    gc.collect()
    t = time.ticks_us()
    d = A.App(board, clock[0])
    boot_us.append(time.ticks_diff(time.ticks_us(), t))
    return d


def hold_until(name, cond, limit=20000):
    global presses
    presses += 1
    board.levels[name] = 1
    t = 0
    while not cond() and t < limit:
        run_for(10)
        t += 10
    board.levels[name] = 0
    run_for(120)


def act():
    """The activity showing (knockfw.ui): the state of the screen the player looks at."""
    return dev.ui.act


def set_count(v):
    """Key the highlighted count to v blind, as README's "Playing" says a player does: tens on
    another seat's button (held: minus), then a held Up/Down for five, then taps; then, where the
    count stopped at its end, taps until it is v."""
    seat = act().fields[act().cursor]
    cur = lambda: act().counts[seat]  # noqa: E731
    d = v - cur()
    sign = 1 if d >= 0 else -1
    tens = (abs(d) + 2) // 10
    ones = d - sign * 10 * tens  # -7..7
    for _ in range(tens):
        hold(SEAT[(seat + 1) % 3], 80 if sign > 0 else 800)
    if abs(ones) >= 4:
        hold("up" if ones > 0 else "down", 800)
        ones -= 5 if ones > 0 else -5
    n = 0
    while cur() != v and n < 100:
        hold("up" if v > cur() else "down", 80)
        n += 1


def open_menu():
    if dev.ui.mode != "menu":
        hold("up" if dev.game() is not None else "a", 80)


def choose(item):
    open_menu()
    n = 0
    while act().items[act().sel] != item and n < 10:
        hold("down", 80)
        n += 1
    hold("a", 80)


SEAT = ("a", "b", "c")
ROLE_KEYS = (None, ("idle", "dealer"), ("box", "captain"), ("dealer",))


def roles(method, start):
    if dev.ui.mode != "roles":
        return
    for key in ROLE_KEYS[method]:
        hold(SEAT[start[key]], 80)


def new_game(method, names, start):
    choose("new_game")
    while act().method != method:
        hold("down", 80)
    hold("a", 80)
    for seat in range(3):
        if act().cursor != seat:
            hold(SEAT[seat], 80)
        n = 0
        while act().players[seat] != names[seat] and n < 20:
            hold("down", 80)
            n += 1
        hold(SEAT[seat], 80)
    roles(method, start)


def record(h, editing=False):
    if "void" in h:
        if editing:
            hold("b", 80)
        else:
            choose("void_hand")
        hold("a", 80)
        return
    ending = "knock" if "knock" in h else "gin"
    who = h[ending]
    hold(SEAT[who], 800 if ending == "gin" else 80)
    for seat in list(act().fields):
        if act().fields[act().cursor] != seat:
            hold(SEAT[seat], 80)
        set_count(h["counts"][seat])
        hold(SEAT[seat], 80)
    hold("a", 80)


def undo():
    choose("undo_last")
    hold("a", 80)


def edit(i, h):
    choose("edit_hand")
    while act().sel != i:
        hold("up", 80)
    if "void" in h:
        record(h, True)
        return
    hold("a", 80)
    record(h, True)


def play():
    for line in script:
        act = json.loads(line)
        if act[0] == "hand" and CUT_AT:
            print(json.dumps({"in_flight": act[1]}))
        perform(act)


def perform(act):
    global dev, method
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
        while dev.dirty or dev.display.busy():
            run_for(10)
        save(act[1])
    elif op == "new":
        method = act[1]
        new_game(act[1], act[2], act[3])
    elif op == "next":
        hold("a", 80)
        if len(act) > 2:
            roles(act[1], act[2])
    elif op == "hand":
        p0, c0, f0 = presses, clock[0], dev.display.frames
        record(act[1])
        if CUT_AT:  # (only cut sessions are short enough to keep every hand)
            confirmed.append(act[1])
        tally(hand_presses, presses - p0)
        tally(hand_ms, clock[0] - c0)
        tally(hand_frames, dev.display.frames - f0)
        # One line per hand (kept by the host, not on this heap): the bench's median and p90.
        print(json.dumps({"hand_stat": [method, presses - p0, clock[0] - c0]}))
    elif op == "dump":
        print(json.dumps({"dumped": dev.game().record()}))
    elif op == "blind":
        keys, tap, long_ms, gap = act[1:5]
        while dev.dirty or dev.display.busy():  # the hand is played at the table meanwhile
            run_for(10)
        p0, c0 = presses, clock[0]
        for i in range(len(keys)):
            name, kind = keys[i]
            last = i + 1 == len(keys)
            if last:  # the save: once the confirm screen is on the panel
                while dev.dirty or dev.display.busy():
                    run_for(10)
            hold(name, long_ms if kind == "long" else tap, 0 if last else gap)
        print(json.dumps({"blind": [method, presses - p0, clock[0] - c0]}))
        run_for(gap)
    elif op == "undo":
        undo()
    elif op == "edit":
        edit(act[1], act[2])
    elif op == "keys":
        for k in act[1]:
            if k.isupper():
                hold(k.lower(), 800)
            else:
                hold(k, 80)
    elif op == "idle":
        # Nobody touches the buttons: the loop of app.run() powers the board off when it is due.
        end = clock[0] + act[1]
        while clock[0] < end and not board.powered_off:
            run_for(10)
            if dev.should_sleep(clock[0]):
                board.power_off()
                print(json.dumps({"power_off_after_ms": clock[0] - dev.last_input}))
    elif op == "wake":
        # A press powers the Badger up: it boots from flash with that button held.
        board._woke = act[1]
        board.powered_off = 0
        board.levels[act[1]] = 1
        dev = None
        dev = boot()
        run_for(60)
        board.levels[act[1]] = 0
        run_for(120)
    elif op == "settings":
        dev.apply_settings(act[1])
        run_for(20)
    elif op == "ask_erase":
        dev.request_erase(lambda ok: print(json.dumps({"erase_done": ok})))
        run_for(20)
    elif op == "reboot":
        dev = None
        board.display._until = None  # a power cycle ends the panel's refresh too
        dev = boot()
        # what the boot started from: the checkpoint's record (0: none) and the journal's last
        print(json.dumps({"booted": [dev.store.snap_seq, dev.store.last_seq]}))
        run_for(100)


try:
    dev = boot()
    run_for(100)
    play()
except PowerCut:
    print(json.dumps({"cut": CuttingDevice.ops, "confirmed": confirmed}))
    sys.exit(0)
gc.collect()
# One line per game (a single JSON string of all games would not fit the small heap), then totals.
for gid in dev.store.gids():
    g = dev.store.game(gid)
    if g is None:
        continue  # an older game: on flash only
    print(json.dumps({"gid": gid, "record": g.record(), "totals": g.totals, "over": g.over}))
    gc.collect()
print(
    json.dumps(
        {
            "presses": presses,
            "gids": len(dev.store.gids()),
            "ui_modules": sorted(m for m in sys.modules if m.startswith("knockfw.ui")),
            "who": getattr(dev.ui.act, "who", None),
            "flash_ops": CuttingDevice.ops,
            "powered_off": board.powered_off,
            "refreshes": dev.display.frames,
            "fulls": dev.display.fulls,
            "note": dev.ui.note,
            "mode": dev.ui.mode,
            "busy_ms": busy_us // 1000,
            "steps": steps,
            "max_step_us": max_step_us,
            "mem_free": gc.mem_free(),
            "mem_alloc": gc.mem_alloc(),
            "boot_us": boot_us,
            "commit_us": commit_us,
            "hand_presses": hand_presses,
            "hand_ms": hand_ms,
            "hand_frames": hand_frames,
        }
    )
)
