"""The firmware's register words and byte codes have names: in knockfw/rp2board.py's functions
and in every native function (@micropython.viper) of the firmware, a number is a module-private
`_NAME = const(...)` (a register's address or field, an ASCII code, a UTF-8 lead byte, a
framebuffer's stride) unless it says itself: below 16, a shift count, a mask of low bits, or
1000 (microseconds in a millisecond). The names cost nothing on the device: the compiled
modules carry none of them."""

import ast
import glob
import os

from knockbox.build import mpy

from kit import mp

FW = os.path.join(mp.ROOT, "firmware", "knockfw")
NATIVE = ("micropython.viper", "micropython.native")


def _parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def _is_native(fn):
    return any(ast.unparse(d) in NATIVE for d in fn.decorator_list)


def _says_itself(node, parent):
    n = abs(node.value)
    shift = isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.LShift, ast.RShift))
    return n < 16 or n & (n + 1) == 0 or n == 1000 or (shift and parent.right is node)


def bare_numbers(tree, every_function=False):
    """[(line, number as written)] of the numbers without a name in tree's functions (all of
    them, or only the native ones)."""
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not (every_function or _is_native(fn)):
            continue
        parents = {c: p for p in ast.walk(fn) for c in ast.iter_child_nodes(p)}
        for node in ast.walk(fn):
            if isinstance(node, ast.Constant) and type(node.value) is int:
                if not _says_itself(node, parents.get(node)):
                    found.append((node.lineno, node.value))
    return sorted(set(found))


def private_consts(tree):
    return [
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and getattr(node.value.func, "id", None) == "const"
        for t in node.targets
        if t.id.startswith("_")
    ]


def qstr(name):
    """A name as a .mpy (version 6) holds it: its length doubled, its bytes, a zero."""
    return bytes((len(name) << 1,)) + name.encode() + b"\0"


def test_rp2boards_registers_and_the_native_codes_are_named():
    bad = {}
    for path in sorted(glob.glob(os.path.join(FW, "*.py"))):
        name = os.path.basename(path)
        found = bare_numbers(_parse(path), every_function=name == "rp2board.py")
        if found:
            bad[name] = found
    assert bad == {}


def test_the_check_finds_a_bare_register_word_and_a_bare_byte_code():
    src = (
        "import micropython\n"
        "def ctrl(d, c):\n"
        "    d.ctrl = 0x3F8429 | c << 11 | 0xFF\n"
        "@micropython.viper\n"
        "def scan(b: ptr8, j: int) -> int:\n"
        "    return int(b[j] == 34 and b[j + 1] != 10)\n"
    )
    tree = ast.parse(src)
    assert bare_numbers(tree, every_function=True) == [(3, 0x3F8429), (6, 34)]
    assert bare_numbers(tree) == [(6, 34)]  # (elsewhere only the native functions)


def test_the_names_cost_nothing_on_the_device():
    assert qstr("_ring") in mpy.compile_file(os.path.join(FW, "rp2board.py"))  # (a name kept)
    for name, march in (
        ("rp2board.py", None),
        ("jscan.py", "armv6m"),
        ("strings.py", "armv6m"),
        ("text.py", "armv6m"),
        ("epdconv.py", "armv6m"),
    ):
        path = os.path.join(FW, name)
        names = private_consts(_parse(path))
        assert names, name
        data = mpy.compile_file(path, march=march, name="knockfw/" + name)
        assert [n for n in names if qstr(n) in data] == [], name
        if march:  # (a native module imports const only for CPython: not on the device)
            assert qstr("const") not in data, name
