"""`knockbox replay` through the installed console script, as a user runs it."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
with open(os.path.join(HERE, "vectors", "games.json"), encoding="utf-8") as _f:
    VECTORS = json.load(_f)


def knockbox(*args, stdin=None):
    return subprocess.run(
        [KNOCKBOX] + list(args), input=stdin, capture_output=True, text=True, timeout=120
    )


def test_example_game_prints_the_worked_example():
    p = knockbox("replay", os.path.join(ROOT, "examples", "method3.json"))
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["final"] == [425, 88, 35] and s["net"] == [727, -284, -443] and s["over"] is True


@pytest.mark.parametrize(
    "name",
    [
        "m1 worked example (RULES 5)",
        "m2 worked example (RULES 5)",
        "m3 double ties",
        "cyrillic names",
    ],
)
def test_micropython_engine_prints_identical_output(tmp_path, name):
    v = next(v for v in VECTORS if v["name"] == name)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(v["game"], ensure_ascii=False), encoding="utf-8")
    a = knockbox("replay", str(path))
    b = knockbox("replay", str(path), "--engine", "micropython")
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert a.stdout == b.stdout


@pytest.mark.parametrize("engine", ["cpython", "micropython"])
def test_a_knock_at_0_is_scored_as_gin(engine):
    # 0 deadwood is gin (docs/RULES.md): no tie, no undercut, the gin bonus; the same in both
    # engines (the device scores it with the same core).
    v = next(v for v in VECTORS if v["name"] == "m3 knock at zero is gin, not a tie")
    assert v["game"]["hands"] == [{"knock": 0, "counts": [0, 0, 10]}]
    p = knockbox("replay", "-", "--engine", engine, stdin=json.dumps(v["game"]))
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["hands"][0]["kind"] == "gin" and s["totals"] == [50, 0, 0] and s["boxes"] == [1, 0, 0]


def test_standard_input():
    v = VECTORS[0]["game"]
    p = knockbox("replay", "-", stdin=json.dumps(v))
    assert p.returncode == 0 and json.loads(p.stdout)["net"] == [-196, -416, 612]


@pytest.mark.parametrize("engine", ["cpython", "micropython"])
def test_bad_hand_is_one_line_on_stderr_and_exit_1(engine):
    v = next(v for v in VECTORS if v["name"] == "knock above the limit")
    p = knockbox("replay", "-", "--engine", engine, stdin=json.dumps(v["game"]))
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == "knockbox: hand 1: knock: A's count 11 is above the knock limit 10\n"


def test_unreadable_inputs_are_clear_errors(tmp_path):
    p = knockbox("replay", str(tmp_path / "nope.json"))
    assert p.returncode == 1 and "No such file" in p.stderr and "Traceback" not in p.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    p = knockbox("replay", str(bad))
    assert p.returncode == 1 and "not valid JSON" in p.stderr and "Traceback" not in p.stderr
    p = knockbox("replay", "-", stdin="[1, 2]")
    assert p.returncode == 1 and "game record: must be an object" in p.stderr
    # a \u escape of half a character (a lone surrogate): no text holds it
    v = dict(VECTORS[0]["game"], players=["\ud800", "Bob", "Cy"])
    for engine in ("cpython", "micropython"):
        p = knockbox("replay", "-", "--engine", engine, stdin=json.dumps(v))
        assert (p.returncode, p.stdout, p.stderr) == (
            1,
            "",
            "knockbox: -: not text (a \\u escape of half a character)\n",
        )


def test_help_lists_commands():
    p = knockbox("--help")
    assert p.returncode == 0 and "replay" in p.stdout
