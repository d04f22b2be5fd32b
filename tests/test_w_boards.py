"""W boards (Pico W, Badger 2040 W: GPIO 23-25 and 29 belong to the radio) are refused, by the
name the firmware gives the board (sys.implementation._machine): `knockbox deploy` refuses to
deploy to one (knockbox.link.deploy.check_device, from what it reads over the raw REPL) and the
firmware, if it finds itself on one, does not start the app (knockfw.board.load() raises, the
fault handler records it; main.py leaves the REPL with the message). Both go by the same rule,
which also catches Pimoroni's own names ("Pimoroni Badger2040W 2MB"). A W board flashed with a
plain Pico's firmware names itself a Pico: the board file's probe (probe_w: the Pico W's GPIO 29
with GPIO 25 an input, the Badger 2040 W's clock at I2C0 0x51) finds it, at boot before the
sampler takes the ADC, and `knockbox deploy` runs the same function on the board (here both on
the unix port against tests/fakes' register models: the emulated Pico has no I2C device and an
ADC that reads 0, which the probe takes for no verdict)."""

import ast
import importlib.util
import os
import sys

import pytest

from knockbox.link import deploy
from kit import mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = {
    "Raspberry Pi Pico W with RP2040": True,
    "Raspberry Pi Pico 2 W with RP2350": True,
    "Pimoroni Badger 2040 W with RP2040": True,
    "Raspberry Pi Pico with RP2040": False,
    "Pimoroni Badger 2040 with RP2040": False,
    "Raspberry Pi Pico2 with RP2350": False,
    "Pimoroni Badger2040W 2MB with RP2040": True,  # Pimoroni's Badger 2040 W firmware
    "Pimoroni Badger2040 2MB with RP2040": False,
    "Raspberry Pi PicoW with RP2040": True,
    "Pimoroni Pico LiPo 2 XL W with RP2350": True,
    "WeAct Studio RP2040 with RP2040": False,
    "SparkFun Thing Plus RP2040 with RP2040": False,
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


PROBE = """
import sys, json
from fakes import fake_machine as fm
sys.modules["machine"] = fm
from fakes import fake_rp2
sys.modules["_rp2"] = fake_rp2
fm.adc.update(%(adc)r)
fm.i2c.update(%(i2c)r)
%(code)s
"""


def probe(tmp_path, board, adc=None, i2c=(), code=None):
    """What the board file's probe says on the unix port with the fakes' registers: with code,
    the code deploy runs (it prints the verdict); else the firmware's own boot (early(), then
    knockfw.board.load() as on the Pico): the message it refuses the board with, or "started"."""
    if code is None:
        code = (
            "from knockfw import board_%s as mod, board\n"
            "mod.early()\n"
            "board.RP2 = True\n"
            "board.chosen = lambda: %r\n"
            "try:\n"
            "    board.load()\n"
            "    print(repr('started'))\n"
            "except RuntimeError as e:\n"
            "    print(repr(str(e)))\n" % (board.replace("-", "_"), board)
        )
    r = mp.run(
        PROBE % {"adc": adc or {}, "i2c": set(i2c), "code": code},
        paths=mp.SOURCE_PATHS + [os.path.join(ROOT, "tests")],
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return ast.literal_eval(r.stdout.strip().splitlines()[-1])


TEMP = 876  # ADC 4 at 27 C: 0.706 V of 3.3 V
REFUSED = "Knockbox does not support W boards: this is a "


def test_a_badger_w_is_found_by_its_clock(tmp_path):
    assert probe(tmp_path, "badger2040", i2c=[0x51]) == REFUSED + "Badger 2040 W"
    assert probe(tmp_path, "badger2040") == "started"
    # deploy runs the same function on the board
    code = deploy.probe_code("badger2040")
    assert probe(tmp_path, "badger2040", i2c=[0x51], code=code) == "Badger 2040 W"
    assert probe(tmp_path, "badger2040", code=code) is None


def test_a_pico_w_is_found_by_gp29(tmp_path):
    # a Pico: VSYS / 3 on GPIO 29 (5 V USB: 1.67 V, 2070 of 4095); a Pico W: near 0 with GPIO 25
    # an input
    assert probe(tmp_path, "pico-epd", adc={4: TEMP, 3: 2070}) == "started"
    assert probe(tmp_path, "pico-epd", adc={4: TEMP, 3: 12}) == REFUSED + "Pico W"
    # an ADC that reads nothing (the emulated Pico's: every input 0) gives no verdict
    assert probe(tmp_path, "pico-epd", adc={}) == "started"
    code = deploy.probe_code("pico-epd")
    assert probe(tmp_path, "pico-epd", adc={4: TEMP, 3: 12}, code=code) == "Pico W"
    assert probe(tmp_path, "pico-epd", adc={4: TEMP, 3: 2070}, code=code) is None


class ProbeBoard:
    """What deploy's probe_w() asks of a board (knockbox.rawrepl.Board.run)."""

    def __init__(self, answer):
        self.answer = answer
        self.ran = []

    def run(self, code, timeout=30):
        self.ran.append(code)
        return self.answer


def test_deploy_refuses_a_w_board_by_its_hardware():
    info = {"platform": "rp2", "machine": "Raspberry Pi Pico with RP2040"}
    b = ProbeBoard("'Pico W'\n")
    with pytest.raises(deploy.DeployError) as e:
        deploy.probe_w(b, "pico-epd", info)
    assert str(e.value).startswith(
        "the board is a Pico W (Raspberry Pi Pico with RP2040, by its hardware): Knockbox "
        "does not support W boards"
    )
    assert "def probe_w" in b.ran[0]
    deploy.probe_w(ProbeBoard("None\n"), "badger2040", info)  # a plain Badger: deployed
    deploy.probe_w(ProbeBoard("junk"), "badger2040", info)  # no verdict: not refused
    unix = ProbeBoard("'Pico W'\n")
    deploy.probe_w(unix, "pico-epd", dict(info, platform="linux"))  # the unix port: not run
    assert unix.ran == []
