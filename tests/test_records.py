"""The laptop tool names what it hands around: what knockbox.derived works out of a game is a
record with named fields, a game is stored by GameRows with keyword arguments only, and no
result is read as `x[0]["winners"]` (a tuple's place, then a field)."""

import ast
import inspect
import os

from knockbox import derived
from knockbox.history.rows import GameRows

from kit import mp, worked

HOST = os.path.join(mp.ROOT, "host", "knockbox")


def test_a_derived_game_is_a_record_with_named_fields():
    rec = worked.record("method3")
    d = derived.derive(rec)
    assert d.standings["over"] and d.standings["winners"]
    assert d.record["hands"] == rec["hands"]
    assert [c["seat"] for c in d.seats] == [0, 1, 2]
    assert len(d.play["running"]) == len(rec["hands"]) + 1 == len(d.play["active"]) + 1


def test_a_game_row_is_stored_by_keyword_only():
    for method, positional in ((GameRows.add, {"self"}), (GameRows.set_record, {"self", "row_id"})):
        params = inspect.signature(method).parameters
        by_place = {n for n, p in params.items() if p.kind != inspect.Parameter.KEYWORD_ONLY}
        assert by_place == positional, (method.__name__, by_place)


def _place_then_field(tree):
    """Each `x[<int>][<str>]` in tree: a tuple's place, then a field of what is there."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and isinstance(node.value, ast.Subscript)
            and isinstance(node.value.slice, ast.Constant)
            and type(node.value.slice.value) is int
        ):
            yield node.lineno


def test_no_result_is_read_by_its_place_then_a_field():
    found = []
    for folder, _, files in os.walk(HOST):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read())
                found += [
                    "%s:%d" % (os.path.relpath(path, mp.ROOT), n) for n in _place_then_field(tree)
                ]
    assert not found, found
