"""Blind entry of a hand's counts, from the buttons up (tests/mp_scripts/entry_cases.py): every
press one effect, however long it is held past a tap or a long press and however late the loop
polls; on CPython and under the MicroPython unix port."""

import entry_cases  # tests/mp_scripts/ (on sys.path: bench/_paths.py)
import pytest

from kit import mp

SCRIPT = entry_cases.__file__
CASES = mp.cases(SCRIPT)


@pytest.mark.parametrize("name", CASES)
def test_cpython(name):
    getattr(entry_cases, name)()


@pytest.mark.parametrize("name", CASES)
def test_micropython(name):
    mp.run_case(SCRIPT, name)
