"""The laptop tool and the rules core type-check with mypy (the configuration is pyproject.toml's
[tool.mypy]: check_untyped_defs over host/knockbox and shared/knockcore), and the check has
teeth. The device's code is checked against the rp2 stubs in test_boards_hardware.py."""

import os
import subprocess

from kit import mp
import pytest

pytestmark = pytest.mark.slow  # each takes seconds (see pyproject's markers)

MYPY = os.path.join(mp.BIN, "mypy")


def _mypy(*args, cwd=mp.ROOT):
    return subprocess.run(
        [
            MYPY,
            "--config-file",
            os.path.join(mp.ROOT, "pyproject.toml"),
            "--cache-dir",
            os.devnull,
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_laptop_tool_and_the_core_type_check():
    r = _mypy()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success: no issues found" in r.stdout


def test_the_check_has_teeth(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    x = None\n    return x.upper()\n")  # in an untyped def
    r = _mypy(str(bad), cwd=str(tmp_path))
    assert r.returncode == 1 and 'has no attribute "upper"' in r.stdout, r.stdout
