"""Journal and store costs on littlefs (RAM block device, 4096-byte blocks, progsize=256 as on
rp2) under the MicroPython unix port. Run: .venv/bin/python bench/bench_journal.py

Prints
- per append: CPU time of Store.record of a hand (core validation + journal line + flush) and of a
  bare Journal.append, with the journal kept open between appends (what journal.py does) and with it
  opened and closed for every append; flash operations per append (programs, erases, bytes) and
  the flash time those would take on a Pico's W25Q16JV (typical datasheet figures: 4 KB sector
  erase 45 ms, 256-byte page program 0.4 ms), which the unix port does not show;
- boot: time to mount, open and replay a 300-hand journal into Store (real rules core), from
  .mpy files (mpy-cross -O3), under -X heapsize=192k, and the heap it needs: micropython.mem_peak()
  minus what was allocated before the replay (the RAM disk image itself is excluded).
The unix port on a laptop is roughly 10-30x faster than an RP2040 at 125 MHz: scale CPU times.
"""

import json
import os
import random
import sys
import tempfile

import _paths  # the checkout's folders on sys.path (bench/_paths.py)
from kit import gamegen
from kit import mp
from knockbox.build import mpy

ROOT = _paths.ROOT

MP_SCRIPTS = os.path.join(ROOT, "tests", "mp_scripts")
BLOCKS = 24  # 96 KB: room for the journal while the image still fits a 192 KB heap

COMMON = (
    r"""
import gc, json, sys, time, vfs, micropython
from simflash import RAMBlockDevice, mount
from knockfw.journal import Journal
from knockfw.store import Store
BLOCKS = %d
"""
    % BLOCKS
)

BUILD = (
    COMMON
    + r"""
class Reopen(Journal):          # the alternative: open + close the file for every append
    def append(self, obj, quick=False):
        seq = Journal.append(self, obj, quick)
        self.close()
        return seq

def run(jclass, head, hands):
    dev = RAMBlockDevice(BLOCKS)
    mount(dev, fresh=True)
    st = Store(jclass("/data/journal"), "/data/meta.json").load()
    gid = st.record({"t": "game", "rec": head})["g"]
    w0, e0, t0 = dev.writes, dev.erases, time.ticks_us()
    for h in hands:
        st.record({"t": "hand", "h": h})
    t = time.ticks_diff(time.ticks_us(), t0)
    st.journal.close()
    # bare journal appends of the same lines, on a fresh device
    dev2 = RAMBlockDevice(BLOCKS)
    mount(dev2, fresh=True)
    j = jclass("/data/j").open()
    t1 = time.ticks_us()
    for h in hands:
        j.append({"t": "hand", "g": gid, "h": h})
    tj = time.ticks_diff(time.ticks_us(), t1)
    j.close()
    return dev, {"store_us": t / len(hands), "journal_us": tj / len(hands),
                 "programs": (dev.writes - w0) / len(hands), "erases": (dev.erases - e0) / len(hands)}

class Counting(RAMBlockDevice):
    pass

with open(sys.argv[1]) as f:
    head = json.loads(f.readline())
    hands = [json.loads(line) for line in f]
out = {}
dev, out["reopen"] = run(Reopen, head, hands)
dev, out["keep_open"] = run(Journal, head, hands)
# bytes programmed per append: count on a device that sums lengths
class Bytes(RAMBlockDevice):
    def _program(self, a, buf):
        self.nbytes = getattr(self, "nbytes", 0) + len(buf)
        RAMBlockDevice._program(self, a, buf)
d = Bytes(BLOCKS, data=bytearray(dev.data))
mount(d)
st = Store(Journal("/data/journal"), "/data/meta.json").load()
for i in range(20):
    st.record({"t": "hand", "h": {"void": True}})
out["keep_open"]["bytes"] = d.nbytes / 20
st.journal.close()
vfs.umount("/data")
with open(sys.argv[2], "wb") as f:
    f.write(dev.data)
print(json.dumps(out))
"""
)

BOOT = (
    COMMON
    + r"""
from simflash import FileBlockDevice
if sys.argv[2] == "ram":
    dev = RAMBlockDevice(BLOCKS, data=bytearray(BLOCKS * 4096))
    with open(sys.argv[1], "rb") as f:
        f.readinto(dev.data)
else:                            # the image stays in the file: the heap holds only the boot
    dev = FileBlockDevice(sys.argv[1], BLOCKS)
if sys.argv[2] == "mount-only":
    mount(dev)
    sys.exit(0)
if sys.argv[2] == "repair":
    mount(dev)
    with open("/data/journal", "ab") as f:
        f.write(b'303 {"t":"hand","g":1,"h":{"vo')       # a torn last line
    w0, e0 = dev.writes, dev.erases
    t4 = time.ticks_us()
    j = Journal("/data/journal").open()              # drops it: copy + rename
    t5 = time.ticks_us()
    from storekit import note
    repair = {"us": time.ticks_diff(t5, t4), "note": note(j), "writes": dev.writes - w0,
              "erases": dev.erases - e0}
    print(json.dumps(repair))
    sys.exit(0)
gc.collect()
base = gc.mem_alloc()
t0 = time.ticks_us()
mount(dev)
st = Store(Journal("/data/journal"), "/data/meta.json").load()
t1 = time.ticks_us()
peak = micropython.mem_peak() - base
gc.collect()
held = gc.mem_alloc() - base
g = st.game(st.current())
from storekit import events_of, note   # tests/mp_scripts: what only tests ask of a Store
t2 = time.ticks_us()
page = events_of(st, st.last_seq - 100, 100)
t3 = time.ticks_us()
print(json.dumps({"boot_us": time.ticks_diff(t1, t0), "peak": peak, "held": held,
                  "hands": len(g.hands), "events": st.last_seq, "note": note(st),
                  "events_page_us": time.ticks_diff(t3, t2)}))
"""
)


min_heap = mp.min_heap


def main():
    rules = {"preset": "seed", "m3_target": 100000}
    rec = gamegen.random_game(random.Random(1), method=3, max_hands=300, rules=rules).record()
    with tempfile.TemporaryDirectory() as d:
        hands = os.path.join(d, "hands.jsonl")
        with open(hands, "w") as f:
            f.write(json.dumps({k: rec[k] for k in ("method", "players", "start", "rules")}) + "\n")
            for h in rec["hands"]:
                f.write(json.dumps(h) + "\n")
        for name, text in (("build.py", BUILD), ("boot.py", BOOT)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        src = mp.SOURCE_PATHS
        image = os.path.join(d, "flash.img")
        r = mp.run_file(os.path.join(d, "build.py"), [hands, image], paths=src, heap="4M")
        if r.returncode:
            sys.exit(r.stdout + r.stderr)
        build = json.loads(r.stdout)
        lib = mp.build(os.path.join(d, "mpy"), modules=mp.STORE_MODULES)
        # the tests' Store helpers (storekit) compiled too: from source their compilation
        # would take heap the device's own code does not
        mpy.compile_file(
            os.path.join(MP_SCRIPTS, "storekit.py"), out=os.path.join(lib, "storekit.mpy")
        )
        boot_py = os.path.join(d, "boot.py")
        r = mp.run_file(boot_py, [image, "ram"], paths=[lib], heap=mp.HEAP)
        if r.returncode:
            sys.exit(r.stdout + r.stderr)
        boot = json.loads(r.stdout)
        r = mp.run_file(boot_py, [image, "repair"], paths=[lib], heap="1M")
        if r.returncode:
            sys.exit(r.stdout + r.stderr)
        boot["repair"] = json.loads(r.stdout)
        need = min_heap(boot_py, [image, "file"], [lib])
        need0 = min_heap(boot_py, [image, "mount-only"], [lib])
    n = len(rec["hands"])
    print(
        "journal on littlefs (RAM device, %d x 4096-byte blocks, progsize 256), %d hands"
        % (BLOCKS, n)
    )
    for mode in ("keep_open", "reopen"):
        b = build[mode]
        print(
            "  %-9s  record   %6.0f us   bare append %6.0f us   per append: %.1f programs,"
            " %.2f erases" % (mode, b["store_us"], b["journal_us"], b["programs"], b["erases"])
        )
    k = build["keep_open"]
    flash_ms = k["erases"] * 45 + k["bytes"] / 256 * 0.4
    print(
        "  flash per append: %.0f bytes programmed, %.2f sector erases -> about %.0f ms of"
        " flash time on a Pico (W25Q16JV typical)" % (k["bytes"], k["erases"], flash_ms)
    )
    print(
        "boot (.mpy, -X heapsize=192k): mount + open + replay %d events (%d hands): %.1f ms"
        % (boot["events"], boot["hands"], boot["boot_us"] / 1000)
    )
    print(
        "  heap: smallest -X heapsize that boots: %d KB (%d KB with only the mount), so the"
        " open + replay needs %d KB" % (need, need0, need - need0)
    )
    print(
        "  held after boot (store + core game, after gc): %d bytes; bytes allocated during"
        " boot (micropython.mem_peak delta, counts garbage too): %d" % (boot["held"], boot["peak"])
    )
    print("  sync page of 100 events: %.1f ms" % (boot["events_page_us"] / 1000))
    rp = boot["repair"]
    print(
        "torn last line repair (rewrite the good prefix to .tmp, rename; no truncate in"
        " MicroPython): %.1f ms, %d programs, %d erases (%s)"
        % (rp["us"] / 1000, rp["writes"], rp["erases"], rp["note"])
    )
    if boot["note"]:
        print("  note:", boot["note"])


if __name__ == "__main__":
    main()
