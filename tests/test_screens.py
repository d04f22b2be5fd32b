"""Every screen, in English and Russian, rendered by the real firmware under the unix port: saved
as PNG in out/screens/ (look at them), and checked: text stays on the panel and never runs into
other text, names that are too long are shortened visibly."""

import json
import os

import pytest

from kit import device
from kit import mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "screens")
LONG = ["Александра", "Bob", "Maximilian"]


def gallery(lang):
    acts = [["shot", "empty"]]
    if lang == "ru":  # Menu -> Settings -> Language
        acts += [
            ["keys", ["a", "down", "a", "down", "down", "down", "down", "down", "down", "a", "c"]]
        ]
    acts += [
        ["keys", ["a"]],
        ["shot", "menu_empty"],
        ["keys", ["a", "up"]],
        ["shot", "method"],
        ["keys", ["a"]],
        ["shot", "players"],
        ["keys", ["a", "b", "c"]],
        ["shot", "roles"],
        ["keys", ["a"]],
        ["shot", "roles2"],
        ["keys", ["b"]],
        ["shot", "score_m2"],
        ["keys", ["b", "DOWN", "down", "down"]],  # Bob knocks: 10 - 5 - 2
        ["shot", "counts"],
        ["keys", ["b", "up", "up", "a"]],
        ["shot", "confirm"],
        ["keys", ["a"]],
        ["keys", ["A", "B", "B", "B", "up"]],  # Ann's gin: Cy's whole count, 50 - 30 + 1
        ["shot", "counts_gin"],
        ["keys", ["c"]],
        ["shot", "confirm_gin"],
        ["keys", ["a", "up"]],
        ["shot", "menu_game"],
        ["keys", ["down", "a"]],
        ["shot", "undo"],
        ["keys", ["c", "up", "down", "down", "a"]],
        ["shot", "pick"],
        ["keys", ["a"]],
        ["shot", "who"],
        ["keys", ["up", "c", "c"]],
        ["keys", ["up", "down", "down", "down", "down", "a"]],
        ["shot", "settings"],
        ["keys", ["c"]],
        ["ask_erase"],
        ["shot", "erase"],
        ["keys", ["c"]],
        ["keys", ["c"]],
        ["shot", "sits_out_note"],
        ["hand", {"gin": 0, "counts": [0, 98, None]}],
        ["shot", "over_m2"],
        ["new", 1, ["Ann", "Bob", "Cy"], {"idle": 2, "dealer": 0}],
        ["hand", {"knock": 0, "counts": [3, 40, None]}],
        ["shot", "score_m1"],
        ["settings", {"roster": ["Ann", "Cy"] + LONG}],
        ["new", 3, LONG, {"dealer": 1}],
        ["hand", {"knock": 2, "counts": [5, 5, 30]}],
        ["shot", "score_m3"],
        ["hand", {"gin": 2, "counts": [98, 98, 0]}],
        ["shot", "score_m3b"],
        ["new", 2, LONG, {"box": 0, "captain": 1}],
    ]
    # box bonuses lift the box's final above the partnership's, which reached 100 and pays
    acts += [
        ["hand", h]
        for h in [{"knock": 0, "counts": [1, 2, None]}, {"knock": 0, "counts": [1, None, 2]}] * 4
    ]
    acts += [
        ["hand", {"knock": 0, "counts": [1, 2, None]}],
        ["shot", "score_m2_boxes"],
        ["hand", {"gin": 2, "counts": [75, None, 0]}],
        ["shot", "over_m2_pays"],
    ]
    return acts


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_screen_renders_and_text_stays_in_its_box(lang):
    out = os.path.join(OUT, lang)
    r = device.run_script(gallery(lang), out, heap=mp.HEAP)
    # Hand entry, the menu, settings, new games, the erase question and the list of hands were
    # opened on the way: their modules were forgotten again; the scoreboard's stays.
    assert r["ui_modules"] == ["knockfw.ui", "knockfw.ui_score"]
    shots = sorted(f[:-4] for f in os.listdir(out) if f.endswith(".pbm"))
    assert len(shots) >= 22, shots
    for name in shots:
        device.pbm_to_png(os.path.join(out, name + ".pbm"), os.path.join(out, name + ".png"))
        with open(os.path.join(out, name + ".json"), encoding="utf-8") as f:
            device.check_layout(name, json.load(f)["boxes"])
    # The long Cyrillic name was shortened visibly, not cut mid-glyph.
    with open(os.path.join(out, "score_m3.json"), encoding="utf-8") as f:
        drawn = [b[4] for b in json.load(f)["boxes"]]
    assert (
        any(s.endswith("…") and "Александра".startswith(s[:-1]) for s in drawn)
        or "Александра" in drawn
    )
    if lang == "ru":
        assert any("Сдача" in s for s in drawn)  # the rules' word for a hand (RULES.md 7)
    # The partnership reached 100 but pays: the title says so, the names shortened, not the sum.
    with open(os.path.join(out, "over_m2_pays.json"), encoding="utf-8") as f:
        drawn = [b[4] for b in json.load(f)["boxes"]]
    title = {"en": " win, pay 9 each", "ru": ", платят по 9"}[lang]
    assert any(s.endswith(title) for s in drawn), drawn
