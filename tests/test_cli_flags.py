"""Every flag checked, every message right, as a user meets them on the command line: a bad
value is one line `knockbox: --flag: ...` and exit code 1 (no traceback, nothing started), and
what the commands say fits what happened."""

import os
import subprocess
import sys

import pytest

from kit import mp
from kit.clirun import knockbox
from test_simulate import FAKE_FIRMWARE

KNOCKBOX = [sys.executable, "-m", "knockbox.cli"]


def run(*args, timeout=60):
    """A knockbox process, its input empty (a simulator started by mistake quits at once)."""
    return subprocess.run(
        KNOCKBOX + [str(a) for a in args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=mp.ROOT,
    )


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_sim.py"
    path.write_text(FAKE_FIRMWARE)
    return str(path)


# ---- simulate ---------------------------------------------------------------------------------


def test_simulate_screenshot_must_be_a_folder(tmp_path, fake):
    a_file = tmp_path / "shots.png"
    a_file.write_bytes(b"x")
    sim = ["simulate", "--no-tty", "--dir", tmp_path / "sim", "--script", fake]
    for shots, says in (
        (a_file, "--screenshot: %s is a file: give a folder for the screenshots" % a_file),
        (
            a_file / "frames",
            "--screenshot: cannot make the folder %s: Not a directory" % (a_file / "frames"),
        ),
    ):
        p = run(*sim, "--screenshot", shots)
        assert (p.returncode, p.stdout, p.stderr) == (1, "", "knockbox: %s\n" % says)
    assert a_file.read_bytes() == b"x"
    assert not (tmp_path / "sim").exists()  # nothing started


def test_simulate_scale_has_bounds(tmp_path, fake):
    sim = ["simulate", "--no-tty", "--dir", tmp_path / "sim", "--script", fake]
    for scale in ("0", "-3", "9", "100000"):  # (100000: a 14.6 GB screenshot)
        p = run(*sim, "--scale", scale, "--screenshot", tmp_path / "shots")
        assert (p.returncode, p.stdout) == (1, ""), (scale, p.stdout, p.stderr)
        assert p.stderr == (
            "knockbox: --scale: %s is not in 1..8 (screenshot pixels per pixel of the "
            "device's screen)\n" % scale
        )
    assert not (tmp_path / "sim").exists()
    p = run("simulate", "--help")
    assert "per device pixel, 1..8 (default 2)" in " ".join(p.stdout.split())


# ---- money, time ------------------------------------------------------------------------------


@pytest.fixture
def evening(tmp_path):
    """A history with one evening of three finished games."""
    from kit import evenings as E

    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal([E.M1, E.M2, E.M3]))
    return db


def test_per_point_zero_is_no_money(evening, tmp_path):
    """settle and report take 0.01..1000 a point, as their help says (push --stake 0 switches
    the device's money off: that one is a setting)."""
    for rate in ("0", "0.00"):
        for cmd in (["settle"], ["report", "-o", tmp_path / "r.html"]):
            code, out, err = knockbox(*cmd, "--db", evening, "--per-point", rate)
            assert (code, out) == (1, ""), (cmd, err)
            assert err == (
                "knockbox: --per-point: %s is no money: give an amount from 0.01 to 1000 per "
                "point\n" % rate
            )
    assert not (tmp_path / "r.html").exists()
    code, out, err = knockbox("settle", "--db", evening, "--per-point", "0.01")
    assert code == 0 and " = " in out, err


def test_timeout_must_be_a_time_to_wait(tmp_path):
    """sync and push: a --timeout that is no time to wait is said as such, before any port is
    looked for (it used to be blamed on the port)."""
    for cmd in (["sync", "--db", tmp_path / "h.sqlite3"], ["push"]):
        for t, shown in (("-1", "-1"), ("0", "0"), ("nan", "nan"), ("1e9", "1000000000")):
            code, out, err = knockbox(*cmd, "--port", "/dev/null", "--timeout", t)
            assert (code, out) == (1, ""), (cmd, t, err)
            assert err == (
                "knockbox: --timeout: %s is not a number of seconds above 0 and at most "
                "3600\n" % shown
            )
    assert not (tmp_path / "h.sqlite3").exists()


# ---- words ------------------------------------------------------------------------------------

EXAMPLES = os.path.join(mp.ROOT, "examples")


@pytest.fixture
def examples_db(tmp_path):
    """The worked examples of docs/RULES.md imported, in the order named: game 1 method 2, game 2
    method 3 with a tie of the knocker (unfinished), game 3 method 1."""
    db = str(tmp_path / "h.sqlite3")
    for name in ("method2", "method3-both-lowest", "method1"):
        code, out, err = knockbox("import", os.path.join(EXAMPLES, name + ".json"), "--db", db)
        assert code == 0, err
    return db


def hands_of(out):
    """show's hand rows: {hand number: the result column}."""
    got = {}
    for line in out.splitlines():
        cells = line.split("  ")
        if cells[0].strip().isdigit():
            got[int(cells[0])] = [c.strip() for c in cells[1:] if c.strip()][1]
    return got


def test_show_names_the_knocker_alone(examples_db):
    """Method 2: the partner who knocked knocks, though both partners win the hand."""
    code, out, err = knockbox("show", "1", "--db", examples_db, "--lang", "en")
    assert code == 0, err
    got = hands_of(out)
    assert got[1] == "Bob knocks" and got[5] == "Bob knocks"  # (Bob and Cy won them)
    assert got[3] == "Cy knocks, undercut: Ann" and got[2] == "Ann: gin"
    assert "&" not in out and "winners: Bob and Cy" in out


def test_a_tie_with_the_knocker_has_one_name(examples_db, tmp_path):
    """Method 3: an opponent who ties the knocker's count: "a tie" (the rules' word, RULES.md
    section 7: "равенство") in show, the report and the rules' own tables, in English and
    Russian; a lower count is an undercut ("подрезка")."""
    code, out, err = knockbox("show", "2", "--db", examples_db, "--lang", "en")
    assert code == 0, err
    assert hands_of(out) == {
        1: "Ann knocks, undercut: Bob and Cy",
        2: "Bob knocks, a tie: Ann and Cy",
    }
    code, out, err = knockbox("show", "2", "--db", examples_db, "--lang", "ru")
    assert hands_of(out) == {
        1: "Ann стучит, подрезка: Bob и Cy",
        2: "Bob стучит, равенство: Ann и Cy",
    }
    page = tmp_path / "r.html"
    for lang, want in (("en", "Bob knocks, a tie: "), ("ru", "Bob стучит, равенство: ")):
        code, out, err = knockbox("report", "2", "--db", examples_db, "-o", page, "--lang", lang)
        assert code == 0, err
        text = page.read_text(encoding="utf-8")
        assert want in text.replace("<bdi>", "").replace("</bdi>", "")
    with open(os.path.join(mp.ROOT, "docs", "RULES.md"), encoding="utf-8") as f:
        rules = f.read()
    assert "Ann +17, a tie; Cy −20" in rules and "Cy and Ann +0, a tie; Bob −20" in rules
    tables = "\n".join(ln for ln in rules.splitlines() if ln.startswith("|"))
    for other in ("ties the knocker", "tie the knocker", "undercut by"):
        assert other not in tables and other not in out


def test_show_and_history_speak_russian(examples_db):
    """README: show and history speak Russian, with --lang ru or a Russian locale."""
    want_show = [
        "партия 2: способ 3, Ann, Bob, Cy; идёт; ",
        "правила: preset=seed",
        "сдача",
        "сдаёт",
        "розыгрыш",
        "очки",
        "взято",
        "дальше: сдаёт ",
    ]
    for how, env in ((["--lang", "ru"], {}), ([], {"LANG": "ru_RU.UTF-8", "LANGUAGE": ""})):
        p = subprocess.run(
            KNOCKBOX + ["show", "2", "--db", examples_db] + how,
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, LC_ALL="", LC_MESSAGES="", **env),
        )
        assert p.returncode == 0, p.stderr
        for w in want_show:
            assert w in p.stdout, (how, w, p.stdout)
        for english in ("game ", "method", "synced", "knocks", "deals", "totals", "next"):
            assert english not in p.stdout, (how, english)
        p = subprocess.run(
            KNOCKBOX + ["history", "--db", examples_db] + how,
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, LC_ALL="", LC_MESSAGES="", **env),
        )
        lines = p.stdout.splitlines()
        assert (
            lines[0].split()
            == "№ получена устройство вечер способ игроки сдачи победа состояние".split()
        )
        assert [ln.split()[-1] for ln in lines[1:]] == ["окончена", "идёт", "окончена"]
    code, out, err = knockbox("show", "1", "--db", examples_db, "--lang", "ru")
    assert "победа: Bob и Cy" in out and "Ann → Bob: 162" in out
    code, out, err = knockbox("show", "3", "--db", examples_db, "--lang", "en")
    assert "winner: Bob" in out and "game 3: method 1, " in out


def test_stats_since_a_date_with_no_games_says_so(examples_db):
    code, out, err = knockbox("stats", "--db", examples_db, "--since", "2099-01-01")
    assert (code, out, err) == (0, "no games first synced on or after 2099-01-01\n", "")
    code, out, err = knockbox("stats", "--db", examples_db)
    assert code == 0 and out.startswith("player ")


def test_one_rated_game_is_one(tmp_path):
    """A player page of the book: "after 1 rated game", "after 2 rated games"."""
    import json
    import re

    db = str(tmp_path / "h.sqlite3")
    recs = []
    for name, players in (("method1", ["Ann", "Bob", "Cy"]), ("method2", ["Ann", "Bob", "Dee"])):
        with open(os.path.join(EXAMPLES, name + ".json"), encoding="utf-8") as f:
            recs.append(dict(json.load(f), players=players))
    (tmp_path / "games.json").write_text(json.dumps(recs), encoding="utf-8")
    code, out, err = knockbox("import", tmp_path / "games.json", "--db", db)
    assert code == 0, err
    book = tmp_path / "book"
    code, out, err = knockbox("book", "--db", db, "-o", book, "--lang", "en")
    assert code == 0, err
    lines = {}
    for page in os.listdir(book / "players"):
        text = (book / "players" / page).read_text(encoding="utf-8")
        m = re.search(r'data-k="rating-line">([^<]*)<', text)
        lines[page.split("-")[0]] = m.group(1)
    assert lines["ann"].endswith(" after 2 rated games"), lines
    assert lines["dee"].endswith(" after 1 rated game"), lines
    assert lines["cy"].endswith(" after 1 rated game"), lines


def test_open_says_when_no_browser_starts(examples_db, tmp_path):
    """report --open and book --open: when no web browser starts, a note says where the page is
    (it is written all the same); when one does, it gets the page."""
    bare = dict(os.environ, PATH=str(tmp_path / "nothing"))  # no browser to be found
    for key in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        bare.pop(key, None)
    got = tmp_path / "got"
    browser = tmp_path / "browser.sh"
    browser.write_text('#!/bin/sh\necho "$1" >> %s\n' % got)
    browser.chmod(0o755)
    page, book = tmp_path / "r.html", tmp_path / "book"
    for cmd, opens in (
        (["report", "--db", examples_db, "-o", page], page),
        (["book", "--db", examples_db, "-o", book], book / "index.html"),
    ):
        for env, note in ((bare, True), (dict(bare, BROWSER=str(browser)), False)):
            p = subprocess.run(
                KNOCKBOX + [str(a) for a in cmd] + ["--open", "--lang", "en"],
                capture_output=True,
                text=True,
                timeout=120,
                cwd=mp.ROOT,
                env=env,
            )
            assert p.returncode == 0, p.stderr
            said = "note: no web browser started here: open %s in one\n" % opens
            assert (said in p.stderr) == note, p.stderr
    assert got.read_text().split() == [page.as_uri(), (book / "index.html").as_uri()]
