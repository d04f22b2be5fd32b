"""Power cuts on the emulated Badger 2040: the chip is reset (RUN) at random moments around the
saves of a game's hands, and the next hand is entered as soon as the panel shows the scoreboard
again. Read back over the serial port, the journal holds every hand whose "saved" screen was sent
to the panel before the cut, the hand in flight whole or not at all, and nothing else (an *undo*
was once journaled when the first press after such a boot was lost)."""

import random
import threading
import time

from emu_plan import Planner

PLAYERS = ["Ann", "Bob", "Cy"]


def hands(n):
    """Distinct knock hands of method 3 that take few presses (counts of 0..2; the knocker's 1:
    a knock at 0 is gin)."""
    out = []
    for k in range(n):
        c = [0, 0, 0]
        who = k % 3
        c[who] = 1
        c[(who + 1) % 3] = 1 + (k // 3) % 2
        c[(who + 2) % 3] = k // 6
        out.append({"knock": who, "counts": c})
    return out


def test_power_cuts_around_saves(device):
    rng = random.Random(20261201)
    assert device.wait_refresh(0, 120)
    device.wait_quiet(300)
    p = Planner()
    p.new_game(3, PLAYERS, {"dealer": 0})
    assert device.act(p.presses) == []

    plan = hands(7)
    rounds = []  # (boot, emulated time the save press ended, delay before the cut or None)
    lag = [20.0]  # emulated ms from asking for a press to its start
    for k, h in enumerate(plan):
        a = len(p.presses)
        p.hand(h)
        presses = p.presses[a:]
        assert presses[-1] == ("a", "press")  # the save, on the confirm screen
        missed = device.act(presses[:-1])
        assert missed == [], "after the cut before hand %d, presses %r went unanswered" % (
            k + 1,
            [presses[i] for i in missed],
        )
        boot = device.boot()
        done = []
        t0 = device.emu_ms()
        save = threading.Thread(target=lambda done=done: done.append(device.press("a", 100)))
        save.start()  # the save: A held 100 ms, acted on at its release
        if k == len(plan) - 1:
            save.join()
            rounds.append((boot, done[0]["release_us"], None))
            break
        # the cut, in emulated ms after the press began (which is `lag` after t0, as the last
        # presses tell): half of them from just before the release through the journal write
        # to the refresh command, the others after it
        delay = rng.uniform(95, 140) if k % 2 == 0 else rng.uniform(140, 300)
        while device.emu_ms() < t0 + lag[0] + delay:
            time.sleep(0.002)
        device.reset_and_wait()
        save.join()
        start = done[0]["start_emu_us"] / 1000
        lag[0] = (lag[0] + (start - t0)) / 2
        rounds.append((boot, done[0]["release_us"], delay))
    device.wait_quiet(500)

    frames = device.frames().frames
    saved = [any(f.boot == b and f.t_us >= t for f in frames) for b, t, _d in rounds]
    journal = device.journal()
    kinds = [e["t"] for _seq, e in journal]
    assert kinds.count("game") == 1 and set(kinds) <= {"epoch", "game", "hand"}, journal
    got = [e["h"] for _seq, e in journal if e["t"] == "hand"]
    # got must be the planned hands in order, each present or absent, the saved ones present
    i = 0
    for k, h in enumerate(plan):
        if i < len(got) and got[i] == h:
            i += 1
        elif saved[k]:
            raise AssertionError(
                "hand %d was shown saved (cut %.0f ms into the press) but is "
                "not in the journal: %r" % (k + 1, rounds[k][2] or 0, got)
            )
    assert i == len(got), "the journal holds hands never entered: %r" % (got,)
    assert got and got[-1] == plan[-1]  # the last hand, without a cut, is there
    print(
        "cuts: %d (%s ms after the save press began), shown saved before the cut: %d, "
        "in flight kept: %d"
        % (
            len(plan) - 1,
            ", ".join("%.0f" % r[2] for r in rounds[:-1]),
            sum(saved[:-1]),
            len(got) - 1 - sum(saved[:-1]),
        )
    )
