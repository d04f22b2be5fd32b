"""The Badger watches its battery (knockfw/board_badger2040.py's measure(), hardware/POWER.md): the
supply (the 3V3 rail) read against the 1.24 V reference on GPIO 28 (powered by GPIO 27) and the
battery on GPIO 29, as Pimoroni's badger_os.py does, with the button sampler stopped (the ADC is
its metronome); at boot, before the journal is opened, and every minute. On battery, a supply
under 2.8 V is low: "battery low" on the panel (English, Russian), nothing more written (the
journal, its pending quick appends, the checkpoint stay as they were), the latch released.

The emulated Pico cannot drive its ADC's inputs (rp2040js' ADC converts its channelValues, which
the emulator leaves at 0 and offers no command to set: the firmware takes that for no reading, as
every emulated test shows), so this runs the real board file, app and drivers on the unix port
against tests/fakes' register models: the ADC's one-shot conversions (fake_machine) and the
sampler's DMA chain (fake_rp2)."""

import json
import os

import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))

# what the ADC converts to (of 4095, against the 3V3 rail): the reference's 1.24 V and a third of
# the battery, for a supply of 3.30 V (USB, or a fresh LiPo) and of 2.75 V (cells nearly empty)
GOOD = {2: 1539, 3: 1613}  # 3.30 V supply, 3.90 V battery (3.299 and 3.898 read back)
LOW = {2: 1847, 3: 1066}  # 2.75 V supply, 2.15 V battery (2.749 and 2.146)
NONE = {}  # an ADC that reads 0 (the emulated Pico's)

SCRIPT = """
import sys, json, os
from fakes import fake_machine as fm, fake_rp2, fake_time as time
sys.modules.update(machine=fm, _rp2=fake_rp2, time=time)
from knockfw import board_badger2040 as mod
from knockfw.journal import Journal
from knockfw.store import Store
from knockfw import DATA
from simflash import RAMBlockDevice, mount
out = {}


def files():
    r = {}
    for n in sorted(os.listdir(DATA)):
        with open(DATA + "/" + n, "rb") as f:
            r[n] = f.read().decode()
    return r


# what the device holds: a game and a hand, the hand still a quick append (journal.txt.new)
mount(RAMBlockDevice(64), DATA, fresh=True)  # the device's littlefs at /data
with open(DATA + "/settings.json", "w") as f:
    json.dump({"lang": %(lang)r}, f)
st = Store(Journal(DATA + "/journal.txt"), DATA + "/meta.json", snap_path=DATA + "/snap.json")
st.load()
st.record({"t": "game", "rec": {"method": 3, "players": ["Ann", "Bob", "Cy"],
           "start": {"dealer": 0}, "rules": {"preset": "seed"}}})
st.checkpoint()
st.record({"t": "hand", "h": {"knock": 0, "counts": [3, 20, 12]}})
st.journal._close_f()              # (the quick append left as the device leaves it)
before = files()
out["pending"] = "journal.txt.new" in before

fm.levels[mod.PINS["vbus"]] = %(usb)d
fm.levels[mod.PINS["busy"]] = 1     # the panel's BUSY_N, driven idle
fm.adc.update(%(boot)r)
busy = []                            # each conversion: (input, a DMA channel of the sampler busy)
fm.on_adc.append(lambda ch: busy.append([ch, any(d.active() for d in fake_rp2.channels)]))
mod.early()                          # boot.py: the latch, the sampler


class Off(Exception):
    pass


def load():
    b = mod.Board()
    b.watch = lambda on: None
    b.watchdog_fired = lambda: False
    power_off = b.power_off

    def off():                       # the latch down: on battery the board is dark here
        power_off()
        out["latch"] = fm.pin(10).out
        raise Off

    b.power_off = off
    measure = b.measure

    def later():                     # the next minute's reading
        measure()
        out["readings"].append(b.battery)
        if b.low:                    # work that the next turn of the loop would write
            app = apps[0]
            app.store.record({"t": "hand", "h": {"knock": 1, "counts": [20, 2, 9]}})
            app.last_input = time.ticks_add(time.ticks_ms(), -10000)
            out["at_low"] = files()

    out["readings"] = [b.battery]  # (read as the board was made)
    b.measure = later
    idle_sleep = b.idle_sleep

    def turn(ms):                    # every turn of the loop: after a few, the cells run down
        turns[0] += 1
        if turns[0] == 20:
            fm.adc.update(%(later)r)
            b._bat_t = time.ticks_add(time.ticks_ms(), -61000)
        if turns[0] == 60:
            raise Off
        idle_sleep(ms)

    b.idle_sleep = turn
    boards.append(b)
    return b


boards, apps = [], []
from knockfw import app as A, board
board.load = load
App = A.App


def app(b):
    a = App(b)
    apps.append(a)
    return a


A.App = app
turns = [0]
try:
    A.run()
except Off:
    out["off"] = True
out["after"] = files()
out["before"] = before
out["busy"] = busy
out["low"] = boards[0].low
d = boards[0].display
from knockfw import screens, strings, text
import framebuf
buf = bytearray(len(d.buf))


class FB(framebuf.FrameBuffer):  # (a panel's framebuffer as the drivers make it: knockfw.epd)
    pass


fb = FB(buf, d.width, d.height, framebuf.MONO_VLSB)
fb.buf, fb.width, fb.height = buf, d.width, d.height
screens.bar(fb, strings.t("bat_low"))
out["title"] = strings.t("bat_low")
out["bar_shown"] = bytes(d.buf[:296 * 2]) == bytes(buf[:296 * 2])  # the bar: the top 16 rows
print(json.dumps(out))
"""


def run(boot, later=None, usb=0, lang="en"):
    code = SCRIPT % {
        "boot": boot,
        "later": later if later is not None else boot,
        "usb": usb,
        "lang": lang,
    }
    r = mp.run(code, paths=mp.SOURCE_PATHS + [HERE], heap="1M", timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def reading(vbat, supply, usb=False):
    return {"vbat_mv": vbat, "supply_mv": supply, "usb": usb, "low_mv": 2800}


@pytest.mark.parametrize("lang,title", [("en", "Battery low"), ("ru", "Батарея разряжена")])
def test_low_at_boot_switches_off_before_the_journal_is_opened(lang, title):
    res = run(LOW, lang=lang)
    assert res["readings"] == [reading(2146, 2749)]
    assert res["off"] and res["latch"] == 0 and res["low"]
    assert res["title"] == title and res["bar_shown"]
    # nothing written: the hand still a quick append, no journal merge, no checkpoint of it
    assert res["pending"] and res["after"] == res["before"]
    # the ADC read with the sampler stopped (no DMA channel busy), the reference and the battery
    assert [c for c, _b in res["busy"]] == [2] * 4 + [3] * 4
    assert not any(b for _c, b in res["busy"])


def test_low_while_running_switches_off_before_anything_more_is_written():
    res = run(GOOD, later=LOW)
    assert res["readings"] == [reading(3898, 3299), reading(2146, 2749)]
    assert res["off"] and res["latch"] == 0
    # at the low reading a hand was pending and the buttons left 10 s: the next turn of the loop
    # would have merged it and written the checkpoint; it switched off instead
    assert "journal.txt.new" in res["at_low"] and res["after"] == res["at_low"]
    assert res["bar_shown"]
    assert not any(b for _c, b in res["busy"])


def test_on_usb_or_without_a_reading_it_runs_on():
    # on USB the supply is USB's: never low, whatever the cells say; an ADC that reads 0 (the
    # emulated Pico's) is no reading. Both run on (the script stops the loop after 60 turns,
    # the latch still high)
    for boot, usb, want in ((LOW, 1, reading(2146, 2749, usb=True)), (NONE, 0, None)):
        res = run(boot, usb=usb)
        assert res["readings"] == [want, want] and not res["low"]
        assert "latch" not in res and "at_low" not in res
