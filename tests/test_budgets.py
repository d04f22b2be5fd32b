"""The budgets have one home in code, bench/budgets.py, which the benches and tests import; the
table of bench/README.md states the same figures: each row's figures (a number and its unit,
outside `code`) are that module's TABLE row, in order."""

import ast
import os
import re

import budgets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "bench", "README.md")
UNITS = "KB|bytes|ms|s|x|hands?|games?|hours|mAh|presses|lines"
FIGURE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)[ -]?(%s)\b" % UNITS)


def figures(text):
    """[(number, unit)] of the figures in text, outside its `code` spans ("300-hand": 300 hand;
    "64-bit" and "RP2040" are no figures)."""
    text = re.sub(r"`[^`]*`", "", text)
    return [(float(n.replace(",", "")), unit) for n, unit in FIGURE.findall(text)]


def table_rows():
    """The budget cell of each row of bench/README.md's "## Budgets" table."""
    with open(README, encoding="utf-8") as f:
        text = f.read().split("\n## Budgets\n", 1)[1]
    table = re.search(r"^\| budget \| checked by \|\n\|---\|---\|\n((?:\|.*\n)+)", text, re.M)
    return [ln[2:].rsplit(" | ", 1)[0] for ln in table.group(1).splitlines()]


def test_the_readme_table_states_the_budgets_of_the_module():
    rows = table_rows()
    assert len(rows) == len(budgets.TABLE) > 10
    for text, want in zip(rows, budgets.TABLE):
        assert figures(text) == [(float(v), unit) for v, unit in want], text


def test_the_figures_read_from_a_row():
    row = (
        "a 300-hand session on the unix port's 192 KB heap (64-bit); `mpy-cross -O3` on the "
        "RP2040: <= 1,000 ms, 2,000 lines in 20 s, within 1.5x; methods 1 and 2 (90th "
        "percentile 13 presses)"
    )
    assert figures(row) == [
        (300, "hand"),
        (192, "KB"),
        (1000, "ms"),
        (2000, "lines"),
        (20, "s"),
        (1.5, "x"),
        (13, "presses"),
    ]


def test_the_entry_goals_the_bench_prints_are_the_budgets():
    assert budgets.ENTRY_GOALS == (
        "methods 1 and 2 at most 10 presses a hand on average (90th percentile 13) and 5 s; "
        "method 3 at most 15; a gin of methods 1 and 2 at most 6"
    )


def test_bench_pico_measures_against_the_same_budgets():
    """bench_pico.py keeps its own table of the emulated Pico's budgets (its keys name what it
    prints): the same figures as bench/budgets.py."""
    path = os.path.join(ROOT, "bench", "bench_pico.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    (node,) = [
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign) and [ast.unparse(t) for t in n.targets] == ["BUDGETS"]
    ]
    table = eval(compile(ast.Expression(node), path, "eval"), {"__builtins__": {}})
    assert table == {
        "latch": budgets.LATCH_MS,
        "tap": budgets.TAP_MS,
        "boot300": budgets.BOOT_MS,
        "up": budgets.PRESS_MS,
        "save": budgets.SAVE_MS,
        "sync1000": budgets.SYNC_S * 1000,
        "drain2000": budgets.DRAIN_S * 1000,
        "heap": budgets.LIVE_HEAP_KB * 1024,
        "free": budgets.FREE_KB * 1024,
    }
