"""knockbox simulate with the real firmware (sim_main.py under the MicroPython unix port):
keys typed into the front end play a game on the device, every refresh arrives as a frame and a
PNG, and the game is still there after quitting and starting again (the flash image persists)."""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from test_simulate import read_until, start_sim

from kit import mp
from knockbox import bitmap
from knockbox.simulate import keys as K
from knockcore.game import Game, from_record

OUT = os.path.join(mp.ROOT, "out", "simulate")
# Menu, New game, method "All three" (the default), the players Ann Bob Cy as offered (A, then
# "again: next" on B and C), Ann cut the highest card (deals).
NEW_GAME = ["a", "a", "a", "a", "b", "c", "a"]
# Bob knocks with 3 (B; his count starts at the knock limit, 10: Down x7), B: next is Cy: 5,
# C: next is Ann: 4, A: next is the confirm screen, A: save.
HAND = ["b"] + ["down"] * 7 + ["b"] + ["up"] * 5 + ["c"] + ["up"] * 4 + ["a", "a"]
RECORD = {
    "format": "knockbox-game/1",
    "method": 3,
    "players": ["Ann", "Bob", "Cy"],
    "start": {"dealer": 0},
    "rules": {"preset": "seed"},
    "hands": [{"knock": 1, "counts": [4, 3, 5]}],
}

# Reads the games back out of the flash image with the firmware's own store.
READ_FLASH = """
import json, sys
import simboard as board_sim
from knockfw import app as A
b = board_sim.Board(sim_dir="", flash_path=sys.argv[1])
dev = A.App(b, 0)
print(json.dumps([dev.store.game(g).record() for g in dev.store.gids()]))
"""


def run_sim(
    sim,
    keys,
    shots=None,
    reset=False,
    frames_before_quit=1,
    while_running=None,
    exe=None,
    cwd=None,
    timeout=60,
):
    """One simulate session: type keys, wait for that many frames, call while_running(port),
    quit; returns the frame lines it printed. exe, cwd: as start_sim; timeout: for each wait
    (the first includes the build)."""
    args = ["--dir", sim] + (["--screenshot", shots] if shots else [])
    args += ["--reset"] if reset else []
    p = start_sim(args, exe=exe, cwd=cwd)
    try:
        head = read_until(p, lambda s: s.startswith("frame 1 "), timeout=max(30, timeout // 2))
        assert head[0].startswith("serial port: /dev/pts/")
        port = head[0].split()[2]
        p.stdin.write("".join(k + "\n" for k in keys))
        p.stdin.flush()
        more = []
        if frames_before_quit > 1:
            more = read_until(
                p, lambda s: s.startswith("frame %d " % frames_before_quit), timeout=timeout
            )
        if while_running:
            while_running(port)
        p.stdin.write("wait 300\nquit\n")
        p.stdin.flush()
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    frames = [ln for ln in head + more + out.splitlines() if ln.startswith("frame ")]
    return frames, err


def games_on_flash(sim, tmp_path):
    script = tmp_path / "read_flash.py"
    script.write_text(READ_FLASH)
    p = mp.run_file(str(script), [os.path.join(sim, "flash.img")])
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


def top(image, rows=104):
    """A screenshot (scale 2) without the panel's bottom bar, where a transient "Saved" shows."""
    return image.crop((0, 0, image.width, rows * 2)).tobytes()


@pytest.mark.slow
def test_play_a_hand_quit_and_find_it_again(tmp_path):
    sim = str(tmp_path / "sim")
    shots = os.path.join(OUT, "session")
    if os.path.isdir(shots):
        for name in os.listdir(shots):
            os.remove(os.path.join(shots, name))
    synced = []
    n = 1 + len(NEW_GAME) + len(HAND)
    db = str(tmp_path / "history.sqlite")
    frames, err = run_sim(
        sim,
        NEW_GAME + HAND,
        shots=shots,
        reset=True,
        frames_before_quit=n,
        while_running=lambda port: synced.append(synced_records(port, db)),
    )
    assert "Traceback" not in err
    # the firmware ran as on the Pico: compiled by mpy-cross, not from the sources
    build = os.path.join(sim, "build")
    assert os.path.exists(os.path.join(build, "knockfw", "app.mpy"))
    assert not [
        f for _d, _s, fs in os.walk(build) for f in fs if f.endswith(".py") and f != "sim_main.py"
    ]
    # the printed serial port reaches the running firmware's link: knockbox sync gets the game
    assert synced == [[_game(RECORD)]]
    # one refresh per key press (each changes the screen) plus the boot screen, then the link
    # session may add its own (the sync mark); every one saved as PNG
    assert len(frames) >= n, frames
    assert [f.split()[1] for f in frames] == [str(i) for i in range(1, len(frames) + 1)]
    pngs = sorted(os.listdir(shots))
    assert pngs == ["frame-%04d.png" % i for i in range(1, len(frames) + 1)]
    from PIL import Image

    first = Image.open(os.path.join(shots, pngs[0]))
    last = Image.open(os.path.join(shots, pngs[-1]))
    assert first.size == (592, 256) and first.tobytes() != last.tobytes()
    final = bitmap.read_pbm(os.path.join(sim, "frame.pbm"))
    assert bitmap.to_image(final, 2).tobytes() == last.convert("1").tobytes()
    scoreboard = Image.open(os.path.join(shots, pngs[n - 1])).convert("1")  # after the hand

    # the device holds exactly the hand the keys entered; CPython's replay agrees with it
    games = games_on_flash(sim, tmp_path)
    assert len(games) == 1
    got = games[0]
    assert {k: got[k] for k in ("method", "players", "start", "hands")} == {
        k: RECORD[k] for k in ("method", "players", "start", "hands")
    }
    assert from_record(got).standings()["totals"] == from_record(RECORD).standings()["totals"]

    # quit and start again: the device boots to the same scoreboard from its flash image
    frames2, err = run_sim(sim, [])
    assert frames2 and frames2[0].startswith("frame 1 full")
    again = bitmap.to_image(bitmap.read_pbm(os.path.join(sim, "frame.pbm")), 2)
    assert top(again) == top(scoreboard)
    assert top(again) != top(first.convert("1"))
    assert games_on_flash(sim, tmp_path) == games

    # --reset wipes the device: it boots to the empty screen again
    run_sim(sim, [], reset=True)
    fresh = bitmap.to_image(bitmap.read_pbm(os.path.join(sim, "frame.pbm")), 2)
    assert top(fresh) == top(first.convert("1"))
    assert games_on_flash(sim, tmp_path) == []


# ---- never lose a scripted key ----------------------------------------------------------------
# A script of presses typed at once (ahead of the firmware's boot) plays whole games on the real
# firmware while CPU-bound processes compete for the cores; the device must record exactly what
# was typed. Every hand's counts are made of taps (the knocker's Downs from the knock limit, the
# others' Ups from 0), some taken back, so a press lost (or doubled) anywhere changes a count, a
# cursor or a screen, and the games read back through `knockbox sync` differ. bench/bench_sim_keys.py runs the long version.

PLAYERS = ["Ann", "Bob", "Cy"]
SEATS = ("a", "b", "c")


def _hand_keys(game, rnd):
    """(hand, keys) for a random knock in a method 3 game: the knocker's button, then each
    count (knocker first, then clockwise) as taps (the knocker's Downs from the knock limit, the
    others' Ups from 0, and some taken back) followed by that seat's button (the last one opens
    the confirm screen), then A (save)."""
    limit = game.rules["knock_limit"]
    who = rnd.choice(game.active)
    order = [who, (who + 1) % 3, (who + 2) % 3]
    counts = [0, 0, 0]
    keys = [SEATS[who]]
    for seat in order:
        top = limit if seat == who else 12
        counts[seat] = rnd.randint(0, min(top, 6 if seat == who else 12))
        if seat == who:
            back = rnd.randint(0, min(2, counts[seat]))
            keys += ["down"] * (limit - counts[seat] + back) + ["up"] * back + [SEATS[seat]]
        else:
            back = rnd.randint(0, min(2, top - counts[seat]))
            keys += ["up"] * (counts[seat] + back) + ["down"] * back + [SEATS[seat]]
    return {"knock": who, "counts": counts}, keys + ["a"]


def stress_script(presses, seed=1, hold_ms=None):
    """(keys, records): about `presses` key lines for `knockbox simulate --no-tty` on an empty
    device (a new game, hands, and when a game is over the next one), and the games they make.
    hold_ms: every press is "NAME hold MS" instead of a plain tap."""
    keys, records = _stress_keys(presses, random.Random(seed))
    if hold_ms:
        keys = ["%s hold %d" % (k, hold_ms) for k in keys]
    return keys, records


def _stress_keys(presses, rnd):
    keys = list(NEW_GAME)
    games = [Game(3, PLAYERS, {"dealer": 0}, {"preset": "seed"})]
    while len(keys) < presses:
        g = games[-1]
        if g.over:  # game over: A starts the next game, Ann cut the highest card (deals)
            keys += ["a", "a"]
            games.append(Game(3, PLAYERS, {"dealer": 0}, {"preset": "seed"}))
            continue
        hand, hand_keys = _hand_keys(g, rnd)
        try:
            g.add(hand)
        except ValueError:
            continue
        keys += hand_keys
    return keys, [g.record() for g in games]


def script_ms(keys):
    """How long the board takes to play the script's presses (in its own time)."""
    return sum(K.parse_script_line(k)[2] + K.GAP_MS for k in keys)


def synced_records(port, db):
    """The device's games as `knockbox sync` stores them and `knockbox export --json` gives
    them back: [(method, players, start, hands)]."""
    knockbox = [sys.executable, "-m", "knockbox.cli"]
    r = subprocess.run(
        knockbox + ["sync", "--port", port, "--db", db],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=mp.ROOT,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run(
        knockbox + ["export", "--json", "--db", db],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=mp.ROOT,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return [_game(rec) for rec in json.loads(r.stdout)]


def _game(rec):
    return (rec["method"], rec["players"], rec["start"], rec["hands"])


def play_stress(keys, records, sim, hogs=1, settle_s=20):
    """Type all of keys at once into the simulated device in folder `sim`, wiped first, while
    `hogs` CPU-bound processes run; wait for the games to come out as `records` (or stop
    changing for settle_s after the keys' planned end). Returns a dict: presses, seconds,
    frames, expected, got, ok, stderr, dir (a temporary folder with the history)."""
    want = [_game(r) for r in records]
    hog = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(hogs)]
    tmp = tempfile.mkdtemp(prefix="knockbox-stress-")
    db = os.path.join(tmp, "history.sqlite")
    p = start_sim(["--dir", sim, "--reset"])
    out, err = [], []
    try:
        p.stdin.write("".join(k + "\n" for k in keys))  # typed ahead: before the first frame
        p.stdin.flush()
        head = read_until(p, lambda s: s.startswith("frame 1 "), timeout=60)
        port = head[0].split()[2]
        t0 = time.monotonic()
        for stream, into in ((p.stdout, out), (p.stderr, err)):  # keep the pipes flowing
            threading.Thread(
                target=lambda s=stream, i=into: i.extend(iter(s.readline, "")), daemon=True
            ).start()
        time.sleep(script_ms(keys) / 1000.0)
        got, last_change = None, time.monotonic()
        while True:
            now = synced_records(port, db)
            if now != got:
                got, last_change = now, time.monotonic()
            if got == want or time.monotonic() - last_change > settle_s:
                break
            assert p.poll() is None, "".join(err)
            time.sleep(2)
        seconds = time.monotonic() - t0
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait(60)
    finally:
        for h in hog:
            h.kill()
            h.wait()
        if p.poll() is None:
            p.kill()
    frames = len(head) + sum(1 for ln in out if ln.startswith("frame "))
    return {
        "presses": len(keys),
        "seconds": seconds,
        "frames": frames,
        "expected": want,
        "got": got,
        "ok": got == want,
        "dir": tmp,
        "stderr": "".join(err),
    }


def first_difference(want, got):
    """Where two lists of games first differ, for people."""
    for gi, (w, g) in enumerate(zip(want, got or [])):
        if w[:3] != g[:3]:
            return "game %d: %r != %r" % (gi + 1, w[:3], g[:3])
        for hi, (hw, hg) in enumerate(zip(w[3], g[3])):
            if hw != hg:
                return "game %d hand %d: typed %r, recorded %r" % (gi + 1, hi + 1, hw, hg)
        if len(w[3]) != len(g[3]):
            return "game %d: %d hands typed, %d recorded" % (gi + 1, len(w[3]), len(g[3]))
    return "%d games typed, %d recorded" % (len(want), len(got or []))


@pytest.mark.slow
def test_scripted_keys_are_never_lost_on_a_busy_machine():
    keys, records = stress_script(180, seed=7, hold_ms=60)  # short presses: 160 ms a press
    assert len(keys) >= 180
    # (the folder is kept between runs so that its compiled firmware is: --reset wipes the flash)
    r = play_stress(keys, records, os.path.join(OUT, "stress"), hogs=1)
    assert r["ok"], first_difference(r["expected"], r["got"]) + "\n" + r["stderr"][-2000:]
    assert r["frames"] > len(keys) // 2
    shutil.rmtree(r["dir"], ignore_errors=True)


# ---- a board on USB never switches itself off -------------------------------------------------


@pytest.mark.slow
def test_the_simulator_is_a_board_on_usb_and_battery_is_asked_for(tmp_path):
    """Left alone past the auto-off (30 s, the default sleep setting), the simulator keeps
    running as a board on USB does: no power-off, and `sync` still gets the device's answer.
    With --battery it switches off as on battery, and a key starts it again."""
    usb = start_sim(["--dir", os.path.join(OUT, "usb"), "--reset"])
    bat = start_sim(["--dir", os.path.join(OUT, "battery"), "--reset", "--battery"])
    try:
        head = read_until(usb, lambda s: s.startswith("frame 1 "), timeout=240)
        up = time.monotonic()
        port = head[0].split()[2]
        read_until(bat, lambda s: s.startswith("frame 1 "), timeout=240)
        # on battery: dark after the idle time
        read_until(bat, lambda s: s == "power off", timeout=90)
        time.sleep(max(0.0, up + 36 - time.monotonic()))  # past the auto-off for the USB one
        db = str(tmp_path / "history.sqlite")
        r = subprocess.run(
            [sys.executable, "-m", "knockbox.cli", "sync", "--port", port, "--db", db],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=mp.ROOT,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        usb.stdin.write("quit\n")
        usb.stdin.flush()
        out, err = usb.communicate(timeout=60)
        assert usb.returncode == 0, err
        assert "power off" not in out.splitlines(), out
        # the battery one wakes at a key, and boots to its screen again
        bat.stdin.write("a\n")
        bat.stdin.flush()
        read_until(bat, lambda s: s == "power on a", timeout=60)
        read_until(bat, lambda s: s.startswith("frame "), timeout=60)
        bat.stdin.write("quit\n")
        bat.stdin.flush()
        bat.communicate(timeout=60)
        assert bat.returncode == 0
    finally:
        for p in (usb, bat):
            if p.poll() is None:
                p.kill()


@pytest.mark.slow
def test_headless_frames_come_with_the_words_on_the_screen():
    """--no-tty without --screenshot: each frame's line is followed by the words on its screen,
    a line for each row of it, so a script (or a person reading its output) sees what the
    device shows."""
    p = start_sim(["--dir", os.path.join(OUT, "usb"), "--reset"])
    try:
        # A on the empty scoreboard: the menu (typed ahead: played once the board is up)
        out, err = p.communicate("wait 500\na\nwait 500\nquit\n", timeout=240)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    lines = out.splitlines()

    def words(frame):
        at = lines.index(frame) + 1
        got = []
        while at < len(lines) and lines[at].startswith("  | "):
            got.append(lines[at][4:].strip())
            at += 1
        return got

    assert words("frame 1 full") == ["Knockbox", "No game yet", "Any button: menu → New game"]
    assert words("frame 2 partial")[:3] == ["Menu", "New game", "Settings"], lines
