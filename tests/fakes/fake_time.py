# A stand-in for `time` with the RP2040's ticks, for running board files under the unix port:
# tests put it in sys.modules["time"] beside fakes.fake_machine as `machine` (and use it
# themselves). The unix port's ticks_us and ticks_ms do not wrap (their period is 2**62); the
# Pico's wrap at 2**30 (MicroPython v1.28 ports/rp2: ticks_us is the 64-bit timer's low 30 bits,
# ticks_ms its value / 1000 masked likewise), every 17.9 minutes for ticks_us. Here the chip's
# timer (timer_us(), what TIMERAWH:TIMERAWL read) runs with the unix port's clock from START,
# set again with start(us): a test reaches a wrap by starting just before one.
import time as _time

PERIOD = 1 << 30
_MASK = PERIOD - 1
START = 3 << 30  # the timer's top bits set, as after 53 minutes: the 30 bits do not start at 0
_base = [START - _time.ticks_us()]

sleep = _time.sleep
sleep_ms = _time.sleep_ms
sleep_us = _time.sleep_us
time = _time.time


def start(us):
    """Set the chip's timer to us now."""
    _base[0] = us - _time.ticks_us()


def timer_us():
    """The chip's 64-bit timer (us since its start)."""
    return _base[0] + _time.ticks_us()


def ticks_us():
    return timer_us() & _MASK


def ticks_ms():
    return timer_us() // 1000 & _MASK


def ticks_add(t, d):
    return (t + d) & _MASK


def ticks_diff(a, b):
    half = PERIOD >> 1
    return ((a - b + half) & _MASK) - half
