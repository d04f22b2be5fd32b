"""The device side of the serial link (firmware/knockfw/link.py) under the MicroPython unix port:
the real Store on a littlefs RAM disk, a stand-in app, in-memory ports that select.poll
understands. The cases are in tests/mp_scripts/link_cases.py, each its own test here (-k picks
one), from source and from .mpy compiled with mpy-cross -O3 as on the Pico."""
import os

import pytest

import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "link_cases.py")
CASES = mp.cases(SCRIPT)
SHARED = os.path.join(mp.ROOT, "shared")
FIRMWARE = os.path.join(mp.ROOT, "firmware")
LINK_MPY_BUDGET = 4096


@pytest.fixture(scope="module")
def link_mpy(tmp_path_factory):
    return mp.build(str(tmp_path_factory.mktemp("mpy")),
                    modules=["knockfw.link", "knockfw.journal", "knockfw.jscan", "knockfw.store",
                             "knockfw.flash",
                             "knockcore"])


@pytest.mark.parametrize("case", CASES)
def test_link_source(case):
    mp.run_case(SCRIPT, case, paths=[FIRMWARE, SHARED], heap="2M")


@pytest.mark.parametrize("case", CASES)
def test_link_mpy(case, link_mpy):
    mp.run_case(SCRIPT, case, paths=[link_mpy], heap="2M")


def test_link_mpy_size():
    size = mp.sizes(modules=["knockfw.link"])["knockfw/link.mpy"]
    assert size < LINK_MPY_BUDGET, size
