"""The code around the product keeps one home for each thing: the checkout's folders are put on
sys.path by bench/_paths.py alone; every bench and tool, run as its script, gets the device's
`micropython` module on CPython from knockbox/mpstub.py; and the worked games of docs/RULES.md are read
from examples/ (tests/kit/worked.py), never typed again."""

import ast
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB = os.path.join(ROOT, "host", "knockbox", "mpstub.py")

# What may still edit sys.path: the helper; what puts bench/ on sys.path to reach it (a tool's
# own folder is tools/, the tests' conftest is in tests/); the emulator's folder, which lies
# outside the checkout; and two files that keep their own edits for now.
EDITS_ALLOWED = {
    "bench/_paths.py",
    "tests/conftest.py",
    "tools/book_shot.py",
    "tools/readme_shots.py",
    "tools/report_shot.py",
    "tests/fixtures/make_history_v3.py",  # a tool run by hand, as tools/ are
    "tests/emu/emu_device.py",
    "tests/test_boards_hardware.py",
}


def python_files(*folders):
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True)):
            yield os.path.relpath(path, ROOT).replace(os.sep, "/")


def edits_sys_path(tree):
    """The lines of a module that change sys.path (code, not the text of a script it runs)."""

    def is_sys_path(node):
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        )

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("insert", "append", "extend") and is_sys_path(node.func.value):
                lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if is_sys_path(t) or (isinstance(t, ast.Subscript) and is_sys_path(t.value)):
                    lines.append(node.lineno)
    return sorted(lines)


def test_only_the_path_helper_puts_the_checkouts_folders_on_sys_path():
    found = {}
    for rel in python_files("bench", "tools", "tests"):
        if rel.startswith("tests/vectors/"):
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            lines = edits_sys_path(ast.parse(f.read()))
        if lines and rel not in EDITS_ALLOWED:
            found[rel] = lines
    assert found == {}, "sys.path edited outside bench/_paths.py: %s" % found


def test_the_check_finds_each_way_of_editing_sys_path():
    src = (
        "import sys\n"
        "sys.path.insert(0, 'a')\n"
        "sys.path[:0] = ['b']\n"
        "sys.path += ['c']\n"
        "sys.path.append('d')\n"
        "SCRIPT = 'sys.path.insert(0, x)'\n"
    )
    assert edits_sys_path(ast.parse(src)) == [2, 3, 4, 5]


# Imports a script as `python SCRIPT` would (its folder first on sys.path), without running its
# main part, and says where `micropython` came from ("-": nothing imported it).
IMPORT = r"""
import importlib.util, os, sys
path = sys.argv[1]
sys.path.insert(0, os.path.dirname(path))
spec = importlib.util.spec_from_file_location("script_under_test", path)
spec.loader.exec_module(importlib.util.module_from_spec(spec))
m = sys.modules.get("micropython")
print("-" if m is None else getattr(m, "__file__", None) or "a module made in memory")
"""


def test_every_bench_and_tool_imports_as_its_script_with_the_one_micropython_stub(tmp_path):
    """Each bench and tool, imported from another folder as its script is run, finds what it
    imports; the device's code it loads on CPython gets `micropython` from knockbox/mpstub.py, never
    from a stand-in made elsewhere."""
    scripts = list(python_files("bench", "tools"))
    procs = [
        (
            rel,
            subprocess.Popen(
                [sys.executable, "-c", IMPORT, os.path.join(ROOT, rel)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=tmp_path,
            ),
        )
        for rel in scripts
    ]
    got = {}
    for rel, p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, (rel, err[-2000:])
        got[rel] = out.strip()
    assert "bench/bench_core.py" in got and "tools/readme_shots.py" in got
    stubbed = {rel for rel, where in got.items() if where != "-"}
    assert {"bench/bench_history.py", "bench/bench_sync.py", "bench/bench_fonts.py"} <= stubbed
    assert {rel: got[rel] for rel in stubbed if got[rel] != STUB} == {}


# ---- the worked games are read from examples/ ---------------------------------------------------

RUN = 3  # hands in a row of a worked game that make a retyped game


def example_hands():
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.json"))):
        with open(path, encoding="utf-8") as f:
            out[os.path.basename(path)] = json.load(f)["hands"]
    return out


def typed_hand_lists(tree):
    """(line, [hand]) of each list or tuple of hands written as dict literals in a module (a name
    N stands for None, as the tests write a count left out)."""

    class NoneForNames(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.copy_location(ast.Constant(None), node)

    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) >= RUN:
            if all(isinstance(e, ast.Dict) for e in node.elts):
                try:
                    hands = [ast.literal_eval(NoneForNames().visit(e)) for e in node.elts]
                except ValueError:
                    continue
                out.append((node.lineno, hands))
    return out


def retyped(hands, examples):
    """The examples of which hands holds RUN or more hands in a row, in the same order."""
    found = []
    for name, ex in examples.items():
        runs = {json.dumps(ex[i : i + RUN]) for i in range(len(ex) - RUN + 1)}
        if any(json.dumps(hands[i : i + RUN]) in runs for i in range(len(hands) - RUN + 1)):
            found.append(name)
    return found


def test_no_worked_game_is_typed_again_outside_examples():
    examples = example_hands()
    found = []
    for rel in python_files("bench", "tools", "tests"):
        if rel.startswith("tests/vectors/"):  # the rules' corpus, worked out by hand on its own
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            for line, hands in typed_hand_lists(ast.parse(f.read())):
                found += ["%s:%d: %s" % (rel, line, n) for n in retyped(hands, examples)]
    assert found == [], "worked games typed again (read them with kit.worked): %s" % found


def test_the_check_finds_a_worked_game_typed_again():
    src = (
        "N = None\n"
        "H = [\n"
        "    {'knock': 1, 'counts': [16, 4, N]},\n"
        "    {'gin': 0, 'counts': [0, 18, N]},\n"
        "    {'knock': 2, 'counts': [7, N, 7]},\n"
        "]\n"
        "TWO = [{'knock': 1, 'counts': [16, 4, N]}, {'gin': 0, 'counts': [0, 18, N]}]\n"
    )
    ((line, hands),) = typed_hand_lists(ast.parse(src))
    assert line == 2 and retyped(hands, example_hands()) == ["method2.json"]
