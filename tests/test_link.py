"""The device side of the serial link (firmware/knockfw/link.py) under the MicroPython unix port:
the real Store on a littlefs RAM disk, a stand-in app, in-memory ports that select.poll
understands. The cases are in tests/mp_scripts/link_pages_cases.py (the events op, how a reply
gets out) and link_requests_cases.py (requests, settings, erase, sessions), what they share in
link_kit.py; each case is its own test here (-k picks one), from source and from .mpy compiled
with mpy-cross -O3 as on the Pico."""

import os

import budgets
import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = [
    os.path.join(HERE, "mp_scripts", name)
    for name in ("link_pages_cases.py", "link_requests_cases.py")
]
CASES = [(script, case) for script in SCRIPTS for case in mp.cases(script)]
IDS = ["%s-%s" % (os.path.basename(script)[: -len("_cases.py")], case) for script, case in CASES]


@pytest.fixture(scope="module")
def link_mpy(tmp_path_factory):
    return mp.build(
        str(tmp_path_factory.mktemp("mpy")),
        modules=mp.STORE_MODULES + ["knockfw.link", "knockfw.version", "knockfw.fault"],
    )


@pytest.mark.parametrize("script, case", CASES, ids=IDS)
def test_link_source(script, case):
    mp.run_case(script, case, paths=mp.SOURCE_PATHS, heap="2M")


@pytest.mark.parametrize("script, case", CASES, ids=IDS)
def test_link_mpy(script, case, link_mpy):
    mp.run_case(script, case, paths=[link_mpy], heap="2M")


def test_link_mpy_size():
    size = mp.sizes(modules=["knockfw.link"])["knockfw/link.mpy"]
    assert size < budgets.LINK_BYTES, size
