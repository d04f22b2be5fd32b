"""The one place that puts a checkout's own folders on sys.path, for what runs from a checkout
rather than from the installed packages (knockcore, knockfw and knockbox import as installed,
`pip install -e`): the benches, the tools and the tests.

    bench/             the benches' shared parts (budgets, docfigures, entry_plan, bench_*)
    tests/             the test kit (`from kit import mp`) and the test modules a bench reuses
    tests/emu/         the emulated Pico's driver (emu_device, emu_plan)
    tests/mp_scripts/  the MicroPython cases scripts, also run on CPython
    tools/fonts/       the fonts' generator (gen_fonts)
    tools/strings/     the string tables' generator (gen_strings)

It also imports knockbox, whose __init__ gives the device's code on CPython its one `micropython`
module (knockbox/mpstub.py), and names viper's types (ptr8, ptr16, ptr32, uint), which CPython
evaluates in the viper scanners' annotations.

A bench imports it first (`import _paths  # noqa: F401`: a script's own folder, bench/, is on
sys.path already); a tool and tests/conftest.py put bench/ on sys.path, then import it. Importing
it again changes nothing.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("bench", "tests", "tests/emu", "tests/mp_scripts", "tools/fonts", "tools/strings")

for _folder in reversed(FOLDERS):
    _path = os.path.join(ROOT, *_folder.split("/"))
    if _path not in sys.path:
        sys.path.insert(0, _path)

import builtins  # noqa: E402

import knockbox  # noqa: E402,F401  (the `micropython` stand-in)

for _name in ("ptr8", "ptr16", "ptr32", "uint"):
    if not hasattr(builtins, _name):
        setattr(builtins, _name, int)
