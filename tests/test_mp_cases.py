"""The runner of the MicroPython cases scripts (tests/kit/mp.py cases/run_case and
tests/mp_scripts/run_case.py): each case runs alone, gets its setup arguments, and a failure
names the case and shows its traceback."""

import pytest

from kit import mp

CASES = """\
SEEN = []


def setup(args):
    SEEN.extend(args)


def case_passes():
    if SEEN != ["lfs", "x y"]:
        raise AssertionError("setup got %r" % SEEN)


def case_fails():
    raise ValueError("count 99 is not a count")


def helper_not_a_case():
    pass
"""


def test_each_case_runs_alone_and_a_failure_names_it(tmp_path):
    script = tmp_path / "demo_cases.py"
    script.write_text(CASES)
    assert mp.cases(str(script)) == ["case_fails", "case_passes"]
    r = mp.run_case(str(script), "case_passes", ["lfs", "x y"])
    assert r.stdout == "ok case_passes\n"
    with pytest.raises(
        AssertionError,
        match=r"(?s)demo_cases case_fails failed.*"
        r"ValueError: count 99 is not a count",
    ):
        mp.run_case(str(script), "case_fails")
    with pytest.raises(AssertionError, match="setup got"):
        mp.run_case(str(script), "case_passes", ["posix"])
