"""Blind entry of a hand's counts, from the buttons up (tests/mp_scripts/entry_cases.py): every
press one effect, however long it is held past a tap or a long press and however late the loop
polls; on CPython and under the MicroPython unix port."""

import os
import sys

import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "entry_cases.py")
sys.path.insert(0, os.path.join(HERE, "mp_scripts"))
import entry_cases  # noqa: E402

CASES = mp.cases(SCRIPT)


@pytest.mark.parametrize("name", CASES)
def test_cpython(name):
    getattr(entry_cases, name)()


@pytest.mark.parametrize("name", CASES)
def test_micropython(name):
    mp.run_case(SCRIPT, name)
