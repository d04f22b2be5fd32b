"""Power cuts: under the MicroPython unix port, a scripted Store session on littlefs (RAM block
device, 4096-byte blocks, progsize=256 as on rp2) is cut at EVERY flash operation, cleanly or
with that operation half done, and rebooted: boot never fails, every hand whose record()
returned is there in order, nothing unconfirmed shows half-applied, the device id holds, and the
rebooted store takes new hands. See tests/mp_scripts/powercut_run.py."""

import json
import os

import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "powercut_run.py")
PATHS = mp.SOURCE_PATHS


@pytest.mark.parametrize("scenario", ["game", "long"])
@pytest.mark.parametrize("mode", ["clean", "torn"])
def test_cut_at_every_flash_operation(scenario, mode):
    r = mp.run_file(SCRIPT, [scenario, mode], paths=PATHS, heap="8M", cwd=HERE, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.strip().split("\n")[-1])
    assert res["fails"] == [], res["fails"]
    assert res["unerased_programs"] == 0  # littlefs never programs unerased flash
    # every operation was a cut point (+1: after the last), plus the real cuts
    assert res["reboots"] == res["ops"] + 1 + res["real_cuts"]
    assert res["real_cuts"] == 7
    assert res["ops"] > 50 and res["erases"] > 5
    # the scripted erase was cut between meta.json and the new journal, and boot finished it
    assert res["notes"].get("finished an interrupted erase", 0) >= 1
    if scenario == "game":
        assert res["operations"] >= 25
