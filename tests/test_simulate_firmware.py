"""knockbox simulate with the real firmware (firmware/sim_main.py under the MicroPython unix port):
keys typed into the front end play a game on the device, every refresh arrives as a frame and a
PNG, and the game is still there after quitting and starting again (the flash image persists)."""
import json
import os
import subprocess

from test_simulate import read_until, start_sim

import mp
from knockbox import screen
from knockcore.game import from_record

OUT = os.path.join(mp.ROOT, "out", "simulate")
# Menu, New game, method "All three" (the default), the players Ann Bob Cy as offered (A, then
# "again: next" on B and C), Ann cut the highest card (deals).
NEW_GAME = ["a", "a", "a", "a", "b", "c", "a"]
# Bob knocks with 3 (B, Up x3), B: next is Cy: 5, C: next is Ann: 4, A: next is the confirm
# screen, A: save.
HAND = ["b"] + ["up"] * 3 + ["b"] + ["up"] * 5 + ["c"] + ["up"] * 4 + ["a", "a"]
RECORD = {"format": "knockbox-game/1", "method": 3, "players": ["Ann", "Bob", "Cy"],
          "start": {"dealer": 0}, "rules": {"preset": "seed"},
          "hands": [{"knock": 1, "counts": [4, 3, 5]}]}

# Reads the games back out of the flash image with the firmware's own store.
READ_FLASH = """
import json, sys
from knockfw import app as A, board_sim
b = board_sim.Board(sim_dir="", flash_path=sys.argv[1])
dev = A.App(b, 0)
print(json.dumps([dev.store.game(g).record() for g in dev.store.gids()]))
"""


def run_sim(sim, keys, shots=None, reset=False, frames_before_quit=1, while_running=None):
    """One simulate session: type keys, wait for that many frames, call while_running(port),
    quit; returns the frame lines it printed."""
    args = ["--dir", sim] + (["--screenshot", shots] if shots else [])
    args += ["--reset"] if reset else []
    p = start_sim(args)
    try:
        head = read_until(p, lambda s: s.startswith("frame 1 "), timeout=30)
        assert head[0].startswith("serial port: /dev/pts/")
        port = head[0].split()[2]
        p.stdin.write("".join(k + "\n" for k in keys))
        p.stdin.flush()
        more = []
        if frames_before_quit > 1:
            more = read_until(p, lambda s: s.startswith("frame %d " % frames_before_quit),
                              timeout=60)
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


def ask(port, request):
    """One request over the simulator's serial port, as knockbox sync sends it."""
    import serial

    with serial.Serial(port, 115200, timeout=5) as s:
        s.write((json.dumps(request) + "\n").encode())
        return json.loads(s.readline())


def games_on_flash(sim, tmp_path):
    script = tmp_path / "read_flash.py"
    script.write_text(READ_FLASH)
    p = mp.run_file(str(script), [os.path.join(sim, "flash.img")])
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


def top(image, rows=104):
    """A screenshot (scale 2) without the panel's bottom bar, where a transient "Saved" shows."""
    return image.crop((0, 0, image.width, rows * 2)).tobytes()


def test_play_a_hand_quit_and_find_it_again(tmp_path):
    sim = str(tmp_path / "sim")
    shots = os.path.join(OUT, "session")
    if os.path.isdir(shots):
        for name in os.listdir(shots):
            os.remove(os.path.join(shots, name))
    replies = []
    n = 1 + len(NEW_GAME) + len(HAND)
    frames, err = run_sim(sim, NEW_GAME + HAND, shots=shots, reset=True, frames_before_quit=n,
                          while_running=lambda port: replies.append(
                              ask(port, {"id": 5, "op": "games"})))
    assert "Traceback" not in err
    # the firmware ran as on the Pico: compiled by mpy-cross, not from the sources
    build = os.path.join(sim, "build")
    assert os.path.exists(os.path.join(build, "knockfw", "app.mpy"))
    assert not [f for _d, _s, fs in os.walk(build) for f in fs if f.endswith(".py")
                and f != "sim_main.py"]
    # the printed serial port reaches the running firmware's link
    (games_reply,) = replies
    assert games_reply["id"] == 5 and games_reply["ok"] is True
    assert [(g["method"], g["players"], g["hands"]) for g in games_reply["games"]] == \
        [(3, ["Ann", "Bob", "Cy"], 1)]
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
    final = screen.read_pbm(os.path.join(sim, "frame.pbm"))
    assert screen.to_image(final, 2).tobytes() == last.convert("1").tobytes()
    scoreboard = Image.open(os.path.join(shots, pngs[n - 1])).convert("1")  # after the hand

    # the device holds exactly the hand the keys entered; CPython's replay agrees with it
    games = games_on_flash(sim, tmp_path)
    assert len(games) == 1
    got = games[0]
    assert {k: got[k] for k in ("method", "players", "start", "hands")} == \
        {k: RECORD[k] for k in ("method", "players", "start", "hands")}
    assert from_record(got).standings()["totals"] == from_record(RECORD).standings()["totals"]

    # quit and start again: the device boots to the same scoreboard from its flash image
    frames2, err = run_sim(sim, [])
    assert frames2 and frames2[0].startswith("frame 1 full")
    again = screen.to_image(screen.read_pbm(os.path.join(sim, "frame.pbm")), 2)
    assert top(again) == top(scoreboard)
    assert top(again) != top(first.convert("1"))
    assert games_on_flash(sim, tmp_path) == games

    # --reset wipes the device: it boots to the empty screen again
    run_sim(sim, [], reset=True)
    fresh = screen.to_image(screen.read_pbm(os.path.join(sim, "frame.pbm")), 2)
    assert top(fresh) == top(first.convert("1"))
    assert games_on_flash(sim, tmp_path) == []
