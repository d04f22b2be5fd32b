"""The small things a new user trips on, through the command: `knockbox` alone, a mistyped
option, `simulate --no-tty` at the end of its input, counts in words ("1 new game"), the worked
examples in the wheel, `push --sleep`'s range."""

import json
import os
import subprocess
import sys
import zipfile

import pytest

from kit.clirun import knockbox
from kit.ptydevice import KNOCKBOX, FakeDevice, good_device, journal
from test_platforms import wheel  # noqa: F401 - a fixture: the wheel, built from a copy
from test_ports import fake  # noqa: F401 - a fixture: the simulator's stand-in firmware
from test_simulate import lines, read_until, start_sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "method3.json")


def test_knockbox_alone_prints_the_help():
    p = subprocess.run([KNOCKBOX], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.startswith("usage: knockbox ")
    assert "  sync      pull new games" in p.stdout and "  book      " in p.stdout


@pytest.mark.parametrize(
    "argv, usage, unknown",
    [
        (["sync", "--prot", "x"], "usage: knockbox sync [-h] [--port P]", "--prot x"),
        (["history", "--jsn"], "usage: knockbox history [-h]", "--jsn"),
        (
            ["player", "rename", "ann", "Ann", "--mrge"],
            "usage: knockbox player rename [-h]",
            "--mrge",
        ),
        (
            ["replay", EXAMPLE, "--engnie", "cpython"],
            "usage: knockbox replay [-h]",
            "--engnie cpython",
        ),
    ],
)
def test_a_mistyped_option_shows_the_commands_usage(argv, usage, unknown):
    p = subprocess.run([KNOCKBOX] + argv, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith(usage)
    command = usage.split(" [")[0][len("usage: ") :]  # "knockbox player rename"
    assert p.stderr.endswith("%s: error: unrecognized arguments: %s\n" % (command, unknown))


@pytest.mark.slow
def test_simulate_no_tty_ends_with_its_input(tmp_path, fake):  # noqa: F811
    sim = str(tmp_path / "sim")
    p = start_sim(["--dir", sim, "--script", fake])
    try:
        read_until(p, lambda s: s.startswith("frame 1 "))
        p.stdin.write("a\nb")  # the last line without its newline, and no quit
        p.stdin.close()
        assert p.wait(30) == 0
    finally:
        if p.poll() is None:
            p.kill()
    assert lines(os.path.join(sim, "keys")) == ["press a 120", "press b 120"]  # played first
    # nothing at all on stdin: it ends too
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "knockbox.cli",
            "simulate",
            "--no-tty",
            "--dir",
            sim,
            "--script",
            fake,
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("serial port: ")


def test_counts_are_written_in_words(db, tmp_path):
    evs, _ = journal(3)  # one game of three hands: five records
    with FakeDevice(good_device(evs)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db, "--timeout", "2")
        assert code == 0, err
        assert out.endswith(": 5 new records: 1 new game, 0 updated\n"), out
    code, out, err = knockbox("import", "--db", str(tmp_path / "i.sqlite3"), EXAMPLE)
    assert (code, out) == (0, "1 game imported\n")
    code, out, err = knockbox(
        "export", "--db", str(tmp_path / "i.sqlite3"), "--json", "-o", str(tmp_path / "e.json")
    )
    assert (code, err) == (0, "1 game written to %s\n" % (tmp_path / "e.json"))


def test_one_of_a_kind_is_said_in_the_singular(tmp_path):
    # one game of one hand to a target of 1, no bonuses: each loser pays the winner 1 point
    db, f = str(tmp_path / "h.sqlite3"), tmp_path / "one.json"
    f.write_text(
        json.dumps(
            {
                "format": "knockbox-game/1",
                "method": 1,
                "players": ["Ann", "Bob", "Cy"],
                "start": {"dealer": 0, "idle": 2},
                "hands": [{"knock": 0, "counts": [5, 6, None]}],
                "rules": {
                    "preset": "seed",
                    "target": 1,
                    "game_bonus": 0,
                    "box_bonus": 0,
                    "shutout_extra": 0,
                },
            }
        )
    )
    assert knockbox("import", f, "--db", db)[:2] == (0, "1 game imported\n")
    code, out, err = knockbox("settle", "--db", db)
    assert out.endswith("\nBob pays Ann 1 point\nCy pays Ann 1 point\n"), out
    code, out, err = knockbox("report", "--db", db, "-o", tmp_path / "r.html")
    assert err == "report of 1 game written to %s\n" % (tmp_path / "r.html")
    assert "<p>1 game · " in (tmp_path / "r.html").read_text()
    code, out, err = knockbox("book", "--db", db, "-o", tmp_path / "book", "--jobs", "1")
    assert err.startswith("book of 1 evening and 3 players in "), err
    assert "1 game over 1 evening, " in (tmp_path / "book" / "index.html").read_text()


def test_the_worked_examples_come_with_the_wheel(tmp_path, wheel):  # noqa: F811
    target = tmp_path / "installed"
    names = zipfile.ZipFile(wheel).namelist()
    assert sorted(n for n in names if n.startswith("knockbox/examples/")) == sorted(
        "knockbox/examples/" + f for f in os.listdir(os.path.join(ROOT, "examples"))
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), wheel],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # the installed knockbox (not this checkout's), run where there is no examples/ folder:
    # the README's command and the example's bare name both replay the packaged file
    installed = (
        "import sys; sys.path.insert(0, %r); import knockbox; "
        "assert knockbox.__file__.startswith(%r), knockbox.__file__; "
        "from knockbox.cli import main; sys.exit(main(sys.argv[1:]))" % (str(target), str(target))
    )
    want = subprocess.run(
        [KNOCKBOX, "replay", EXAMPLE], capture_output=True, text=True, timeout=60
    ).stdout
    assert '"final": [425, 88, 35]' in want
    for name in ("examples/method3.json", "method3"):
        p = subprocess.run(
            [sys.executable, "-c", installed, "replay", name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (p.returncode, p.stdout, p.stderr) == (0, want, "")
    # and from this checkout, the README's command as it is written
    code, out, err = knockbox("replay", "examples/method3.json")
    assert (code, out) == (0, want)


def test_push_sleep_says_its_range():
    code, out, err = knockbox("push", "--sleep", "5")
    assert (code, out, err) == (1, "", "knockbox: --sleep: 5 is not in 30..86400 seconds\n")
    p = subprocess.run([KNOCKBOX, "push", "--help"], capture_output=True, text=True, timeout=60)
    assert "idle seconds before power-off, 30..86400" in " ".join(p.stdout.split())


def test_push_roster_names_are_checked_as_the_history_keeps_them():
    for name, says in (
        ("\udcff", "'\\udcff' is not UTF-8 text"),
        ("x" * 30, "'%s' is 30 characters: the device allows 24" % ("x" * 30)),
        (" ", ": a player's name must be a non-empty text"),
    ):
        code, out, err = knockbox("push", "--roster", name, "Bob")
        assert (code, out) == (1, "") and err.startswith("knockbox: --roster: the name")
        assert err.endswith(says + "\n") and err.count("\n") == 1, err


@pytest.mark.parametrize("rules", ["[" * 10000 + "]" * 10000, '{"a":' * 10000 + "1" + "}" * 10000])
def test_push_rules_nested_too_deeply_is_one_line(rules):
    code, out, err = knockbox("push", "--rules", rules)
    assert (code, out, err) == (1, "", "knockbox: --rules: nested too deeply to be rules\n")
