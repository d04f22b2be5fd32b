"""The evening on the device under the MicroPython unix port: the store journals and finds the
evening (tests/mp_scripts/evening_cases.py), and the whole firmware on the 192 KB heap, through
its buttons, plays an evening of a game of each method, shows the Evening screen (from the
game-over screen and from the menu, before and after a reboot: the older games then come from
the journal), starts a new evening and shows the game on the table "so far". The numbers drawn
are the rules core's ledger over the games played (knockcore.evening, as `knockbox settle
--evening`), in English and in Russian with a stake; every screen is saved as PNG in
out/screens/evening_*/ and its text stays on the panel without overlaps."""

import json
import os

import pytest

from kit import device
from kit import mp
from kit import worked
from knockcore import evening as ledger
from knockcore.game import from_record

ROOT = mp.ROOT
OUT = os.path.join(ROOT, "out", "screens")
SCRIPT = os.path.join(ROOT, "tests", "mp_scripts", "evening_cases.py")

# the rules' worked examples (docs/RULES.md), among four players: (method, players, start, hands)
# (each game's names are picked seat by seat from the last game's: a name another seat holds
# cannot be picked)
GAMES = [
    (1, ["Ann", "Bob", "Cy"]) + worked.game(1),
    (3, ["Dee", "Bob", "Cy"]) + worked.game(3),
    (2, ["Ann", "Dee", "Bob"]) + worked.game(2),
]
NEXT = (3, ["Ann", "Cy", "Dee"], {"dealer": 0}, worked.game(3)[1][:1])


@pytest.mark.parametrize("case", mp.cases(SCRIPT))
def test_store_and_sums(case):
    mp.run_case(SCRIPT, case, paths=mp.SOURCE_PATHS, heap="1M")


def the_ledger(games):
    led = {}
    for method, players, start, hands in games:
        g = from_record(
            {
                "method": method,
                "players": players,
                "start": start,
                "rules": {"preset": "seed"},
                "hands": hands,
            }
        )
        assert ledger.add(led, g.standings(False))
    return ledger.rows(led), ledger.payments(led)


def play(settings):
    acts = [["settings", settings]]
    for method, players, start, hands in GAMES:
        acts += [["new", method, players, start]] + [["hand", h] for h in hands]
    # B on the game-over screen: the evening, page by page
    acts += [
        ["keys", ["b"]],
        ["shot", "p1"],
        ["keys", ["down"]],
        ["shot", "p2"],
        ["keys", ["down"]],
        ["shot", "p3"],
        ["keys", ["down"]],
        ["shot", "p4"],
        ["keys", ["c"]],
        ["reboot"],
        ["keys", ["b"]],
        ["shot", "p1_reboot"],
        ["keys", ["a"]],
        # the menu (a game over: Up twice from the top is New evening), "New evening?"
        ["keys", ["up", "up", "up", "a"]],
        ["shot", "new_q"],
        ["keys", ["a"]],
        ["shot", "started"],
    ]
    method, players, start, hands = NEXT
    acts += [["new", method, players, start]] + [["hand", h] for h in hands]
    # the menu of a game being played: Up three times from the top is Evening
    acts += [
        ["keys", ["up", "up", "up", "up", "a"]],
        ["shot", "new1"],
        ["keys", ["down"]],
        ["shot", "new2"],
        ["keys", ["b"]],
        ["shot", "back"],
    ]
    return acts


def shots(out):
    got = {}
    for f in sorted(os.listdir(out)):
        if f.endswith(".json") and f != "script.jsonl":
            with open(os.path.join(out, f), encoding="utf-8") as fh:
                got[f[:-5]] = json.load(fh)
            device.pbm_to_png(
                os.path.join(out, f[:-5] + ".pbm"), os.path.join(out, f[:-5] + ".png")
            )
    return got


def texts(shot):
    return [b[4] for b in shot["boxes"]]


def signed(v):
    return ("+%d" % v) if v >= 0 else ("−%d" % -v)


def test_an_evening_through_the_buttons_in_english():
    out = os.path.join(OUT, "evening_en")
    r = device.run_script(play({"lang": "en"}), out)
    got = shots(out)
    for name, shot in got.items():
        device.check_layout(name, shot["boxes"])
    rows, pays = the_ledger(GAMES)
    assert len(rows) == 4 and len(pays) >= 2
    assert [got[p]["mode"] for p in ("p1", "p2", "p3", "p4")] == ["evening"] * 4
    assert texts(got["p1"]) == ["Evening · games: 3", "1/3"] + [
        x
        for name, net, games, wins in rows[:3]
        for x in (signed(net), name, "games %d · wins %d" % (games, wins))
    ] + ["▲▼: page · A/B/C: back"]
    name, net, games, wins = rows[3]
    assert texts(got["p2"])[:5] == [
        "Evening · games: 3",
        "2/3",
        signed(net),
        name,
        "games %d · wins %d" % (games, wins),
    ]
    assert texts(got["p3"])[:2] == ["Settlement", "3/3"]
    assert texts(got["p3"])[2:-1] == [
        x for a, b, v in pays for x in (str(v), "%s pays %s" % (a, b))
    ]
    assert texts(got["p4"]) == texts(got["p1"])  # Down from the last: the first
    # after a reboot the evening's older games are read back from the journal: the same screen
    assert device.ink(os.path.join(out, "p1_reboot.pbm")) == device.ink(os.path.join(out, "p1.pbm"))
    assert texts(got["new_q"]) == [
        "Start a new evening?",
        "The next games are settled apart",
        "Nothing is erased",
        "A: save · B: back · C: cancel",
    ]
    assert got["started"]["mode"] == "score" and texts(got["started"])[-1] == "New evening"
    assert texts(got["new1"]) == [
        "Evening · games: 0",
        "1/2",
        "No finished games yet",
        "▲▼: page · A/B/C: back",
    ]
    g = from_record(
        {
            "method": NEXT[0],
            "players": NEXT[1],
            "start": NEXT[2],
            "rules": {"preset": "seed"},
            "hands": NEXT[3],
        }
    )
    assert texts(got["new2"]) == ["The game so far", "2/2"] + [
        x for s in range(3) for x in (str(g.totals[s]), NEXT[1][s])
    ] + ["▲▼: page · A/B/C: back"]
    assert got["back"]["mode"] == "score"
    # the Evening screen's module was forgotten when it was left
    assert "knockfw.ui_evening" not in r["ui_modules"]


def test_an_evening_in_russian_with_a_stake():
    out = os.path.join(OUT, "evening_ru")
    device.run_script(play({"lang": "ru", "stake": 10}), out)
    got = shots(out)
    for name, shot in got.items():
        device.check_layout(name, shot["boxes"])
    rows, pays = the_ledger(GAMES)

    def money(v, sign=True):
        m = ledger.money(abs(v) * 10)
        return (("+" if v >= 0 else "−") + m) if sign else m

    assert texts(got["p1"]) == ["Вечер · партий: 3", "1/3"] + [
        x
        for name, net, games, wins in rows[:3]
        for x in (signed(net), name, "партий %d · побед %d · %s" % (games, wins, money(net)))
    ] + ["▲▼: страницы · A/B/C: назад"]
    assert texts(got["p3"])[2:-1] == [
        x for a, b, v in pays for x in (money(v, False), "%s → %s" % (a, b), "очки: %d" % v)
    ]
    assert texts(got["p3"])[0] == "Расчёт"
    assert texts(got["new_q"])[0] == "Начать новый вечер?"
    assert "Партия идёт" in texts(got["new2"])
