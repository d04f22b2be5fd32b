"""A game of each method played on the emulated Badger 2040 through its GPIO buttons, the way a
player does it (press, watch the panel change, press again), then pulled with `knockbox sync`:
every game's standings equal `knockbox replay` of the game intended, and the panel (decoded from
the SPI stream with the UC8151 model) showed, after each game, exactly what the unix port draws
after the same presses, pixel for pixel; and so in Russian, once `knockbox push --lang ru` has
switched it (the device's Russian tables go there packed, unpacked by its native code)."""

import json

from kit import device as unix  # tests/kit/device.py: the firmware under the MicroPython unix port
import emu_frames
from emu_plan import Planner

RULES = {"preset": "seed", "target": 30, "m3_target": 40}  # short games (set with knockbox push)
PLAYERS = ["Ann", "Bob", "Cy"]
GAMES = [  # (method, start, hands): a knock and a gin each, small counts (few presses)
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


def plan():
    p = Planner({"rules": RULES})
    ends = []
    for method, start, hands in GAMES:
        p.new_game(method, PLAYERS, start)
        for h in hands:
            p.hand(h)
        assert p.game.over, "game %d does not end with its last hand" % method
        ends.append(len(p.presses))
    return p, ends


def test_three_methods_played_synced_and_drawn(device, tmp_path):
    p, ends = plan()
    # the unix port: the same settings and presses, a screenshot after each game
    actions = [["settings", {"rules": RULES}]]
    last = 0
    for i, end in enumerate(ends):
        actions += [p.driver_keys(p.presses[last:end]), ["shot", "game%d" % (i + 1)]]
        last = end
    actions += [["settings", {"lang": "ru"}], ["shot", "ru"]]
    out = str(tmp_path / "unix")
    rep = unix.run_script(actions, out)
    # (the store keeps the latest games in RAM: older ones are on flash only)
    assert rep["games"] and all(g["record"] == p.records()[g["gid"] - 1] for g in rep["games"])

    assert device.wait_refresh(0, 120), "the app did not draw after boot"
    device.wait_quiet(300)
    device.push("--rules", json.dumps(RULES))
    device.wait_quiet(300)
    marks, missed = device.act_in_steps(p.presses, ends)
    assert missed == [], "presses the panel never answered: %r" % [p.presses[i] for i in missed]

    # what the panel showed after each game = the unix port's screen after the same presses
    r = device.frames()
    assert r.errors == [], r.errors[:5]
    for i, n in enumerate(marks):
        ref = emu_frames.pbm_image("%s/game%d.pbm" % (out, i + 1))
        shown = r.frames[n - 1]
        assert shown.diff(ref) == 0, "after game %d the panel shows:\n%s" % (i + 1, shown.ascii())
    # the same screen in Russian
    device.push("--lang", "ru")
    device.wait_quiet(300)
    r = device.frames()
    assert r.errors == [], r.errors[:5]
    shown = r.frames[-1]
    ru = emu_frames.pbm_image(out + "/ru.pbm")
    assert ru != emu_frames.pbm_image("%s/game%d.pbm" % (out, len(ends)))  # not English
    assert shown.diff(ru) == 0, shown.ascii()

    # the laptop: sync, then each game's standings = knockbox replay of the game intended
    device.sync()
    rows = sorted(device.history(), key=lambda g: g["id"])
    assert len(rows) == 3, rows
    for row, rec in zip(rows, p.records()):
        shown = device.show(row["id"])
        shown.pop("meta", None)  # where the history got it from
        want = json.loads(device.knockbox("replay", "-", input=json.dumps(rec)).stdout)
        assert shown == want
