"""The device side of the serial link (firmware/knockfw/link.py) under the MicroPython unix port:
the real Store on a littlefs RAM disk, a stand-in app, in-memory ports that select.poll
understands. Cases are in tests/mp_scripts/link_cases.py (each prints "ok <case>"); they run from
source and from .mpy compiled with mpy-cross -O3, as on the Pico."""
import os
import re

import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "link_cases.py")
with open(SCRIPT, encoding="utf-8") as _f:
    CASES = sorted(re.findall(r"^def (case_\w+)\(", _f.read(), re.M))
SHARED = os.path.join(mp.ROOT, "shared")
FIRMWARE = os.path.join(mp.ROOT, "firmware")
LINK_MPY_BUDGET = 4096


def _check(r, cases=CASES):
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")
    assert lines[-2:] == ["done", ""], r.stdout + r.stderr
    assert sorted(line[3:] for line in lines[:-2]) == cases


def test_link_source():
    _check(mp.run_file(SCRIPT, paths=[FIRMWARE, SHARED], heap="1M", cwd=HERE))


def test_link_mpy(tmp_path):
    lib = mp.build(str(tmp_path), modules=["knockfw." + n for n in ("link", "journal", "store",
                                                                    "flash")] + ["knockcore"])
    _check(mp.run_file(SCRIPT, ["quick"], paths=[lib], heap="1M", cwd=HERE),
           [c for c in CASES if not c.startswith("case_fuzz")])


def test_link_mpy_size():
    size = mp.sizes("device", modules=["knockfw.link"])["lib/knockfw/link.mpy"]
    assert size < LINK_MPY_BUDGET
