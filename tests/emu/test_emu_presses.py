"""Presses are never lost, on the emulated Badger 2040: 200 quick taps (60 ms) at random moments,
without waiting for the panel, across several hands: during the saves, during the renders (the
panel's BUSY is held for a real refresh time after each refresh command) and while
`knockbox sync` runs again and again. Every hand's counts are made of Up taps only, so the hands
read back from the journal show each press acted on once: a lost tap makes a count short or the
hand wrong, a doubled one makes it long."""
import json
import random
import threading

from emu_plan import Planner

PLAYERS = ["Ann", "Bob", "Cy"]
TAPS = 200
TAP_MS = 60


def hands(rng, taps):
    """Knock hands of method 3 whose presses add up to `taps` (a knocker's count is 1 at least:
    a knock at 0 is gin)."""
    out, n = [], 0
    while True:
        who = len(out) % 3
        c = [rng.randint(8, 24), rng.randint(8, 24), rng.randint(8, 24)]
        c[who] = rng.randint(1, 10)
        cost = 5 + sum(c)  # knock, three cursor moves, the save
        if n + cost + 6 > taps:     # the last hand takes the rest: 6 taps at least
            c = [0, 0, 0]
            c[who] = 1
            c[(who + 1) % 3] = taps - n - 6
            out.append({"knock": who, "counts": c})
            return out
        out.append({"knock": who, "counts": c})
        n += cost


def test_200_quick_taps_none_lost_none_doubled(device_factory):
    rng = random.Random(4242)
    dev = device_factory(busy_ms=600)  # the UC8151's fast refresh holds BUSY ~0.6 s
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    dev.push("--rules", json.dumps({"preset": "seed", "m3_target": 5000}))  # no game over
    p = Planner({"rules": {"preset": "seed", "m3_target": 5000}})
    p.new_game(3, PLAYERS, {"dealer": 0})
    assert dev.act(p.presses) == []
    dev.wait_quiet(700)

    plan = hands(rng, TAPS)
    a = len(p.presses)
    for h in plan:
        p.hand(h)
    taps = p.presses[a:]
    assert len(taps) == TAPS and all(k == "press" for _n, k in taps)

    stop = threading.Event()
    syncs = []

    def sync_again_and_again():
        while not stop.is_set():
            r = dev.sync(check=False, timeout=120)
            syncs.append(r.returncode)
            stop.wait(1.0)

    # taps at random moments: gaps of 40-200 ms, some right after a save, none waits for the
    # panel; a sync runs during the middle half
    t = threading.Thread(target=sync_again_and_again, daemon=True)
    for i, (name, _k) in enumerate(taps):
        if i == TAPS // 4:
            t.start()
        if i == 3 * TAPS // 4:
            stop.set()
        dev.press(name, TAP_MS)
        dev.sleep(rng.uniform(40, 200))
    stop.set()
    t.join(180)
    dev.wait_quiet(1000)

    got = [e["h"] for _s, e in dev.journal() if e["t"] == "hand"]
    assert syncs and 0 in syncs, "no sync ran to the end during the taps: %r" % syncs
    assert got == plan, "hands recorded %r\nhands tapped %r" % (got, plan)
