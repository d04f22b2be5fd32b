"""No module of the firmware imports another that imports it back (directly or through others),
counting the imports inside functions too (the firmware defers many to save boot time): a
deferred import moved to the top must never break the firmware. A module that imports by name
(__import__: the UI's activities, the board's file, the string tables) imports every module its
strings name. The board contract and the
watchdog's feed() are the package's own module (knockfw/__init__.py), which imports nothing;
the panel drivers import nothing of the app."""

import ast
import glob
import os

from kit import mp

FW = os.path.join(mp.ROOT, "firmware", "knockfw")


def named(text):
    """The knockfw modules a string names, whole ("ui_score", "knockfw.ui_score") or as the
    start of their names ("knockfw.board_", "strings_")."""
    text = text[len("knockfw.") :] if text.startswith("knockfw.") else text
    if not text or not text.replace("_", "").isalnum():
        return set()
    if os.path.exists(os.path.join(FW, text + ".py")):
        return {"knockfw." + text}
    if not text.endswith("_"):
        return set()
    return {
        "knockfw." + os.path.basename(p)[:-3] for p in glob.glob(os.path.join(FW, text + "*.py"))
    }


def imports_of(path):
    """The knockfw modules a source file imports, anywhere in it ("knockfw" is the package's own
    module), by name too (__import__)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = set()
    by_name = any(isinstance(n, ast.Name) and n.id == "__import__" for n in ast.walk(tree))
    for node in ast.walk(tree):
        if by_name and isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(named(node.value))
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "knockfw")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "knockfw":  # from knockfw import board: a module, or a name
                for a in node.names:
                    sub = os.path.join(FW, a.name + ".py")
                    found.add("knockfw." + a.name if os.path.exists(sub) else "knockfw")
            elif node.module.startswith("knockfw."):
                found.add(node.module)
    return found


def graph():
    g = {}
    for path in glob.glob(os.path.join(FW, "*.py")):
        name = os.path.basename(path)[:-3]
        name = "knockfw" if name == "__init__" else "knockfw." + name
        g[name] = imports_of(path) - {name}  # (a module's strings may name it)
    return g


def cycle(g):
    """One import cycle of g as a list of modules, or None."""
    state = {}

    def visit(m, path):
        state[m] = 1
        for n in sorted(g.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n) :] + [n]
            if n not in state:
                found = visit(n, path + [n])
                if found:
                    return found
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


def test_no_module_of_the_firmware_imports_itself_back():
    g = graph()
    assert "knockfw.app" in g and "knockfw.board" in g
    assert cycle(g) is None, " -> ".join(cycle(g))


def test_the_package_module_and_the_drivers_know_nothing_of_the_app():
    g = graph()
    assert g["knockfw"] == set()
    for driver in ("epd", "uc8151", "ssd1680"):
        assert g["knockfw." + driver] <= {"knockfw.epd", "knockfw.epdconv", "knockfw.epdinvert"}


def test_imports_by_name_count():
    g = graph()
    assert {"knockfw.ui_score", "knockfw.ui_erase"} <= g["knockfw.ui"]
    assert {"knockfw.board_badger2040", "knockfw.board_pico_epd"} <= g["knockfw.board"]
    assert {"knockfw.strings_en", "knockfw.strings_ru", "knockfw.messages_ru"} <= g[
        "knockfw.strings"
    ]


def test_the_check_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
