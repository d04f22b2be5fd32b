"""The RP2040's button sampler (knockfw.rp2board._ring) under the unix port, against a model of
its DMA chain (tests/fakes/fake_rp2.py: the transfers the channels' registers describe, into the
buffers given): levels and times read back from the rings, changes only, in order, with the
holds timed by the samples' own times (not the poll's), across the rings' wrap; the Buttons the
board hands the app read nothing else (no pin is read, no IRQ armed). The emulated Pico runs the
real chain (tests/emu/test_emu_presses.py)."""
import json
import os

import pytest

import mp

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = """
import sys, json, time
from fakes import fake_machine as fm, fake_rp2
sys.modules["machine"] = fm
sys.modules["_rp2"] = fake_rp2
from knockfw import %(module)s as mod
mod.early()                     # boot.py: the sampler starts
b = mod.Board()
btn = b.latched_buttons()
low = b.active_low


def level(name, down):
    fm.levels[mod.PINS[name]] = (1 - down) if low else down


def poll():
    return btn.poll(time.ticks_ms())


out = {}
fake_rp2.entry(3000)            # nothing pressed
# a blocked loop (a flash erase): A held 800 ms, C 590, B tapped 50 ms, Up 40 ms, then a poll
for name, down, age in (("a", 1, 2500), ("c", 1, 2400), ("c", 0, 1810), ("a", 0, 1700),
                        ("b", 1, 1000), ("b", 0, 950), ("up", 1, 900), ("up", 0, 860)):
    level(name, down)
    fake_rp2.entry(age)
out["blocked"] = poll()
out["again"] = poll()           # taken once
# 600 entries of the same levels, polled every 100 (the rings hold 128), then a tap of Down
for i in range(6):
    for j in range(100):
        fake_rp2.entry(0)
    out.setdefault("quiet", []).extend(poll())
level("down", 1)
fake_rp2.entry(100)
level("down", 0)
fake_rp2.entry(30)
out["after_wrap"] = poll()
ch = fake_rp2.channels
a, s, t = [d for d in ch if (d.ctrl >> 15) & 63 == 36][0], ch[1], ch[2]
out["rings"] = [t.write - s.write, s.write %% 512 == (t.write - 512) %% 512]
out["irqs"] = [p.gpio for p in fm.pins if p.handler is not None]
print(json.dumps(out))
"""


@pytest.mark.parametrize("module", ["board_badger", "board_pico_epd"])
def test_ring_reader(module):
    r = mp.run(SCRIPT % {"module": module}, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    # in the order they were due: A's long at 1900 (held 600 of its 800), C's press (590 ms:
    # no long) at 1810, then B and Up
    assert res["blocked"] == [["a", "long"], ["c", "press"], ["b", "press"], ["up", "press"]]
    assert res["again"] == [] and res["quiet"] == []
    assert res["after_wrap"] == [["down", "press"]]
    assert res["rings"] == [512, True]      # T right after S, both written in step
    assert res["irqs"] == []
