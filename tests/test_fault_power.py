"""The fault handler (knockfw.fault.top) when not even the board can be made (the heap too full
to import it, a driver file cut short): the fault is recorded and, on battery, the board goes dark
all the same: the Badger releases its power latch (GPIO 10), the Pico build light-sleeps until a
button is pressed, then starts afresh; on USB power it returns (main.py leaves the REPL with the
traceback). Run under the unix port with the rp2 fakes (tests/fakes); the emulated Pico shows the
Badger's case through its power path (tests/emu/test_emu_recover.py)."""

import json
import os

import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = """
import sys, json
from fakes import fake_machine as fm, fake_rp2, fake_time as time
sys.modules.update(machine=fm, _rp2=fake_rp2, time=time)
from knockfw import board, fault
board.RP2 = True                    # the board file chosen as on the Pico
board.BOARD_FILE = %(dir)r + "/board.json"
fault.PATH = %(dir)r + "/faults.txt"
with open(board.BOARD_FILE, "w") as f:
    json.dump({"board": %(board)r}, f)
mod = board.module(%(board)r)
fm.levels[mod.PINS["vbus"]] = %(usb)d
mod.early()                         # boot.py: the latch taken (Badger), the buttons sampled


def no_board():
    raise MemoryError("memory allocation failed, allocating 1184 bytes")


board.load = no_board
sleeps = []


def press_later(ms):                # the Pico build: A pressed in its third sleep
    sleeps.append(ms)
    if len(sleeps) == 3:
        fm.levels[mod.PINS["a"]] = 0


fm.on_sleep.append(press_later)
out = {"reset": False}
try:
    try:
        raise ValueError("the app")
    except ValueError as e:
        fault.top(e)
except fm.Reset:
    out["reset"] = True
latch = fm.pin(10)
out["latch"] = latch.out if latch is not None and latch.mode == fm.Pin.OUT else None
out["sleeps"] = sleeps
with open(fault.PATH) as f:
    out["faults"] = f.read()
print(json.dumps(out))
"""


@pytest.mark.parametrize(
    "board,usb", [("badger2040", 0), ("badger2040", 1), ("pico-epd", 0), ("pico-epd", 1)]
)
def test_no_board_on_battery_still_goes_dark(tmp_path, board, usb):
    r = mp.run(
        SCRIPT % {"dir": str(tmp_path), "board": board, "usb": usb}, paths=mp.SOURCE_PATHS + [HERE]
    )
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert "ValueError: the app" in res["faults"]  # recorded in every case
    if board == "badger2040":
        assert res["latch"] == 0 and not res["reset"]  # (on USB the board runs on)
        assert res["sleeps"] == []
    else:  # no latch: asleep in 25 ms slices until A, then a fresh start; on USB awake
        assert res["latch"] is None
        assert res["sleeps"] == ([] if usb else [25, 25, 25]) and res["reset"] == (not usb)
