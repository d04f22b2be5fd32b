"""The whole firmware through its buttons, on the 192 KB heap: complete games in all three methods,
undo and corrections, reboots; what the device holds equals what `knockbox replay` computes."""

import os
import random

import pytest

from kit import device
from kit import gamegen
from kit import mp
from kit import worked
from knockcore.game import Game, from_record

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "firmware")
WORKED = {method: worked.game(method) for method in (1, 2, 3)}  # docs/RULES.md's, (start, hands)
NAMES = ["Ann", "Bob", "Cy"]


def replay(method, start, hands):
    return from_record(
        {
            "method": method,
            "players": NAMES,
            "start": start,
            "rules": {"preset": "seed"},
            "hands": hands,
        }
    ).standings()


def check_same(dev_game, method, start, hands):
    rec = dev_game["record"]
    assert rec["method"] == method and rec["start"] == start and rec["players"] == NAMES
    assert rec["hands"] == hands
    want = replay(method, start, hands)
    assert dev_game["totals"] == want["totals"] and dev_game["over"] == want["over"]
    # The device's own standings fold equals the CPython replay of the same record.
    assert from_record(rec).standings() == want


@pytest.mark.parametrize("method", [1, 2, 3])
def test_worked_example_through_the_buttons(method):
    start, hands = WORKED[method]
    out = os.path.join(OUT, "worked%d" % method)
    acts = [["new", method, NAMES, start]] + [["hand", h] for h in hands] + [["shot", "over"]]
    r = device.run_script(acts, out)
    assert len(r["games"]) == 1
    check_same(r["games"][0], method, start, hands)
    assert r["games"][0]["over"]
    device.pbm_to_png(os.path.join(out, "over.pbm"), os.path.join(out, "over.png"))
    # The game-over screen is on the panel: the winner's final total is drawn in large digits.
    assert r["mode"] == "score"


def random_hands(method, start, seed, n):
    rnd = random.Random(seed)
    g = Game(method, NAMES, start, {"preset": "seed"})
    hands = []
    while not g.over and len(hands) < n:
        h = gamegen.random_hand(g, rnd)
        g.add(h)
        hands.append(h)
    return hands


@pytest.mark.parametrize("method", [1, 2, 3])
def test_random_game_then_next_game(method):
    rnd = random.Random(method)
    start = gamegen.random_start(method, rnd)
    hands = random_hands(method, start, method * 11, 40)
    acts = [["new", method, NAMES, start]] + [["hand", h] for h in hands]
    over = replay(method, start, hands)["over"]
    if over:
        if method == 2:
            nxt = replay(method, start, hands)["next_game"]
            acts.append(["next"])
        else:
            nxt = gamegen.random_start(method, rnd)
            acts.append(["next", method, nxt])
        acts.append(["hand", {"void": True}])
    r = device.run_script(acts, os.path.join(OUT, "random%d" % method), timeout=600)
    check_same(r["games"][0], method, start, hands)
    if over:
        assert len(r["games"]) == 2
        check_same(r["games"][1], method, nxt, [{"void": True}])
        if method == 2:  # the next card of the cut goes into the box
            assert nxt["box"] == start["captain"]


def test_undo_and_correct_an_earlier_hand():
    start, hands = WORKED[3]
    acts = [["new", 3, NAMES, start]] + [["hand", h] for h in hands[:4]]
    acts += [
        ["undo"],
        ["edit", 1, {"knock": 1, "counts": [30, 2, 9]}],
        ["edit", 0, {"void": True}],
        ["hand", hands[3]],
    ]
    r = device.run_script(acts, os.path.join(OUT, "undo_edit"))
    want = [{"void": True}, {"knock": 1, "counts": [30, 2, 9]}, hands[2], hands[3]]
    check_same(r["games"][0], 3, start, want)


def test_a_reboot_comes_back_to_the_same_game():
    start, hands = WORKED[1]
    out = os.path.join(OUT, "reboot")
    acts = [["new", 1, NAMES, start]] + [["hand", h] for h in hands[:3]]
    acts += [["shot", "before"], ["reboot"], ["shot", "after"], ["hand", hands[3]]]
    r = device.run_script(acts, out)
    check_same(r["games"][0], 1, start, hands[:4])
    # The same scoreboard (the note line at the bottom said "Saved" before the power cycle).
    before = device.ink(os.path.join(out, "before.pbm"))
    after = device.ink(os.path.join(out, "after.pbm"))
    assert before[:110] == after[:110] and sum(map(sum, after[:110])) > 1000


def test_a_reboot_starts_from_the_checkpoint_and_the_hands_after_it():
    """Left alone for a moment, the app writes its boot checkpoint (knockfw.store); a reboot
    restores the game from it and replays only the hands journaled after it, to the same game,
    and writes a new one as soon as its first screen is out."""
    start, hands = WORKED[3]
    acts = [["new", 3, NAMES, start]] + [["hand", h] for h in hands[:3]]
    acts += [
        ["wait", 2500],
        ["reboot"],
        ["hand", hands[3]],
        ["undo"],
        ["hand", hands[3]],
        ["reboot"],
        ["reboot"],
    ]  # 100 ms apart: written once the first screen is out
    r = device.run_script(acts, os.path.join(OUT, "checkpoint"))
    booted = [e["booted"] for e in r["events"] if "booted" in e]
    first, stale, fresh = booted
    assert first[0] == first[1] > 1  # written after the wait: nothing to replay
    assert 0 < stale[0] == first[0] < stale[1]  # the hand, undo and hand after it replayed
    assert fresh[0] == fresh[1] == stale[1]
    check_same(r["games"][0], 3, start, hands[:4])


def test_a_budget_session_fits_the_budget_heap():
    """A budget (bench/README.md): the firmware plays a SESSION_HANDS-hand evening on the unix
    port's budget heap (mp.HEAP), through the buttons, and boots again from that journal
    (bench/bench_firmware.py prints the numbers)."""
    import bench_firmware
    import budgets

    n = budgets.SESSION_HANDS
    acts, total = bench_firmware.session(n)
    r = device.run_script(acts, os.path.join(OUT, "session300"), timeout=900)
    assert total == n and r["hand_presses"][0] == n
    assert r["gids"] > 20 and len(r["boot_us"]) == 2
    # One line per hand for the bench's per-method median and p90, the method of its game.
    stats = [e["hand_stat"] for e in r["events"] if "hand_stat" in e]
    methods = [a[1] for a in acts if a[0] == "new"]
    assert len(stats) == n and set(s[0] for s in stats) == set(methods) == {1, 2, 3}
    assert sum(s[1] for s in stats) == r["hand_presses"][1]
    assert bench_firmware.percentile([s[1] for s in stats], 100) == r["hand_presses"][2]
    assert bench_firmware.percentile([5, 1, 4, 2, 3], 50) == 3
    assert bench_firmware.percentile(list(range(1, 11)), 90) == 9
    # The games kept in RAM after the reboot are the newest, and equal the CPython replay.
    for g in r["games"]:
        assert from_record(g["record"]).standings()["totals"] == g["totals"]


def test_idle_power_off_and_the_waking_press_counts():
    """After the idle time the board powers off (the panel keeps the scoreboard); the press that
    wakes it boots the app and is acted on: here B starts recording B's knock."""
    start, hands = WORKED[3]
    acts = [
        ["new", 3, NAMES, start],
        ["hand", hands[0]],
        ["settings", {"sleep_s": 60}],
        ["idle", 59000],
    ]
    r = device.run_script(acts, os.path.join(OUT, "sleep_early"))
    assert r["powered_off"] == 0  # not yet
    acts[-1] = ["idle", 70000]
    acts += [["shot", "asleep"], ["wake", "b"], ["shot", "woken"]]
    r = device.run_script(acts, os.path.join(OUT, "sleep"))
    off = [e for e in r["events"] if "power_off_after_ms" in e]
    assert len(off) == 1 and 60000 < off[0]["power_off_after_ms"] <= 60100
    assert r["mode"] == "counts" and r["who"] == 1  # B knocked
    check_same(r["games"][0], 3, start, hands[:1])


BUILD = r"""
import json, sys
import simboard as board_sim
from knockfw.journal import Journal
from knockfw.store import Store
b = board_sim.Board(sim_dir="", flash_path=sys.argv[1])
b.mount()
st = Store(Journal("/data/journal.txt")).load()
for line in open(sys.argv[2]):
    op, arg = json.loads(line)
    if op == "game":
        st.record({"t": "game", "rec": arg})
    else:
        st.record({"t": "hand", "h": arg})
"""

BOOT = r"""
import sys
from knockfw import app as A
import simboard as board_sim
b = board_sim.Board(sim_dir="", flash_path=sys.argv[1])
b.serial_in, b.serial_out = sys.stdin.buffer, sys.stdout.buffer  # a USB port, as on the Pico
a = A.App(b, 0)
a.step(10)
a.step(20)          # the first screen is out: the port is watched
a.step(30)          # the laptop speaks (here: the port hung up): the link is made
assert a.link is not None
print(len(a.game().hands), a.game().totals)
"""


def test_1000_hands_in_the_journal_boot_on_the_192k_heap(tmp_path):
    """Ten long games on flash: the app still boots to its scoreboard and then loads its serial
    link on the 192 KB heap (the link's bytecode needs a few KB in one piece after the replay)."""
    import json

    rnd = random.Random(9)
    lines = []
    for _ in range(10):
        g = gamegen.random_game(
            rnd, method=3, max_hands=100, rules={"preset": "seed", "m3_target": 100000}
        )
        rec = g.record()
        lines.append(["game", {k: rec[k] for k in ("method", "players", "start", "rules")}])
        lines += [["hand", h] for h in rec["hands"]]
    ops = tmp_path / "ops.jsonl"
    ops.write_text("".join(json.dumps(x) + "\n" for x in lines))
    flash = str(tmp_path / "flash.img")
    for name, src in (("build.py", BUILD), ("boot.py", BOOT)):
        (tmp_path / name).write_text(src)
    p = mp.run_file(
        str(tmp_path / "build.py"), [flash, str(ops)], paths=[device.build()], heap="1M"
    )
    assert p.returncode == 0, p.stdout + p.stderr
    p = mp.run_file(
        str(tmp_path / "boot.py"), [flash], paths=[device.build()], heap=mp.HEAP, stdin=""
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.split(None, 1) == ["100", "%s\n" % g.totals]


def test_a_fresh_device_switches_off_30_s_after_the_last_press():
    """Nothing pushed: the default auto-off (chosen from bench/bench_battery.py's figures, see
    hardware/POWER.md) shows in the settings and switches a fresh device off 30 s after the
    hand's last press."""
    import json

    start, hands = WORKED[3]
    acts = [
        ["keys", ["a", "down", "a"] + ["down"] * 7],  # the menu, settings, down to sleep_s
        ["shot", "settings"],
        ["keys", ["c"]],
        ["new", 3, NAMES, start],
        ["hand", hands[0]],
        ["idle", 40000],
    ]
    out = os.path.join(OUT, "sleep_default")
    r = device.run_script(acts, out)
    with open(os.path.join(out, "settings.json"), encoding="utf-8") as f:
        assert "Sleep after: 30 s" in [b[4] for b in json.load(f)["boxes"]]
    off = [e["power_off_after_ms"] for e in r["events"] if "power_off_after_ms" in e]
    assert len(off) == 1 and 30000 < off[0] <= 30100, off
    check_same(r["games"][0], 3, start, hands[:1])


AWAY_MS = 1800 * 1000  # away from the scoreboard the auto-off waits this long (app._AWAY_S)
CONFIRM = ["b", "C", "up", "b", "up", "up", "c", "up", "a"]  # B knocks: 1, C 2, A 1: confirm?


def test_a_half_entered_hand_outlives_sleep_s_and_is_saved():
    """A hand half entered is not lost to a short sleep_s: left on the confirm screen past it,
    the device stays on (the idle time counts from the last press, and away from the
    scoreboard it is half an hour at least); A then saves the hand."""
    start, hands = WORKED[3]
    acts = [
        ["new", 3, NAMES, start],
        ["hand", hands[0]],
        ["settings", {"sleep_s": 30}],
        ["keys", CONFIRM[:3]],
        ["idle", 25000],  # a pause in the middle of the counts
        ["keys", CONFIRM[3:]],
        ["idle", 10 * 60000],  # an argument about the counts, on the confirm screen
        ["keys", ["a"]],  # saved
    ]
    r = device.run_script(acts, os.path.join(OUT, "sleep_draft"))
    assert not [e for e in r["events"] if "power_off_after_ms" in e]
    assert r["mode"] == "score"
    check_same(r["games"][0], 3, start, hands[:1] + [{"knock": 1, "counts": [1, 1, 2]}])


def test_never_sleeps_away_from_the_scoreboard():
    """Left on the confirm screen for good, the device goes back to the scoreboard before it
    powers off (half an hour after the last press), so the panel shows what the waking press
    will do; the unconfirmed hand was never recorded."""
    start, hands = WORKED[3]
    acts = [
        ["new", 3, NAMES, start],
        ["hand", hands[0]],
        ["settings", {"sleep_s": 60}],
        ["keys", CONFIRM],
        ["idle", 1000],
        ["shot", "confirm"],
        ["idle", AWAY_MS + 10000],
        ["shot", "asleep"],
        ["wake", "c"],
    ]
    out = os.path.join(OUT, "sleep_confirm")
    r = device.run_script(acts, out)
    assert device.ink(os.path.join(out, "confirm.pbm")) != device.ink(
        os.path.join(out, "asleep.pbm")
    )
    off = [e["power_off_after_ms"] for e in r["events"] if "power_off_after_ms" in e]
    assert len(off) == 1 and AWAY_MS < off[0] <= AWAY_MS + 5000, off
    assert (
        r["powered_off"] == 0 and r["mode"] == "counts" and r["who"] == 2
    )  # C's knock, from the board
    check_same(r["games"][0], 3, start, hands[:1])


def test_odd_names_and_long_names_are_shown_safely():
    """A name with the note separator in it, long names on the game-over screen: every payment
    is drawn, nothing crashes."""
    import json

    names = ["Alexandra Petrovna", "An|n", "Constantine K"]
    start, hands = WORKED[3]
    acts = [["settings", {"roster": names + ["Dee"]}], ["new", 3, names, start]]
    acts += [["hand", h] for h in hands] + [["shot", "over"]]
    acts += [["keys", ["up", "down", "down", "a", "a", "a"]], ["shot", "pick_who"]]
    out = os.path.join(OUT, "names")
    r = device.run_script(acts, out)
    assert r["games"][0]["over"]
    with open(os.path.join(out, "over.json"), encoding="utf-8") as f:
        drawn = " ".join(b[4] for b in json.load(f)["boxes"])
    assert drawn.count(" pays ") == 3, drawn


def test_erase_wants_a_long_press_of_a():
    start, hands = WORKED[3]
    base = [["new", 3, NAMES, start], ["hand", hands[0]], ["ask_erase"]]
    r = device.run_script(base + [["keys", ["a"]], ["shot", "after"]], os.path.join(OUT, "erase1"))
    assert {"erase_done": False} not in r["events"] and len(r["games"]) == 1
    assert r["mode"] == "erase"  # still asking
    r = device.run_script(base + [["keys", ["A"]]], os.path.join(OUT, "erase2"))
    assert {"erase_done": True} in r["events"] and r["games"] == []
    r = device.run_script(base + [["keys", ["c"]]], os.path.join(OUT, "erase3"))
    assert {"erase_done": False} in r["events"] and len(r["games"]) == 1


def test_next_game_names_can_still_be_changed_after_a_reboot():
    start, hands = WORKED[1]
    acts = [["settings", {"roster": NAMES + ["Dee"]}], ["new", 1, NAMES, start]]
    acts += [["hand", h] for h in hands] + [
        ["reboot"],
        ["keys", ["a", "up", "down"]],
        ["shot", "players"],
    ]
    out = os.path.join(OUT, "next_names")
    device.run_script(acts, out)
    import json

    with open(os.path.join(out, "players.json"), encoding="utf-8") as f:
        drawn = [b[4] for b in json.load(f)["boxes"]]
    assert "Dee" in drawn, drawn


TORN = r"""
import json, sys
from knockfw import app as A
import simboard as board_sim
from knockfw.journal import Journal
from knockfw.store import Store
b = board_sim.Board(sim_dir="", flash_path=sys.argv[1])
b.mount()
d = b.data_dir
st = Store(Journal(d + "/journal.txt"), d + "/meta.json").load()
st.record({"t": "game", "rec": {"method": 3, "players": ["Ann", "Bob", "Cy"],
                                "start": {"dealer": 0}}})
st.record({"t": "hand", "h": {"void": True}})
st.journal.close()
with open(d + "/journal.txt", "ab") as f:
    f.write(b'4 {"t":"hand","g":1,"h":{"vo')     # the power went mid-write
with open(d + "/settings.json", "w") as f:
    f.write(json.dumps({"lang": "ru"}))
a = A.App(b, 0)
print(a.ui.note[0])
print(len(a.game().hands))
"""


def test_a_repaired_journal_is_told_in_the_players_language(tmp_path):

    script = tmp_path / "torn.py"
    script.write_text(TORN)
    p = mp.run_file(
        str(script), [str(tmp_path / "flash.img")], paths=[device.build()], heap=mp.HEAP
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines() == ["недописанная последняя запись отброшена", "1"]


KEYFEED = r"""
import gc, sys
import simboard as board_sim
path = sys.argv[1]
with open(path, "w") as f:
    for i in range(3000):
        f.write("press %s 60\n" % ("up", "down", "a")[i % 3])


class Recorder:     # checks each edge as it comes: the name and level due next, the hold
    def __init__(self):
        self.n = 0
        self.bad = 0
        self.down = 0
        self.holds = set()

    def edge(self, name, level, t):
        if (name, level) != (("up", "down", "a")[self.n // 2 % 3], 1 - self.n % 2):
            self.bad += 1
        if level:
            self.down = t
        else:
            self.holds.add(t - self.down)
        self.n += 1


feed = board_sim.KeyFeed(path)
feed.board = b = Recorder()
most = 0
t = 0
while b.n < 6000 and t < 10000000:
    feed.service(t)
    if len(feed._todo) > most:
        most = len(feed._todo)
    t += 50
print(b.n == 6000 and b.bad == 0, most, sorted(b.holds))
"""


def test_a_long_typed_ahead_script_is_read_a_little_at_a_time(tmp_path):
    """The simulator's key lines (board_sim.KeyFeed): 3,000 presses written before the board
    reads any are read a few lines ahead, carried out in order, each down for exactly its 60 ms
    of the board's time (whatever the board's own pace, here 50 ms a turn)."""

    script = tmp_path / "feed.py"
    script.write_text(KEYFEED)
    p = mp.run_file(str(script), [str(tmp_path / "keys")], paths=[device.build()], heap=mp.HEAP)
    assert p.returncode == 0, p.stdout + p.stderr
    ok, most, gaps = p.stdout.split(None, 2)
    assert ok == "True" and int(most) <= 64 and gaps.strip() == "[60]", p.stdout
