"""Buttons: bouncing contact traces give exactly the expected events, on CPython and under the
MicroPython unix port (the same cases, tests/mp_scripts/buttons_cases.py), from source and from
.mpy compiled with mpy-cross -O3."""

import buttons_cases  # tests/mp_scripts/ (on sys.path: bench/_paths.py)
import pytest

from kit import mp

SCRIPT = buttons_cases.__file__
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
