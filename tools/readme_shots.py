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
from kit import worked  # noqa: E402

# the rules' worked examples (docs/RULES.md): (start, hands) of each method's
M1, M2, M3 = (worked.game(method) for method in (1, 2, 3))
# an evening: those three games among four players, by seat (tests/test_evening_device.py)
EVENING = [(1, [0, 1, 2]) + M1, (3, [3, 1, 2]) + M3, (2, [0, 3, 1]) + M2]


def shots(lang, names):
    acts = [
        ["settings", {"lang": lang, "roster": names + ["Dee", "Eve"]}],
        ["new", 3, names, M3[0]],
    ]
    acts += [["hand", h] for h in M3[1][:4]] + [["shot", "scoreboard_m3"]]
    acts += [
        ["keys", ["a", "down", "down", "a", "c", "c", "up"]],  # Ann knocks 8 (from 10), Bob 21
        ["shot", "counts"],
        ["keys", ["b", "a", "UP", "c"]],  # Cy 15
        ["shot", "confirm"],
        ["keys", ["c"]],
    ]
    acts += [["new", 1, names, M1[0]]] + [["hand", h] for h in M1[1][:3]]
    acts += [["shot", "scoreboard_m1"]]
    acts += [["new", 3, names, M3[0]]] + [["hand", h] for h in M3[1]]
    acts += [["shot", "game_over"]]
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
