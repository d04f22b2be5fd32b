"""W boards (Pico W, Badger 2040 W: GPIO 23-25 and 29 belong to the radio) are refused, by the
name the firmware gives the board (sys.implementation._machine): `knockbox deploy` refuses to
deploy to one (knockbox.link.deploy.check_device, from what it reads over the raw REPL) and the
firmware, if it finds itself on one, does not start the app (knockfw.board.load() raises, the
fault handler records it; main.py leaves the REPL with the message). Both go by the same rule."""

import importlib.util
import os
import sys

import pytest

from knockbox.link import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = {
    "Raspberry Pi Pico W with RP2040": True,
    "Raspberry Pi Pico 2 W with RP2350": True,
    "Pimoroni Badger 2040 W with RP2040": True,
    "Raspberry Pi Pico with RP2040": False,
    "Pimoroni Badger 2040 with RP2040": False,
    "Raspberry Pi Pico2 with RP2350": False,
}


def firmware_board(monkeypatch, machine):
    """knockfw/board.py (it imports only sys) on CPython, as on the Pico, on board `machine`."""
    monkeypatch.setattr(sys.implementation, "_machine", machine, raising=False)
    spec = importlib.util.spec_from_file_location(
        "fw_board", os.path.join(ROOT, "firmware", "knockfw", "board.py")
    )
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    m.RP2 = True
    return m


@pytest.mark.parametrize("machine,w", sorted(NAMES.items()))
def test_deploy_and_the_firmware_refuse_the_same_boards(monkeypatch, machine, w):
    info = {
        "version": (1, 28, 0),
        "mpy": 6 | 3 << 8 | 4 << 10,
        "platform": "rp2",
        "machine": machine,
    }
    board = firmware_board(monkeypatch, machine)
    assert board.refused() == (machine if w else None)
    if w:
        with pytest.raises(deploy.DeployError) as e:
            deploy.check_device(info, (1, 28, 0), (6, 3))
        assert str(e.value).startswith(
            "the board is a %s: Knockbox does not support W boards" % machine
        )
        with pytest.raises(RuntimeError) as e:
            board.load()
        assert str(e.value) == "Knockbox does not support W boards: this is a " + machine
    else:
        assert ".mpy v6.3" in deploy.check_device(info, (1, 28, 0), (6, 3))
