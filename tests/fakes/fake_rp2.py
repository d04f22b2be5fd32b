# A stand-in for MicroPython's `_rp2` on the unix port (the DMA channels only, as
# knockfw.rp2board uses them), with a small model of what the RP2040's DMA then does on its own:
# tests put it in sys.modules["_rp2"] beside fakes.fake_machine as `machine`, and call entry()
# where the real chain would write a ring entry (every 13.65 ms, paced by the ADC).
#
# The model runs the chain the channels' CTRL words describe, from the channel paced by the ADC
# (TREQ_SEL 36): each channel makes TRANS_COUNT transfers of a word from its read address (the
# ADC's FIFO reads 0, IO_BANK0's raw interrupt registers the levels of fake_machine's pins, the
# timer's TIMERAWL the time given), to its write address (incremented if INCR_WRITE, wrapping in
# its ring if RING_SEL), then starts the channel CHAIN_TO names, until the ADC's channel again.
# Buffers given as addresses get made-up addresses that are 4-aligned but not 1 KiB-aligned.
from fakes import fake_machine as fm

channels = []  # every DMA made, in order (its channel number is its index)
_buffers = []  # (address, buffer as array("H")) of the buffers given as addresses
_next = [0x20003A24]


def _address_of(buf):
    for a, b in _buffers:
        if b is buf:
            return a
    a = _next[0]
    _next[0] += 0x4000
    _buffers.append((a, buf))
    return a


def _store(addr, value):
    for a, b in _buffers:
        if a <= addr < a + 2 * len(b):
            i = (addr - a) >> 1
            b[i] = value & 0xFFFF
            b[i + 1] = (value >> 16) & 0xFFFF
            return
    raise AssertionError("DMA write to 0x%x: outside every buffer" % addr)


def _load(addr, now_us):
    if addr == 0x4004C00C:      # ADC FIFO
        return 0
    if addr == 0x40054028:      # TIMERAWL: 32 bits (the high two set, as after 18 minutes)
        return (now_us & 0x3FFFFFFF) | 0xC0000000
    if 0x400140F0 <= addr < 0x40014100:     # INTR0-3: 4 bits a GPIO, both edges latched too
        first = (addr - 0x400140F0) * 2
        v = 0
        for g in range(first, first + 8):
            p = fm.pin(g)
            level = p.value() if p is not None else 0
            v |= (0xC | (2 if level else 1)) << (4 * (g - first))
        return v
    raise AssertionError("DMA read from 0x%x" % addr)


class DMA:
    def __init__(self):
        self.channel = len(channels)
        channels.append(self)
        self.read = 0
        self._write = 0
        self.count = 0
        self.ctrl = 0
        self.started = False

    @property
    def write(self):
        return self._write

    @write.setter
    def write(self, v):
        self._write = v if isinstance(v, int) else _address_of(v)

    def active(self, on=None):
        if on is not None:
            self.started = bool(on)
        return self.started

    def _run(self, now_us):
        c = self.ctrl
        assert c & 1 and (c >> 2) & 3 == 2, "channel %d: not enabled for words" % self.channel
        for _ in range(self.count):
            _store(self._write, _load(self.read, now_us))
            if c & (1 << 5):
                ring = (1 << ((c >> 6) & 15)) - 1 if c & (1 << 10) else 0
                w = self._write + 4
                self._write = (self._write & ~ring) | (w & ring) if ring else w
        return channels[(c >> 11) & 15]


def entry(age_ms=0):
    """One round of the chain, as if it ran age_ms ago (the times written are that old)."""
    import time

    now_us = time.ticks_add(time.ticks_us(), -1000 * age_ms)
    first = [d for d in channels if (d.ctrl >> 15) & 63 == 36 and d.started]
    assert len(first) == 1, "one channel paced by the ADC, started"
    d = first[0]
    for _ in range(len(channels)):
        d = d._run(now_us)
        if d is first[0]:
            return
    raise AssertionError("the chain does not come back to the ADC's channel")
