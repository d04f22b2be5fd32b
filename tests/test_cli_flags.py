"""Every flag checked, every message right, as a user meets them on the command line: a bad
value is one line `knockbox: --flag: ...` and exit code 1 (no traceback, nothing started), and
what the commands say fits what happened."""

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
