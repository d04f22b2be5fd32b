# What the journal and store cases share (tests/mp_scripts/journal_cases.py, store_cases.py):
# where a case's files go (a fresh littlefs RAM disk at /data, or a fresh folder under DIR with
# plain files), set in the cases module's own globals so that its cases read PATH and META as
# plain names; and the little checks.
import gc
import os

from simflash import RAMBlockDevice, mount


def install(ns):
    """Give a cases module (its globals() as ns) what its cases use: MODE, DIR, PATH, META and
    setup(args) (run_case.py calls it first), fresh(blocks=64) (each case calls it)."""
    ns.update(
        {"MODE": "lfs", "DIR": None, "PATH": "/data/journal", "META": "/data/meta.json", "_n": 0}
    )
    ns["setup"] = lambda args: setup(ns, args)
    ns["fresh"] = lambda blocks=64: fresh(ns, blocks)


def setup(ns, args):
    """The setup arguments: "lfs" or "posix DIR" (see journal_cases.py)."""
    ns["MODE"] = args[0] if args else "lfs"
    ns["DIR"] = args[1] if len(args) > 1 else None


def fresh(ns, blocks=64):
    if ns["MODE"] == "lfs":
        gc.collect()
        dev = RAMBlockDevice(blocks)
        mount(dev, "/data", fresh=True)
        return dev
    ns["_n"] += 1
    d = "%s/c%d" % (ns["DIR"], ns["_n"])
    os.mkdir(d)
    ns["PATH"] = d + "/journal"
    ns["META"] = d + "/meta.json"
    return None


def check(got, want):
    if got != want:
        raise AssertionError("got %r\nwant %r" % (got, want))


def expect_raise(exc, f, *args):
    try:
        f(*args)
    except exc as e:
        return e
    raise AssertionError("%r did not raise %r" % (f, exc))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False
