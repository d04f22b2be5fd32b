"""The RP2040's button sampler (knockfw.rp2board._ring) under the unix port, against a model of
its DMA chain (tests/fakes/fake_rp2.py: the transfers the channels' registers describe, into the
buffers given, the RP2040's 30-bit ticks from tests/fakes/fake_time.py, also across their wrap):
levels and times read back from the rings, changes only, in order, with the holds timed by the
samples' own times (not the poll's), across the rings' wrap; a level that went and came back
between two samples (both edges latched, no sample saw it) a spike, no press; the Buttons the
board hands the app read nothing else (no pin is read, no IRQ armed). The emulated Pico runs the
real chain (tests/emu/test_emu_presses.py, test_emu_glitches.py)."""

import json
import os

import pytest

from kit import mp
from knockcore import proto

HERE = os.path.dirname(os.path.abspath(__file__))
# fakes.fake_time's timer where ticks_us (every 2**30 us) and ticks_ms (every 2**30 ms) both wrap
WRAP = 1000 << 30
BOARDS = ["board_" + name.replace("-", "_") for name in proto.BOARDS]  # every board's file

SCRIPT = """
import sys, json
from fakes import fake_machine as fm, fake_rp2, fake_time as time
sys.modules.update(machine=fm, _rp2=fake_rp2, time=time)   # the RP2040's 30-bit ticks too
if %(start)r is not None:
    time.start(%(start)r)
from knockfw import %(module)s as mod
mod.early()                     # boot.py: the sampler starts
b = mod.Board()
btn = b.latched_buttons()
low = b.active_low


def level(name, down):
    fm.levels[mod.PINS[name]] = (1 - down) if low else down


def poll():
    return btn.poll(time.ticks_ms())


def sample(age):                # two entries in a row (a level counts once two have it)
    fake_rp2.entry(age)
    fake_rp2.entry(age - 5)


out = {}
sample(3000)                    # nothing pressed
# a blocked loop (a flash erase): A held 800 ms, C 590, B tapped 50 ms, Up 40 ms, then a poll
for name, down, age in (("a", 1, 2500), ("c", 1, 2400), ("c", 0, 1810), ("a", 0, 1700),
                        ("b", 1, 1000), ("b", 0, 950), ("up", 1, 900), ("up", 0, 860)):
    level(name, down)
    sample(age)
out["blocked"] = poll()
out["again"] = poll()           # taken once
# 1,200 entries of the same levels, polled every 200 (the rings hold 256), then a tap of Down
for i in range(6):
    for j in range(200):
        fake_rp2.entry(0)
    out.setdefault("quiet", []).extend(poll())
level("down", 1)
sample(100)
level("down", 0)
sample(30)
out["after_wrap"] = poll()
# spikes: Up let go and pressed again between two entries (held at both), then A pulsed
# between two entries (up at both): each leaves both its edges latched, its level the same in
# every entry; C seen pressed by one entry only; then B tapped, seen pressed by two
level("up", 1)
sample(600)
fake_rp2.edges[mod.PINS["up"]] = 12
sample(500)
fake_rp2.edges[mod.PINS["a"]] = 12
sample(450)
level("up", 0)
sample(300)
level("c", 1)
fake_rp2.entry(250)
level("c", 0)
sample(240)
level("b", 1)
sample(200)
level("b", 0)
sample(180)
out["quick"] = poll()
out["edges_left"] = sorted(g for g in fake_rp2.edges if fake_rp2.edges[g])
ch = fake_rp2.channels
s, t = ch[1], ch[3]
out["rings"] = [t.write - s.write, s.write %% 1024 == (t.write - 1024) %% 1024,
                ch[2].read == s.write]
out["irqs"] = [p.gpio for p in fm.pins if p.handler is not None]
print(json.dumps(out))
"""


@pytest.mark.parametrize("start", [None, WRAP + 2_000_000], ids=["timer", "wrap"])
@pytest.mark.parametrize("module", BOARDS)
def test_ring_reader(module, start):
    """The script's samples (from 3 s to 0.3 s old) at fake_time's default timer (its top bits
    set), and across the ticks' wrap (2 s before the polls)."""
    r = mp.run(SCRIPT % {"module": module, "start": start}, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    # in the order they were due: A's long at 1900 (held 600 of its 800), C's press (590 ms:
    # no long) at 1810, then B and Up
    assert res["blocked"] == [["a", "long"], ["c", "press"], ["b", "press"], ["up", "press"]]
    assert res["again"] == [] and res["quiet"] == []
    assert res["after_wrap"] == [["down", "press"]]
    # the spikes are no presses (no two entries in a row saw them): Up's press, then B's
    assert res["quick"] == [["up", "press"], ["b", "press"]]
    assert res["edges_left"] == []  # every edge read was cleared by the chain
    # T right after S, both written in step; C reads back the word B wrote, its ring in step
    assert res["rings"] == [1024, True, True]
    assert res["irqs"] == []


SLEEPS = """
import sys, json
from fakes import fake_machine as fm, fake_rp2, fake_time as time
sys.modules.update(machine=fm, _rp2=fake_rp2, time=time)   # the RP2040's 30-bit ticks too
if %(start)r is not None:
    time.start(%(start)r)
from knockfw import %(module)s as mod
mod.early()
b = mod.Board()
btn = b.latched_buttons()
low = b.active_low
b.awake_ms = 300
fm.levels[mod.PINS["vbus"]] = 0     # on battery


def level(name, down):
    fm.levels[mod.PINS[name]] = (1 - down) if low else down


naps = []   # light sleep slices in each turn that slept lightly


def light():
    # one turn's sleep: True if it was a light sleep (in slices of 10 ms)
    n = len(fm.calls)
    b.idle_sleep(10)
    k = [c[0] for c in fm.calls[n:]].count("lightsleep")
    if k:
        naps.append(k)
    return k > 0


def turns(n):
    return [light() for _ in range(n)]


busy = []   # in each light sleep: was a DMA channel of the sampler busy?
fm.on_sleep.append(lambda ms: busy.append(any(d.active() for d in fake_rp2.channels)))


out = {}
fake_rp2.entry(0)
out["after_boot"] = light()         # the buttons' first awake_ms: no light sleep yet
time.sleep_ms(400)
out["still"] = turns(2)
# B pressed inside a light sleep (the sampler stopped in it): still down at the first look after
# it; the sampler's next entries see it down, then up (a 30 ms tap)
def tap(ms):
    if not sleeps:
        level("b", 1)
    sleeps.append(ms)
sleeps = []
fm.on_sleep.append(tap)
out["tap"] = turns(2)               # the sleep it began in, then the first look after it
fm.on_sleep.remove(tap)
fake_rp2.entry(10)                  # the sampler's next entries (clocks running): B down
fake_rp2.entry(0)
level("b", 0)
time.sleep_ms(30)
fake_rp2.entry(5)                   # and up
fake_rp2.entry(0)
out["seen"] = btn.poll(time.ticks_ms())
time.sleep_ms(btn.debounce_ms)      # (B's release counts when its deaf time ends)
out["seen"] += btn.poll(time.ticks_ms())
out["after_tap"] = turns(3)         # no light sleep for awake_ms since the look that saw it
time.sleep_ms(400)
out["later"] = turns(1)
# Up pressed in a light sleep and held: the look after it starts the sampler again (which
# clears its edge); awake for as long as it is down
level("up", 1)
out["held"] = turns(1)
fake_rp2.entry(0)
time.sleep_ms(400)
out["held"] += turns(2)
level("up", 0)
fake_rp2.entry(0)
out["let_go"] = turns(1)
time.sleep_ms(400)
out["let_go_later"] = turns(1)
# the group's last GPIO (the Badger's Up, GP15) with an edge latched: INTR's top bits differ
fake_rp2.edges[mod.PINS["a"] | 7] = 8
longs = fm.mem32.longs
turns(1)
out["longs"] = fm.mem32.longs - longs
fm.levels[mod.PINS["vbus"]] = 1     # on USB: never a light sleep
out["usb"] = turns(2)
out["busy"] = busy
out["naps"] = naps
print(json.dumps(out))
"""


@pytest.mark.parametrize("start", [None, WRAP - 300_000], ids=["timer", "wrap"])
@pytest.mark.parametrize("module", BOARDS)
def test_no_light_sleep_while_buttons_are_used(module, start):
    """On battery the board sleeps lightly between turns only once the buttons have been still
    for awake_ms, with the sampler stopped (no DMA channel busy: the RP2040 gates its clocks
    only then); a press that began in a sleep is seen by the first look after it, which starts
    the sampler again: followed at full pace from there. The same across the ticks' wrap (0.3 s in: the
    script takes about a second)."""
    r = mp.run(SLEEPS % {"module": module, "start": start}, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["after_boot"] is False
    assert res["still"] == [True, True]
    assert res["tap"] == [True, False]  # the look after the sleep saw the latched edges
    # a still turn sleeps 100 ms in 10 ms slices; the one the tap began in ends at the look
    # after its first slice
    assert res["naps"][:3] == [10, 10, 1] and set(res["naps"][3:]) == {10}, res["naps"]
    assert res["seen"] == [["b", "press"]]
    assert res["after_tap"] == [False, False, False]
    assert res["later"] == [True]
    assert res["held"] == [False, False, False]
    assert res["let_go"] == [False] and res["let_go_later"] == [True]
    assert res["longs"] == 0  # no long int read (no heap a turn)
    assert res["usb"] == [False, False]
    # the sampler stopped in every light sleep: no DMA channel busy (the chip's clocks gate)
    assert len(res["busy"]) >= 5 and not any(res["busy"])


TWICE = """
import sys, json
from fakes import fake_machine as fm, fake_rp2, fake_time
sys.modules.update(machine=fm, _rp2=fake_rp2, time=fake_time)
from knockfw import board_badger2040 as mod
from knockfw import rp2board
mod.early()                     # boot.py's sampler
first = list(fake_rp2.channels)
rp2board._latched = ()          # as if the app's Board() found none: it starts its own
b = mod.Board()
out = {"first": [d.ctrl for d in first], "all": len(fake_rp2.channels),
       "running": sum(1 for d in fake_rp2.channels if d.ctrl & 1)}
fake_rp2.entry(0)               # (one chain, paced by the ADC: entry() asserts there is one)
print(json.dumps(out))
"""


def test_a_second_sampler_replaces_the_first():
    """A Board made again in one run (knockfw.fault's, after the first failed) starts the
    sampler again: the first chain's four channels are closed, so one chain samples and clears
    the edges."""
    r = mp.run(TWICE, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["first"] == [0, 0, 0, 0] and res["all"] == 8 and res["running"] == 4
