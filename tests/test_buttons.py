"""Buttons: bouncing contact traces give exactly the expected events, on CPython and under the
MicroPython unix port (the same cases, tests/mp_scripts/buttons_cases.py), from source and from
.mpy compiled with mpy-cross -O3."""
import os

import pytest

import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "buttons_cases.py")

import sys  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "mp_scripts"))
import buttons_cases  # noqa: E402

CASES = buttons_cases.cases()


@pytest.mark.parametrize("name", CASES)
def test_cpython(name):
    getattr(buttons_cases, name)()


def _check_mp_output(r):
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")
    assert lines[-2:] == ["done", ""], r.stdout
    assert sorted(line[3:] for line in lines[:-2]) == sorted(CASES)


def test_micropython_source():
    _check_mp_output(mp.run_file(SCRIPT, cwd=HERE))


def test_micropython_mpy(tmp_path):
    lib = mp.build(str(tmp_path), modules=["knockfw.buttons"])
    _check_mp_output(mp.run_file(SCRIPT, paths=[lib], cwd=HERE))
