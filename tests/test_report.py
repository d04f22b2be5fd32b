"""`knockbox report`: the command line (README.md, "Sync, history and settling up"), and the page itself opened in
headless Chromium (tests/kit/browser.py): it loads nothing from the network, its charts are drawn
(their lines' colours are in the screenshot), and every number on it equals what `knockbox show
--json`, `settle --json` and `stats --json` say; the Russian page speaks the rules' words."""

import io
import json
import os
import re

import numpy
import pytest
from PIL import Image

from kit import browser
from kit import evenings as E
from knockbox import cli, history
from kit.clirun import knockbox

CHROMIUM = browser.executable()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no chromium: scripts/setup --system installs Debian's package",
)


@pytest.fixture(scope="module")
def report_evenings(tmp_path_factory):
    """E.REPORT_PLAN: evening 1 synced, then evening 2 (the clock at 21:10 on 2025-01-31 on)."""
    path = str(tmp_path_factory.mktemp("report") / "h.sqlite3")
    clock = iter(range(10, 60))
    old = history.now
    history.now = lambda: "2025-01-31 21:%02d:00" % next(clock)
    try:
        E.sync_into(path, E.journal(E.REPORT_PLAN[:4]))
        E.sync_into(path, E.journal(E.REPORT_PLAN))  # evening 2 synced later
    finally:
        history.now = old
    return path


def report(db, tmp_path, *args, name="r.html"):
    path = str(tmp_path / name)
    code, out, err = knockbox("report", "--db", db, "-o", path, *args)
    assert code == 0, err
    with open(path, encoding="utf-8") as f:
        return path, f.read()


def games_on(html):
    return [int(g) for g in re.findall(r'<section class="game" data-game="(\d+)"', html)]


def test_which_games(report_evenings, tmp_path, monkeypatch):
    path, html = report(report_evenings, tmp_path)  # default: the latest evening
    assert games_on(html) == [5] and "<h1>Evening 2</h1>" in html
    assert games_on(report(report_evenings, tmp_path, "--evening", "1")[1]) == [1, 2, 3, 4]
    assert games_on(report(report_evenings, tmp_path, "--evening")[1]) == [5]
    assert games_on(report(report_evenings, tmp_path, "3", "1")[1]) == [1, 3]
    since = report(report_evenings, tmp_path, "--since", "2025-01-31")[1]
    assert games_on(since) == [1, 2, 3, 4, 5]
    for args, msg in (
        (["--evening", "3"], "no evening 3"),
        (["1", "--evening"], "only one"),
        (["--per-point", "0.001"], "whole number of hundredths"),
        (["--since", "2099-01-01"], "no games to report"),
    ):
        code, out, err = knockbox(
            "report", "--db", report_evenings, "-o", str(tmp_path / "x.html"), *args
        )
        assert code == 1 and err.startswith("knockbox: ") and msg in err, err
    assert not os.path.exists(tmp_path / "x.html")
    code, out, err = knockbox(
        "report", "--db", report_evenings, "-o", str(tmp_path / "no" / "x.html")
    )
    assert code == 1 and "No such file or directory" in err
    assert [f for f in os.listdir(tmp_path) if f.startswith(".knockbox-")] == []
    with pytest.raises(SystemExit) as e:  # -o is required
        cli.main(["report", "--db", report_evenings])
    assert e.value.code == 2


def test_language_and_open(report_evenings, tmp_path, monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert '<html lang="ru">' in report(report_evenings, tmp_path)[1]
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert '<html lang="en">' in report(report_evenings, tmp_path)[1]
    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    assert '<html lang="en">' in report(report_evenings, tmp_path, "--lang", "en")[1]
    opened = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    path, html = report(report_evenings, tmp_path, "--open")
    assert opened == ["file://" + path]


def test_the_page_is_whole_in_itself(report_evenings, tmp_path):
    """No scripts, no links, no external images or styles, a policy that forbids loading any;
    the same bytes for the same games (charts included)."""
    path, html = report(report_evenings, tmp_path, "--evening", "1", "--per-point", "0.05")
    assert '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';' in html
    for bad in ("<script", "<link", "<img", "<iframe", "@import", "src=", "url(http"):
        assert bad not in html.lower(), bad
    refs = re.findall(r'(?:href|xlink:href)="([^"]*)"', html)
    assert refs and all(r.startswith("#") for r in refs)
    assert html.count("<svg ") == 5  # the net bars and one chart per game
    again = report(
        report_evenings, tmp_path, "--evening", "1", "--per-point", "0.05", name="again.html"
    )[1]
    strip = re.compile(r"made \d{4}-\d\d-\d\d \d\d:\d\d")
    assert strip.sub("", again) == strip.sub("", html)


# ---- in the browser

COLLECT = r"""(() => {
  const txt = e => e ? e.innerText.trim() : null;
  const box = e => { const r = e.getBoundingClientRect();
                     return [r.x + scrollX, r.y + scrollY, r.width, r.height]; };
  const cells = (root, sel, keys) => [...root.querySelectorAll(sel)].map(
      r => keys.map(k => txt(r.querySelector('[data-k="' + k + '"]'))));
  return {
    games: [...document.querySelectorAll('section.game')].map(s => ({
      id: +s.dataset.game,
      hands: [...s.querySelectorAll('tr[data-hand]')].map(tr =>
          [...tr.querySelectorAll('td[data-seat]')].map(td =>
              [txt(td.querySelector('[data-k="total"]')), txt(td.querySelector('[data-k="points"]'))])),
      rows: Object.fromEntries(['boxes', 'final', 'net'].map(k =>
          [k, [...s.querySelectorAll('td[data-k="' + k + '"]')].map(txt)])),
      payments: cells(s, '[data-k="payment"]', ['payer', 'payee', 'points']),
      chart: box(s.querySelector('svg.chart')),
      colours: [...s.querySelectorAll('table.hands thead .dot')].map(d => getComputedStyle(d).backgroundColor),
    })),
    ledger: [...document.querySelectorAll('table.ledger tbody tr')].map(tr =>
        [tr.dataset.player].concat(['games', 'wins', 'net', 'money'].map(k => txt(tr.querySelector('[data-k="' + k + '"]'))))),
    payments: cells(document, 'table.settlement tr.payment', ['payer', 'payee', 'points', 'money']),
    stats: [...document.querySelectorAll('table.stats tbody tr')].map(tr =>
        [tr.dataset.player].concat([...tr.querySelectorAll('td[data-k]')].map(td => [td.dataset.k, txt(td)]))),
    net_chart: box(document.querySelector('svg[data-chart="net"]')),
    skipped: txt(document.querySelector('[data-k="skipped"]')),
    text: document.body.innerText,
  };
})()"""


def rgb(css):
    return tuple(int(v) for v in re.findall(r"\d+", css)[:3])


def pixels_of(img, colour, tol=40):
    """How many pixels of img are within tol (per channel) of colour."""
    a = numpy.asarray(img.convert("RGB"), dtype=int)
    return int((numpy.abs(a - numpy.array(colour)) <= tol).all(axis=2).sum())


def crop(shot, rect):
    x, y, w, h = rect
    return shot.crop((int(x), int(y), int(x + w), int(y + h)))


def signed(v):
    return "%+d" % v


@needs_chromium
def test_report_in_chromium(report_evenings, tmp_path, chromium):
    path, html = report(
        report_evenings, tmp_path, "--evening", "1", "--per-point", "0.05", "--lang", "en"
    )
    page = chromium.open("file://" + path)
    assert page.requests == ["file://" + path]  # the page itself, nothing else
    assert page.problems == []  # nothing blocked, no errors
    got = page.evaluate(COLLECT)
    shot = Image.open(io.BytesIO(page.screenshot()))
    shot.save(str(tmp_path / "report.png"))

    # the selection: `knockbox settle --evening 1 --json` and `stats --evening 1 --json`
    res = json.loads(
        knockbox(
            "settle", "--db", report_evenings, "--evening", "1", "--json", "--per-point", "0.05"
        )[1]
    )
    assert res["games"] == [1, 2, 3] and res["skipped"] == [[4, "playing"]]
    assert got["skipped"] == "Not settled: Game 4 (still being played)"
    assert got["ledger"] == [
        [p["player"], str(p["games"]), str(p["wins"]), signed(p["net"]), p["money"]]
        for p in res["players"]
    ]
    assert got["payments"] == [[a, b, str(v), m] for a, b, v, m in res["payments"]]
    stats = json.loads(knockbox("stats", "--db", report_evenings, "--evening", "1", "--json")[1])
    assert got["stats"] == [
        [p["player"]]
        + [
            [k, signed(p[k]) if k == "net" else str(p[k])]
            for k in "games wins hands hands_won gins undercuts avg_points net".split()
        ]
        for p in stats
    ]

    # each game: `knockbox show ID --json`
    assert [g["id"] for g in got["games"]] == [1, 2, 3, 4]
    for g in got["games"]:
        st = json.loads(knockbox("show", str(g["id"]), "--db", report_evenings, "--json")[1])
        run = [0, 0, 0]
        assert len(g["hands"]) == len(st["hands"]) > 0
        for cells, x in zip(g["hands"], st["hands"]):
            run = [run[s] + x["points"][s] for s in range(3)]
            assert [c[0] for c in cells] == [str(v) for v in run]
            for (_total, pts), v in zip(cells, x["points"]):
                out = "advises" if st["method"] == 2 else "sat out"  # method 2's partner
                assert pts in ((signed(v),) if v else ("", out))
        assert run == st["totals"]
        assert g["rows"]["boxes"] == [str(v) for v in st["boxes"]]
        if st["over"]:
            assert g["rows"]["final"] == [str(v) for v in st["final"]]
            assert g["rows"]["net"] == [signed(v) for v in st["net"]]
            names = st["players"]
            assert g["payments"] == [[names[a], names[b], str(v)] for a, b, v in st["payments"]]
        else:
            assert g["rows"]["final"] == g["rows"]["net"] == g["payments"] == []

        # the chart is drawn: each line's colour is in the screenshot where the chart is
        assert g["chart"][2] > 600 and g["chart"][3] > 200
        img = crop(shot, g["chart"])
        lines = g["colours"][:2] if st["method"] == 2 else g["colours"]
        for c in lines:
            assert pixels_of(img, rgb(c)) > 150, (g["id"], c)
    img = crop(shot, got["net_chart"])
    assert got["net_chart"][2] > 300
    assert pixels_of(img, (0x1A, 0x7F, 0x37)) > 500 and pixels_of(img, (0xCF, 0x22, 0x2E)) > 500


RULES_WORDS = (
    "Вечер 1",
    "Партия 1",
    "партия окончена",
    "сдаёт",
    "сдача",
    "стучит",
    "джин",
    "подрезка",
    "ничья",
    "премиями",
    "свободный",
    "в трудном положении",
    "Расчёт",
    "платит",
    "Первый способ",
    "Второй способ",
    "Третий способ",
    "партия идёт",
    "советует",
)
OLD_WORDS = ("Раздача", "Андеркат", "Пусто", "Бокс", "бокс")


@needs_chromium
def test_russian_report_speaks_the_rules_words(report_evenings, tmp_path, chromium):
    path, html = report(report_evenings, tmp_path, "--evening", "1", "--lang", "ru")
    page = chromium.open("file://" + path)
    assert page.requests == ["file://" + path] and page.problems == []
    text = page.evaluate("document.body.innerText")
    for w in RULES_WORDS:
        assert w in text, w
    for w in OLD_WORDS:
        assert w not in text, w
    assert not re.search(r"\b(hand|game|knocks|void|undercut|pays|winner)\b", text, re.I)


@needs_chromium
def test_the_browser_check_sees_a_fetch(tmp_path, chromium):
    """The checks above can fail: a page that loads an image from the network shows it."""
    page_file = tmp_path / "fetch.html"
    page_file.write_text('<html><body><img src="http://knockbox.invalid/x.png"></body></html>')
    page = chromium.open("file://%s" % page_file)
    assert "http://knockbox.invalid/x.png" in page.requests


def test_unfinished_and_refused_games(tmp_path):
    """A game ended unfinished and one the rules core refused are shown apart, not settled."""
    path = str(tmp_path / "h.sqlite3")
    evs = E.journal([E.M1, E.game(E.UNFINISHED, ["Ann", "Bob", "Cy"])])
    evs.append({"t": "end", "g": 2})
    evs += E.journal([E.game(E.M3, ["Ann", "Bob", "Dee"])])[1:3]
    evs[-2]["g"] = evs[-1]["g"] = 3
    evs.append({"t": "hand", "g": 3, "h": {"knock": 0, "counts": [11, 20, 30]}})
    E.sync_into(path, evs)
    code, out, err = knockbox("history", "--db", path, "--json")
    assert [r["status"] for r in json.loads(out)] == ["over", "abandoned", "invalid"]
    html = report(path, tmp_path)[1]
    assert games_on(html) == [1, 2, 3]
    assert "Not settled: Game 2 (ended unfinished), Game 3 (refused by the rules core)" in html
    assert "above the knock limit" in html and html.count("<svg ") == 3
    assert "The totals so far" in html
