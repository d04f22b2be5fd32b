"""Presses are never lost, on the emulated Badger 2040: 200 quick taps (60 ms) at random moments,
without waiting for the panel, across several hands: during the saves, during the renders (the
panel's BUSY is held for a real refresh time after each refresh command) and while
`knockbox sync` runs again and again. Every hand's counts are made of taps only (the knocker's
Downs from the knock limit, the others' tens on another seat's button and ones on Up), so the
hands read back from the journal show each press acted on once: a lost tap makes a count short
or the hand wrong, a doubled one makes it long. Then the flash chip's worst case (`--flash-timing max`),
on both boards: whole games of each method tapped as quickly, through saves, checkpoints and a
sync, recorded exactly."""

import json
import random
import threading

import pytest
from emu_plan import Planner

PLAYERS = ["Ann", "Bob", "Cy"]
TAPS = 200
TAP_MS = 60


def tapped(cost, rng=None):
    """A count of another player keyed with `cost` taps (at most 8) and no held press (README
    "Playing": the tens on another seat's button, then at most 3 Ups): random if rng, else the
    tens first."""
    ones = min(cost, rng.randint(0, 3) if rng else max(0, cost - 7))
    return 10 * (cost - ones) + ones


def hands(rng, taps):
    """Knock hands of method 3 keyed with `taps` taps in all and no held press: the knocker's
    count 7 to 10 (Down taps from 10), the others' tapped(). Each hand costs 5 taps (the knock,
    three moves on, the save) and its counts'."""
    out, n = [], 0

    def hand(k, a, b):
        who = len(out) % 3
        c = [0, 0, 0]
        c[who], c[(who + 1) % 3], c[(who + 2) % 3] = k, a, b
        out.append({"knock": who, "counts": c})

    while n + 18 + 21 <= taps:
        k, a, b = rng.randint(7, 10), rng.randint(0, 5), rng.randint(0, 5)
        hand(k, tapped(a, rng), tapped(b, rng))
        n += 5 + (10 - k) + a + b
    rest = taps - n  # 21 at least: hands of 5 to 21 taps take it
    while rest:
        cost = rest if rest <= 21 else min(21, rest - 5)
        a = min(8, cost - 5)
        hand(10, tapped(a), tapped(cost - 5 - a))
        rest -= cost
    return out


def test_200_quick_taps_none_lost_none_doubled(device_factory):
    rng = random.Random(4242)
    dev = device_factory(busy_ms=600)  # the UC8151's fast refresh holds BUSY 0.6 s here
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


# ---- the flash's worst case: the quick player through three whole games
RULES = {"preset": "seed", "target": 30, "m3_target": 40}  # short games
GAMES = [  # (method, start, hands): knocks, gins (long presses), a void hand
    (
        1,
        {"idle": 2, "dealer": 0},
        [{"knock": 0, "counts": [1, 2, None]}, {"gin": 0, "counts": [0, None, 4]}],
    ),
    (
        2,
        {"box": 1, "captain": 0},
        [{"void": True}, {"knock": 1, "counts": [3, 1, None]}, {"gin": 1, "counts": [None, 0, 3]}],
    ),
    (3, {"dealer": 2}, [{"knock": 1, "counts": [2, 1, 1]}, {"gin": 2, "counts": [1, 2, 0]}]),
]
LONG_MS = 800
PAUSE_MS = 2050  # the app checkpoints once the buttons are left alone 2 s: taps go on in it


@pytest.mark.parametrize("board", ["badger", "pico-epd"])
def test_quick_player_at_the_flash_worst_case(device_factory, board):
    """--flash-timing max (the W25Q16JV's worst case: 400 ms a sector erased, the CPU stalled):
    a game of each method tapped at 60 ms, 60 ms apart, never waiting for the panel, through
    the saves (quick appends, and the merges their erases), a checkpoint after each game (the
    next game's taps start inside its erases) and a `knockbox sync` during the second game.
    The journal holds exactly the changes planned: no tap lost, none doubled. (With the pins'
    IRQs instead of the DMA sampler, the first game is already wrong.)"""
    dev = device_factory(board=board, busy_ms=600, flash_timing="max")
    assert dev.wait_refresh(0, 120)
    dev.wait_quiet(300)
    dev.push("--rules", json.dumps(RULES))
    dev.wait_quiet(700)

    games, planned = plan_games()
    syncs = []

    def sync_once():
        syncs.append(dev.sync(check=False, timeout=180))

    t = threading.Thread(target=sync_once, daemon=True)
    for i, presses in enumerate(games):
        for j, (name, kind) in enumerate(presses):
            if i == 1 and j == 2:
                t.start()  # a sync while the second game is tapped
            dev.press(name, LONG_MS if kind == "long" else TAP_MS)
            dev.sleep(TAP_MS)
        dev.sleep(PAUSE_MS)
    t.join(180)
    dev.wait_quiet(1000)

    got = recorded(dev)
    assert syncs and syncs[0].returncode == 0, syncs and syncs[0].stdout + syncs[0].stderr
    assert got == planned, "recorded %r\nplanned %r" % (got, planned)


def plan_games():
    """GAMES planned: (each game's presses, every change the UI makes of them, as the store
    records it)."""
    p = Planner({"rules": RULES})
    planned = []
    handle = p.ui.handle

    def recording(ev, game, settings):
        out = handle(ev, game, settings)
        planned.extend(e for e in out or () if type(e) is dict)
        return out

    p.ui.handle = recording
    games = []
    for method, start, hands in GAMES:
        a = len(p.presses)
        p.new_game(method, PLAYERS, start)
        for h in hands:
            p.hand(h)
        assert p.game.over
        games.append(p.presses[a:])
    return games, planned


def recorded(dev):
    """The changes the device's journal holds (read over the serial protocol), as planned."""
    return [
        dict((k, v) for k, v in e.items() if k != "g")
        for _s, e in dev.journal()
        if e["t"] != "epoch"
    ]
