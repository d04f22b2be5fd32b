"""The evening from end to end, on the emulated Badger 2040: an evening of three games (one per method)
played through the GPIO buttons, with a stake of 0.10 a point set in the device's settings; the
Evening screen opened with one press from the game-over screen and paged through; a new evening
started from the menu; the next game begun and its first hand played; the new evening's screen
(no finished game, the game on the table "so far"); then `knockbox sync`.

Checked: every page the panel showed (decoded from the SPI stream) is, pixel for pixel, what the
unix port draws after the same presses; the numbers drawn there (tests/mp_scripts/app_driver.py
keeps the text of each screen) are the rules core's ledger (knockcore.evening) over the games
played; and `knockbox settle --evening 1 --json --per-point 0.1` and the page `knockbox report
--evening 1` writes say the same numbers, to the point and to the cent. The laptop puts the
games in the evenings the device started (history), and the new evening holds only the game
still being played (settle leaves it out)."""

import json
import re

from kit import device as unix  # tests/kit/device.py: the firmware under the MicroPython unix port
import emu_frames
from emu_plan import SEATS, Planner
from kit.fake_store import FakeStore
from knockcore import evening as ledger
from knockcore import events
from knockfw import ui_settings

RULES = {"preset": "seed", "target": 30, "m3_target": 40}  # short games (set with knockbox push)
STAKE = 10  # 0.10 a point, in hundredths
GAMES = [  # (method, players, start, hands): a knock and a gin each, small counts (few presses)
    (
        1,
        ["Ann", "Bob", "Cy"],
        {"idle": 2, "dealer": 0},
        [{"knock": 0, "counts": [1, 2, None]}, {"gin": 0, "counts": [0, None, 4]}],
    ),
    (
        2,
        ["Dee", "Bob", "Cy"],
        {"box": 1, "captain": 0},
        [{"knock": 1, "counts": [3, 1, None]}, {"gin": 1, "counts": [None, 0, 3]}],
    ),
    (
        3,
        ["Dee", "Bob", "Ann"],
        {"dealer": 2},
        [{"knock": 1, "counts": [2, 1, 1]}, {"gin": 2, "counts": [1, 2, 0]}],
    ),
]
NEXT_HAND = {"knock": 0, "counts": [1, 2, 3]}


def journal_of(p):
    """The journal the device writes for the planner's games and evenings (the Evening screen
    reads it while the presses are planned)."""
    evs = [{"t": "epoch", "e": 0, "dev": "plan", "next": 1}]
    for i, rec in enumerate(p.records()):
        if i in p.evenings:
            evs.append(events.evening(i + 1))
        evs.append({"t": "game", "g": i + 1, "rec": {k: rec[k] for k in rec if k != "hands"}})
        evs += [{"t": "hand", "g": i + 1, "h": h} for h in rec["hands"]]
    if len(p.games) in p.evenings:
        evs.append(events.evening(len(p.games) + 1))
    return evs


def plan():
    """The presses, and the points after which the panel is looked at: [(name, press count)]."""
    p = Planner({"rules": RULES, "stake": 0})  # (the app's default settings have it)
    shots = []

    def shot(name):
        shots.append((name, len(p.presses)))

    p.choose("settings")  # the stake: the last item before the about line
    items = ui_settings.ITEMS
    p._until(lambda: p.ui.act.sel < len(items) and items[p.ui.act.sel][0] == "stake", "up")
    p.ev("a")
    p.ev("a")
    p.ev("c")
    assert p.settings["stake"] == STAKE
    for method, names, start, hands in GAMES:
        p.new_game(method, names, start)
        for h in hands:
            p.hand(h)
        assert p.game.over, "game %d does not end with its last hand" % method
    p.ui.store = FakeStore(journal_of(p))
    p.ev("b")  # one press from the game-over screen
    assert p.ui.mode == "evening"
    pages = len(p.ui.act.pages)
    for i in range(pages):
        if i:
            p.ev("down")
        shot("evening1_p%d" % (i + 1))
    p.ev("c")
    p.choose("new_evening")
    shot("new_evening")
    p.ev("a")
    assert p.evenings == [3]
    p.ev("a")  # the next game: who cut the highest deals?
    assert p.ui.mode == "roles"
    p.ev(SEATS[0])
    assert len(p.games) == 4 and p.game.start == {"dealer": 0}
    p.hand(NEXT_HAND)
    p.ui.store = FakeStore(journal_of(p))
    p.choose("evening")
    shot("evening2_p1")
    p.ev("down")
    shot("evening2_p2")
    p.ev("c")
    return p, shots, pages


def numbers(games):
    led = {}
    for g in games:
        assert ledger.add(led, g.standings(False))
    return ledger.rows(led), ledger.payments(led)


def texts(out, name):
    with open("%s/%s.json" % (out, name), encoding="utf-8") as f:
        return [b[4] for b in json.load(f)["boxes"]]


def money(v, sign):
    m = ledger.money(abs(v) * STAKE)
    return (("−" if v < 0 else "+") + m) if sign else m


def report_numbers(html):
    """The ledger and the settlement as the report's page says them."""
    ledger_t = re.search(r'<table class="ledger">(.*?)</table>', html, re.S).group(1)
    rows = []
    for player, body in re.findall(r'<tr data-player="([^"]*)">(.*?)</tr>', ledger_t, re.S):
        cells = dict(re.findall(r'data-k="(\w+)"[^>]*>([^<]*)<', body))
        rows.append(
            [player, int(cells["net"]), int(cells["games"]), int(cells["wins"]), cells["money"]]
        )
    settle_t = re.search(r'<table class="settlement">(.*?)</table>', html, re.S).group(1)
    pays = []
    for body in re.findall(r'<tr class="payment">(.*?)</tr>', settle_t, re.S):
        body = re.sub("</?bdi>", "", body)  # (each name is in a <bdi>: its own direction)
        cells = dict(re.findall(r'data-k="(\w+)"[^>]*>(?:<span[^>]*></span>)?([^<]*)<', body))
        pays.append([cells["payer"], cells["payee"], int(cells["points"]), cells["money"]])
    return rows, pays


def test_an_evening_on_the_device_settle_and_the_report_agree(device, tmp_path):
    p, shots, pages = plan()
    rows, pays = numbers(p.games[:3])
    assert len(rows) == 4 and pays, (rows, pays)

    # the unix port: the same settings and presses, a screenshot at each point
    actions = [["settings", {"rules": RULES}]]
    last = 0
    for name, end in shots:
        actions += [p.driver_keys(p.presses[last:end]), ["shot", name]]
        last = end
    actions.append(p.driver_keys(p.presses[last:]))
    out = str(tmp_path / "unix")
    unix.run_script(actions, out)

    # what those screens say: the core's ledger of the three games, money at 0.10 a point
    shown = [texts(out, "evening1_p%d" % (i + 1)) for i in range(pages)]
    assert shown[0][0] == "Evening · games: 3"
    players = [x for page in shown for x in page if x in [r[0] for r in rows]]
    assert players == [r[0] for r in rows]
    for name, net, games, wins in rows:
        page = [pg for pg in shown if name in pg][0]
        i = page.index(name)
        assert page[i - 1 : i + 2] == [
            ("+%d" % net) if net >= 0 else "−%d" % -net,
            name,
            "games %d · wins %d · %s" % (games, wins, money(net, True)),
        ]
    settlement = [pg for pg in shown if pg[0] == "Settlement"]
    assert [x for pg in settlement for x in pg[2:-1]] == [
        x for a, b, v in pays for x in (money(v, False), "%s pays %s" % (a, b), "%d points" % v)
    ]
    assert texts(out, "evening2_p1")[:3] == ["Evening · games: 0", "1/2", "No finished games yet"]
    so_far = texts(out, "evening2_p2")
    assert so_far[0] == "The game so far"
    assert so_far[2:8] == [x for s in range(3) for x in (str(p.game.totals[s]), p.game.players[s])]

    # the emulated Pico: the same presses, the panel at the same points
    assert device.wait_refresh(0, 120), "the app did not draw after boot"
    device.wait_quiet(300)
    device.push("--rules", json.dumps(RULES))
    device.wait_quiet(300)
    marks, missed = device.act_in_steps(p.presses, [end for _n, end in shots] + [len(p.presses)])
    assert missed == [], "presses the panel never answered: %r" % [p.presses[i] for i in missed]
    r = device.frames()
    assert r.errors == [], r.errors[:5]
    for (name, _end), n in zip(shots, marks):
        ref = emu_frames.pbm_image("%s/%s.pbm" % (out, name))
        seen = r.frames[n - 1]
        assert seen.diff(ref) == 0, "%s: the panel shows:\n%s" % (name, seen.ascii())

    # the laptop: sync; the evenings the device started; settle and the report say the same
    device.sync()
    hist = sorted(device.history(), key=lambda g: g["id"])
    assert [(g["status"], g["evening"]) for g in hist] == [
        ("over", 1),
        ("over", 1),
        ("over", 1),
        ("playing", 2),
    ], hist
    assert any(e == {"t": "evening", "next": 4} for _s, e in device.journal())
    res = json.loads(
        device.knockbox("settle", "--evening", "1", "--json", "--per-point", "0.1").stdout
    )
    assert res["games"] == [1, 2, 3] and res["skipped"] == []
    assert [[x["player"], x["net"], x["games"], x["wins"]] for x in res["players"]] == rows
    assert [x["money"] for x in res["players"]] == [ledger.money(r[1] * STAKE) for r in rows]
    assert res["payments"] == [[a, b, v, money(v, False)] for a, b, v in pays]
    latest = json.loads(device.knockbox("settle", "--evening", "--json").stdout)
    assert (
        latest["evening"] == 2 and latest["games"] == [] and latest["skipped"] == [[4, "playing"]]
    )
    page = str(tmp_path / "evening.html")
    device.knockbox("report", "--evening", "1", "--per-point", "0.1", "--lang", "en", "-o", page)
    with open(page, encoding="utf-8") as f:
        got_rows, got_pays = report_numbers(f.read())
    assert got_rows == [r + [ledger.money(r[1] * STAKE)] for r in rows]
    assert got_pays == [[a, b, v, money(v, False)] for a, b, v in pays]
