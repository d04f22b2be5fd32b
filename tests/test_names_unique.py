"""One name for one thing across the three packages: no class of the laptop tool (knockbox) has
the name of a class of the rules core (knockcore) or the firmware (knockfw) for something else,
and no module of the laptop tool is named as one of theirs, or as its plural or singular."""

import ast
import os

from kit import mp

PACKAGES = {
    "knockbox": os.path.join(mp.ROOT, "host", "knockbox"),
    "knockcore": os.path.join(mp.ROOT, "shared", "knockcore"),
    "knockfw": os.path.join(mp.ROOT, "firmware", "knockfw"),
}
# The same thing under the same name, on purpose: the simulator's board is a knockfw Board.
SAME = {("Board", "knockbox.simulate.device.simboard")}
# The device's faults, pulled and shown (knockbox.link.faults) as the firmware records them
# (knockfw.fault): one idea.
ONE_IDEA = {"faults"}


def _modules(package):
    root = PACKAGES[package]
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".py") and name != "__init__.py":
                path = os.path.join(folder, name)
                rel = os.path.relpath(path[:-3], os.path.dirname(root)).replace(os.sep, ".")
                yield rel, path


def _classes(package):
    out = {}
    for module, path in _modules(package):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, []).append(module)
    return out


def test_no_laptop_class_is_named_as_a_core_or_firmware_class():
    theirs = {**_classes("knockcore"), **_classes("knockfw")}
    clash = [
        (name, module)
        for name, modules in _classes("knockbox").items()
        for module in modules
        if name in theirs and (name, module) not in SAME
    ]
    assert not clash, clash


def test_no_laptop_module_is_named_as_a_core_or_firmware_module():
    theirs = set()
    for package in ("knockcore", "knockfw"):
        for module, _ in _modules(package):
            base = module.rsplit(".", 1)[1]
            theirs |= {base, base + "s", base[:-1] if base.endswith("s") else base}
    clash = [
        module
        for module, _ in _modules("knockbox")
        if module.rsplit(".", 1)[1] in theirs
        and module.rsplit(".", 1)[1] not in ONE_IDEA
        and not module.startswith("knockbox.simulate.device.")
    ]
    assert not clash, clash
