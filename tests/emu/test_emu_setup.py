"""The emulated Pico is there and ready (scripts/setup prepares it); without it this is the one
test of tests/emu that runs, and it skips saying why."""

import os
import subprocess

import pytest

from emu_device import EMU, HAVE_EMU, MISSING


def test_emulator_ready(emu):
    if not HAVE_EMU:  # (the emu fixture has skipped already; kept for readers)
        pytest.skip(MISSING)
    node = subprocess.run(["node", "--version"], capture_output=True, text=True)
    assert node.returncode == 0, "Node.js is missing: scripts/setup --system installs it"
    assert int(node.stdout.strip().lstrip("v").split(".")[0]) >= 18, node.stdout
    # setup.sh ran (the emu fixture) and the fast decoder exists next to node_modules
    mods = os.environ.get("PICO_EMU_MODULES") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rp2040-emu"
    )
    assert os.path.isfile(os.path.join(mods, "node_modules", "rp2040js", "package.json"))
    assert not any(n == "__pycache__" for n in os.listdir(EMU)), "wrote into the emulator folder"
