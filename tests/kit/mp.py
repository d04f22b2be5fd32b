"""Run code under the MicroPython unix port, from source or from .mpy files compiled by mpy-cross
(through knockbox.build.mpy, from the device manifest firmware/manifest.py)."""

import os
import subprocess
import sys

import budgets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.join(ROOT, "tests")
BIN = os.path.dirname(sys.executable)
SIM = os.path.join(ROOT, "host", "knockbox", "simulate", "device")  # the simulator's device side
SOURCE_PATHS = [os.path.join(ROOT, "shared"), os.path.join(ROOT, "firmware"), SIM]
# The journal and the store as the unix port runs them (simflash: its block devices), with the
# rules core and the strings (tests/mp_scripts/storekit.py says the journal's notes in English):
# a build of these (build(dest, modules=STORE_MODULES + [...])) runs the store's cases
STORE_MODULES = [
    "knockcore",
    "simflash",
    "knockfw.journal",
    "knockfw.jscan",
    "knockfw.store",
    "knockfw.board",
    "knockfw.strings",
    "knockfw.settings",
]
HEAP = "%dk" % budgets.HEAP_KB  # the unix port's heap: the device's budget (bench/budgets.py)


def micropython_exe():
    """The MicroPython unix port."""
    from knockbox.build import engines

    return engines.tool("micropython")


def build(dest, target="sim", **options):
    """Compile what firmware/manifest.py lists for target ("sim": the unix port's build, the
    default; "device": the Pico's) into dest as on the device, packages at its root
    (knockbox.build.mpy.build_into; options: modules=("knockfw.buttons", "knockcore") for a part);
    returns the path to run it with (dest itself: paths=[mp.build(...)])."""
    from knockbox.build import mpy

    mpy.build_into(dest, target, **options)
    return mpy.lib(dest)


def sizes(target="device", **options):
    """{device path ("knockfw/app.mpy"): size} of the manifest's build for target (nothing
    written)."""
    from knockbox.build import mpy

    return {k: len(v) for k, v in mpy.build(target, **options).items()}


def _env(paths, env):
    e = dict(os.environ)
    e["MICROPYPATH"] = ":".join((paths or SOURCE_PATHS) + [".frozen"])
    if env:
        e.update(env)
    return e


def _run(args, paths, stdin, heap, timeout, cwd, env):
    exe = [micropython_exe()] + (["-X", "heapsize=" + heap] if heap else [])
    return subprocess.run(
        exe + args,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(paths, env),
        cwd=cwd,
    )


def run(script, paths=None, stdin=None, heap=HEAP, timeout=120, cwd=None, env=None):
    """Run a script (a string of code) under micropython; return CompletedProcess (text)."""
    return _run(["-c", script], paths, stdin, heap, timeout, cwd, env)


def run_file(path, argv=(), paths=None, stdin=None, heap=HEAP, timeout=120, cwd=None, env=None):
    return _run([path] + list(argv), paths, stdin, heap, timeout, cwd, env)


def min_heap(script, args, paths, lo=4, hi=budgets.HEAP_KB):
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


# ---- MicroPython cases scripts: each case its own pytest test ---------------------------------

RUN_CASE = os.path.join(TESTS, "mp_scripts", "run_case.py")


def cases(script):
    """The case_*() functions a cases script defines, sorted (read from its text: a collection
    needs no MicroPython)."""
    import re

    with open(script, encoding="utf-8") as f:
        return sorted(re.findall(r"^def (case_\w+)\(", f.read(), re.M))


def run_case(script, case, args=(), paths=None, heap=HEAP, timeout=120, env=None):
    """Run one case of a cases script under micropython (tests/mp_scripts/run_case.py); fails the
    calling test with the case's output unless it printed "ok <case>"."""
    module = os.path.splitext(os.path.basename(script))[0]
    paths = list(paths or SOURCE_PATHS) + [os.path.dirname(os.path.abspath(script))]
    r = run_file(
        RUN_CASE,
        [module, case] + [str(a) for a in args],
        paths=paths,
        heap=heap,
        timeout=timeout,
        cwd=os.path.dirname(os.path.abspath(script)),
        env=env,
    )
    out = r.stdout + r.stderr
    if r.returncode != 0 or r.stdout.split("\n")[-2:] != ["ok " + case, ""]:
        raise AssertionError(
            "%s %s failed (exit %d):\n%s" % (module, case, r.returncode, out[-4000:])
        )
    return r
