"""Makes the README's pictures of the device screen: the real firmware under the unix port, driven
through its buttons (tests/mp_scripts/app_driver.py). Run: .venv/bin/python tools/readme_shots.py"""

import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import _paths  # noqa: E402,F401  (the checkout's folders on sys.path: bench/_paths.py)

from kit import device  # noqa: E402

N = None
HANDS = [
    {"knock": 0, "counts": [5, 20, 30]},
    {"gin": 1, "counts": [14, 0, 9]},
    {"knock": 1, "counts": [25, 8, 3]},
    {"knock": 2, "counts": [6, 17, 6]},
]
M1 = [
    {"knock": 0, "counts": [4, 19, N]},
    {"gin": 2, "counts": [22, N, 0]},
    {"knock": 1, "counts": [N, 6, 6]},
]
# an evening: the rules' worked examples (RULES.md 5) among four players (tests/test_evening_device.py)
EVENING = [
    (
        1,
        [0, 1, 2],
        {"idle": 2, "dealer": 1},
        [
            {"knock": 0, "counts": [4, 19, N]},
            {"gin": 2, "counts": [22, N, 0]},
            {"knock": 1, "counts": [N, 6, 6]},
            {"void": True},
            {"knock": 2, "counts": [31, N, 2]},
        ],
    ),
    (
        3,
        [3, 1, 2],
        {"dealer": 2},
        [
            {"knock": 0, "counts": [5, 20, 30]},
            {"gin": 1, "counts": [14, 0, 9]},
            {"knock": 1, "counts": [25, 8, 3]},
            {"knock": 2, "counts": [6, 17, 6]},
            {"void": True},
            {"gin": 0, "counts": [0, 30, 35]},
            {"knock": 0, "counts": [2, 40, 20]},
        ],
    ),
    (
        2,
        [0, 3, 1],
        {"box": 0, "captain": 1},
        [
            {"knock": 1, "counts": [18, 3, N]},
            {"gin": 0, "counts": [0, 12, N]},
            {"knock": 0, "counts": [7, N, 5]},
            {"knock": 0, "counts": [1, N, 40]},
            {"gin": 0, "counts": [0, 30, N]},
        ],
    ),
]


def shots(lang, names):
    acts = [
        ["settings", {"lang": lang, "roster": names + ["Dee", "Eve"]}],
        ["new", 3, names, {"dealer": 2}],
    ]
    acts += [["hand", h] for h in HANDS] + [["shot", "scoreboard_m3"]]
    acts += [
        ["keys", ["a", "down", "down", "a", "c", "c", "up"]],  # Ann knocks 8 (from 10), Bob 21
        ["shot", "counts"],
        ["keys", ["b", "a", "UP", "c"]],  # Cy 15
        ["shot", "confirm"],
        ["keys", ["c"]],
    ]
    acts += [["new", 1, names, {"idle": 2, "dealer": 1}]] + [["hand", h] for h in M1]
    acts += [["shot", "scoreboard_m1"]]
    acts += [["new", 3, names, {"dealer": 2}]] + [["hand", h] for h in HANDS]
    acts += [
        ["hand", {"void": True}],
        ["hand", {"gin": 0, "counts": [0, 30, 35]}],
        ["hand", {"knock": 0, "counts": [2, 40, 20]}],
        ["shot", "game_over"],
    ]
    out = tempfile.mkdtemp()
    try:
        device.run_script(acts, out)
        for name in ("scoreboard_m3", "scoreboard_m1", "counts", "confirm", "game_over"):
            device.pbm_to_png(
                os.path.join(out, name + ".pbm"),
                os.path.join(ROOT, "docs", "img", "%s_%s.png" % (name, lang)),
            )
    finally:
        shutil.rmtree(out, ignore_errors=True)


def evening(lang, names, stake, page, name):
    """The Evening screen after three games among four players: page `page` (0: the players)."""
    acts = [["settings", {"lang": lang, "roster": names + ["Eve", "Fay"], "stake": stake}]]
    for method, seats, start, hands in EVENING:
        acts += [["new", method, [names[i] for i in seats], start]]
        acts += [["hand", h] for h in hands]
    acts += [["keys", ["b"] + ["down"] * page], ["shot", "evening"]]
    out = tempfile.mkdtemp()
    try:
        device.run_script(acts, out)
        device.pbm_to_png(os.path.join(out, "evening.pbm"), os.path.join(ROOT, "docs", "img", name))
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    shots("en", ["Ann", "Bob", "Cy"])
    shots("ru", ["Аня", "Борис", "Вика"])
    evening("en", ["Ann", "Bob", "Cy", "Dee"], 0, 0, "evening_en.png")
    evening("ru", ["Аня", "Борис", "Вика", "Дима"], 10, 2, "evening_ru.png")
    print("wrote docs/img/*.png")
