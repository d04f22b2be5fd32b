"""The shared corpus of rules vectors, on CPython and on the MicroPython unix port (from source and
from .mpy files compiled with mpy-cross -O3): expectations hold, and both engines agree exactly."""

import json
import os

import pytest

from kit import mp
from knockcore.errors import GameError
from knockcore.game import from_record

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS_PATH = os.path.join(HERE, "vectors", "games.json")
with open(VECTORS_PATH, encoding="utf-8") as _f:
    VECTORS = json.load(_f)


def cpython_result(v):
    try:
        return {"name": v["name"], "standings": from_record(v["game"]).standings()}
    except GameError as e:
        return {"name": v["name"], "error": str(e)}


def check_expectation(v, result):
    if "error" in v:
        assert "error" in result, "%s: accepted bad input" % v["name"]
        assert v["error"] in result["error"], result["error"]
        return
    assert "standings" in result, "%s: refused: %s" % (v["name"], result.get("error"))
    s = result["standings"]
    for key, want in v["expect"].items():
        if key == "hands":
            got = [{k: h[k] for k in want[0]} for h in s["hands"]]
            assert got == want, "%s: hands" % v["name"]
        else:
            assert s.get(key) == want, "%s: %s is %r, want %r" % (v["name"], key, s.get(key), want)
    if s["over"]:
        assert sum(s["net"]) == 0


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_cpython(v):
    check_expectation(v, cpython_result(v))


def test_corpus_is_current():
    """games.json is generated from make_games.py: the two must not drift apart."""
    import subprocess
    import sys

    before = open(VECTORS_PATH, encoding="utf-8").read()
    subprocess.run(
        [sys.executable, os.path.join(HERE, "vectors", "make_games.py")],
        check=True,
        capture_output=True,
    )
    assert open(VECTORS_PATH, encoding="utf-8").read() == before


def run_under_micropython(paths):
    p = mp.run_file(os.path.join(HERE, "mp_scripts", "vectors_run.py"), [VECTORS_PATH], paths=paths)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(line) for line in p.stdout.splitlines()]
    return lines[:-1], lines[-1]["peak"]


@pytest.fixture(scope="module")
def mpy_dir(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("mpy"))
    return mp.build(d, modules=["knockcore"])


@pytest.mark.parametrize("build", ["source", "mpy"])
def test_vectors_micropython(build, mpy_dir):
    paths = [os.path.join(mp.ROOT, "shared")] if build == "source" else [mpy_dir]
    results, _peak = run_under_micropython(paths)
    assert len(results) == len(VECTORS)
    for v, r in zip(VECTORS, results):
        assert r["name"] == v["name"]
        check_expectation(v, r)
        # Identical to CPython, down to every per-hand entry and error message.
        assert r == cpython_result(v), v["name"]
