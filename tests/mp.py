"""Run code under the MicroPython unix port, from source or from .mpy files compiled by mpy-cross
(through knockbox.mpy, from the device manifest firmware/manifest.py)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
SOURCE_PATHS = [os.path.join(ROOT, "shared"), os.path.join(ROOT, "firmware")]
HEAP = "192k"


def micropython_exe():
    """The MicroPython unix port."""
    from knockbox import engines

    return engines.tool("micropython")


def build(dest, target="sim", **options):
    """Compile what firmware/manifest.py lists for target ("sim": the unix port's build, the
    default; "device": the Pico's) into dest as on the device (knockbox.mpy.build_into; options:
    modules=("knockfw.buttons", "knockcore") for a part); returns dest/lib, the path to run it."""
    from knockbox import mpy

    mpy.build_into(dest, target, **options)
    return mpy.lib(dest)


def sizes(target="device", **options):
    """{device path: .mpy size} of the manifest's build for target (nothing written)."""
    from knockbox import mpy

    return {k: len(v) for k, v in mpy.build(target, **options).items()}


def _env(paths, env):
    e = dict(os.environ)
    e["MICROPYPATH"] = ":".join((paths or SOURCE_PATHS) + [".frozen"])
    if env:
        e.update(env)
    return e


def _run(args, paths, stdin, heap, timeout, cwd, env):
    exe = [micropython_exe()] + (["-X", "heapsize=" + heap] if heap else [])
    return subprocess.run(exe + args, input=stdin, capture_output=True, text=True, timeout=timeout,
                          env=_env(paths, env), cwd=cwd)


def run(script, paths=None, stdin=None, heap=HEAP, timeout=120, cwd=None, env=None):
    """Run a script (a string of code) under micropython; return CompletedProcess (text)."""
    return _run(["-c", script], paths, stdin, heap, timeout, cwd, env)


def run_file(path, argv=(), paths=None, stdin=None, heap=HEAP, timeout=120, cwd=None, env=None):
    return _run([path] + list(argv), paths, stdin, heap, timeout, cwd, env)


def min_heap(script, args, paths, lo=4, hi=192):
    """The smallest -X heapsize (KB) at which the script file runs: the real peak heap it needs
    (micropython.mem_peak counts every allocation ever made, so it cannot tell). -1: not even hi."""
    if run_file(script, args, paths=paths, heap="%dk" % hi).returncode != 0:
        return -1
    while lo < hi:
        mid = (lo + hi) // 2
        if run_file(script, args, paths=paths, heap="%dk" % mid).returncode == 0:
            hi = mid
        else:
            lo = mid + 1
    return lo
