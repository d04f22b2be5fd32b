"""The laptop tool and the rules core type-check with mypy (the configuration is pyproject.toml's
[tool.mypy]: over host/knockbox and shared/knockcore, every function annotated), and the check has
teeth. The device's code is checked against the rp2 stubs in test_boards_hardware.py."""

import os
import re
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


def test_a_function_left_unannotated_fails_the_check(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def add(a, b):\n    return a + b\n\n\ndef half(x: int):\n    return x // 2\n")
    r = _mypy(str(bad), cwd=str(tmp_path))
    assert r.returncode == 1, r.stdout
    assert "bad.py:1: error: Function is missing a type annotation" in r.stdout, r.stdout
    assert "bad.py:5: error: Function is missing a return type annotation" in r.stdout, r.stdout


def test_no_module_is_let_off_annotations():
    """pyproject.toml asks every function annotated, and no override lets a module off."""
    with open(os.path.join(mp.ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    mypy = text[text.index("[tool.mypy]") :]
    mypy = mypy[: mypy.index("[tool.ruff]")]
    top = mypy.split("[[tool.mypy.overrides]]")[0]
    assert re.search(r"^disallow_untyped_defs = true$", top, re.M), top
    assert re.search(r"^disallow_incomplete_defs = true$", top, re.M), top
    assert not re.search(r"^(disallow_untyped_defs|disallow_incomplete_defs) = false", mypy, re.M)
    assert not re.search(r"^(ignore_errors|check_untyped_defs = false)", mypy, re.M)
