# A stand-in for MicroPython's `_rp2` on the unix port (the DMA channels only, as
# knockfw.rp2board uses them), with a small model of what the RP2040's DMA then does on its own:
# tests put it in sys.modules["_rp2"] beside fakes.fake_machine as `machine`, and call entry()
# where the real chain would write a ring entry (every 19.1 ms, paced by the ADC).
#
# The model runs the chain the channels' CTRL words describe, from the channel paced by the ADC
# (TREQ_SEL 36): each channel makes TRANS_COUNT transfers of a word from its read address to its
# write address (each incremented if INCR_READ / INCR_WRITE, wrapping in its ring, RING_SEL
# saying which), then starts the channel CHAIN_TO names, until the ADC's channel again. The ADC's
# FIFO reads 0, the timer's TIMERAWL the low 32 bits of fakes.fake_time's timer as it was then;
# IO_BANK0's raw interrupt registers (INTR0-3) read the levels of fake_machine's pins and the
# edges latched since they were last cleared, and a write clears the edges it has bits for. Buffers given as addresses get made-up addresses that
# are 4-aligned but not 1 KiB-aligned.
from fakes import fake_machine as fm, fake_time

channels = []  # every DMA made, in order (its channel number is its index)
edges = {}  # GPIO -> its latched edge bits (8: went high, 4: went low); tests add to it
_seen = {}  # GPIO -> its level when the model last looked
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


def _buffer(addr):
    for a, b in _buffers:
        if a <= addr < a + 2 * len(b):
            return b, (addr - a) >> 1
    raise AssertionError("DMA access to 0x%x: outside every buffer" % addr)


def _level(g):
    p = fm.pin(g)
    v = p.value() if p is not None else 0
    if g in _seen and _seen[g] != v:
        edges[g] = edges.get(g, 0) | (8 if v else 4)
    _seen[g] = v
    return v


def _load(addr, now_us):
    if addr == 0x4004C00C:  # ADC FIFO
        return 0
    if addr == 0x40054028:  # TIMERAWL: the timer's low 32 bits
        return now_us & 0xFFFFFFFF
    if 0x400140F0 <= addr < 0x40014100:  # INTR0-3: 4 bits a GPIO
        first = (addr - 0x400140F0) * 2
        v = 0
        for g in range(first, first + 8):
            level = _level(g)
            v |= (edges.get(g, 0) | (2 if level else 1)) << (4 * (g - first))
        return v
    b, i = _buffer(addr)
    return b[i] | b[i + 1] << 16


def _store(addr, value):
    if 0x400140F0 <= addr < 0x40014100:  # INTR0-3: edges cleared where the value has 1s
        first = (addr - 0x400140F0) * 2
        for g in range(first, first + 8):
            edges[g] = edges.get(g, 0) & ~(value >> (4 * (g - first)))
        return
    b, i = _buffer(addr)
    b[i] = value & 0xFFFF
    b[i + 1] = (value >> 16) & 0xFFFF


def _step(a, c, incr, on_write):
    if not c & incr:
        return a
    ring = (1 << ((c >> 6) & 15)) - 1 if bool(c & (1 << 10)) == on_write else 0
    return (a & ~ring) | ((a + 4) & ring) if ring else a + 4


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

    def close(self):
        self.ctrl = 0
        self.started = False

    def active(self, on=None):
        if on is not None:
            self.started = bool(on)
        return self.started

    def _run(self, now_us):
        c = self.ctrl
        assert c & 1 and (c >> 2) & 3 == 2, "channel %d: not enabled for words" % self.channel
        for _ in range(self.count):
            _store(self._write, _load(self.read, now_us))
            self.read = _step(self.read, c, 1 << 4, False)
            self._write = _step(self._write, c, 1 << 5, True)
        return channels[(c >> 11) & 15]


# the CPU's reads and writes of INTR0-3 (machine.mem32) go to the same model
fm.mem32.models.append((0x400140F0, 0x40014100, lambda a: _load(a, 0), _store))


def entry(age_ms=0):
    """One round of the chain, as if it ran age_ms ago (the times written are that old)."""
    now_us = fake_time.timer_us() - 1000 * age_ms
    first = [d for d in channels if (d.ctrl >> 15) & 63 == 36 and d.started]
    assert len(first) == 1, "one channel paced by the ADC, started"
    d = first[0]
    for _ in range(len(channels)):
        d = d._run(now_us)
        if d is first[0]:
            return
    raise AssertionError("the chain does not come back to the ADC's channel")
