"""Decode what the firmware showed on the e-ink panel of an emulated Pico, from the emulator's
logs: the SPI byte log (every byte with its CS/DC levels, emulated time) and the GPIO output log
(the panel's RST pin, CS for matching boots). The bytes are fed, in order, into the controller
models of tests/fakes through their public entry points (`wire(model)`: SPI, CS, DC, RST, BUSY),
and every refresh the model sees becomes a Frame (the image a viewer sees on the panel).

The panel's BUSY is whatever the test drives on the emulator's pin; the models' own BUSY (a
count of polls) is not what the firmware saw, so before each command the model's BUSY is polled
until it clears (a command the firmware sent while the driven BUSY said busy is a separate check).
"""

import json
import re

from fakes.bus import wire
from fakes.model import ROW
from fakes.ssd1680_model import SSD1680Model
from fakes.uc8151_model import UC8151Model

W = 296
H = 128

# Panel wiring per firmware board (GPIO numbers): the controller model and its pins.
PANELS = {
    "badger": {
        "model": UC8151Model,
        "bus": 0,
        "cs": 17,
        "dc": 20,
        "rst": 21,
        "busy": 26,
        "busy_level": 0,
    },
    "pico-epd": {
        "model": SSD1680Model,
        "bus": 1,
        "cs": 9,
        "dc": 8,
        "rst": 12,
        "busy": 13,
        "busy_level": 1,
    },
}


class Frame:
    """One refresh: `image` is the viewer's picture packed like a P4 PBM (37 bytes a row, MSB =
    leftmost pixel, 1 = black); `t_us` the emulated time of the refresh command in `boot`; `ms`
    the refresh's waveform time as the controller model works it out (None: a model without)."""

    def __init__(self, boot, t_us, kind, image, ms=None):
        self.boot = boot
        self.t_us = t_us
        self.kind = kind
        self.image = bytes(image)
        self.ms = ms

    def px(self, x, y):
        return (self.image[y * ROW + (x >> 3)] >> (7 - (x & 7))) & 1

    def ink(self):
        return sum(bin(b).count("1") for b in self.image)

    def diff(self, other):
        """Pixels that differ from another Frame or packed image."""
        img = other.image if isinstance(other, Frame) else bytes(other)
        return sum(bin(a ^ b).count("1") for a, b in zip(self.image, img))

    def ascii(self, step=2):
        rows = []
        for y in range(0, H, step * 2):
            rows.append("".join("#" if self.px(x, y) else "." for x in range(0, W, step)))
        return "\n".join(rows)

    def __repr__(self):
        return "Frame(boot=%d, t=%.1f ms, %s, %d px of ink)" % (
            self.boot,
            self.t_us / 1000,
            self.kind,
            self.ink(),
        )


def read_jsonl(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass  # a log cut while it was written: the last line may be partial
    return out


def pbm_image(path_or_bytes):
    """The packed image of a P4 PBM file (296 x 128), e.g. the unix port's rendering."""
    data = path_or_bytes
    if not isinstance(data, (bytes, bytearray)):
        with open(path_or_bytes, "rb") as f:
            data = f.read()
    start = data.index(b"\n", data.index(b"\n") + 1) + 1
    img = bytes(data[start : start + ROW * H])
    if len(img) != ROW * H:
        raise ValueError("not a 296x128 P4 PBM")
    return img


_SPI_LINE = re.compile(rb'\{"t":(\d+),"bus":(\d+),"b":(\d+),"cs":\d+,"dc":\d+,"g":(\d+)\}')


def read_spi(path):
    """The SPI log as a list of (t_us, bus, byte, gpio levels) (fast: a log holds thousands of
    bytes per frame)."""
    with open(path, "rb") as f:
        data = f.read()
    out = [(int(t), int(bus), int(b), int(g)) for t, bus, b, g in _SPI_LINE.findall(data)]
    if not out and data.strip():  # another layout: the slow way
        out = [(r["t"], r["bus"], r["b"], r["g"]) for r in read_jsonl(path) if "b" in r]
    return out


def _segments(spi, cuts=()):
    """SPI records split where the chip was reset: where emulated time goes back, and at the
    record indexes in `cuts` (the log's length when a test reset the chip: a boot that takes
    longer than the one before it starts at a later time)."""
    segs, cur, last = [], [], -1
    cuts = set(cuts)
    for i, r in enumerate(spi):
        if (r[0] < last or i in cuts) and cur:
            segs.append(cur)
            cur = []
        cur.append(r)
        last = r[0]
    if cur:
        segs.append(cur)
    return segs


def _boot_of_segments(segs, gpio, cs_pin, first_boot):
    """The boot each SPI segment belongs to: the first boot (after the previous segment's) whose
    GPIO log has CS going low just before the segment's first byte."""
    cs_low = {}
    for r in gpio:
        if r.get("pin") == cs_pin and r.get("v") == 0 and r.get("oe") == 1:
            cs_low.setdefault(r["boot"], []).append(r["t"])
    boots, prev = [], first_boot - 1
    for seg in segs:
        t0 = seg[0][0]
        found = None
        for b in sorted(cs_low):
            if b <= prev or b < first_boot:
                continue
            if any(t0 - 2000 <= t <= t0 for t in cs_low[b]):
                found = b
                break
        if found is None:
            found = prev + 1
        boots.append(found)
        prev = found
    return boots


class PanelReader:
    """Feeds logs into a controller model and keeps every frame the panel showed."""

    def __init__(self, panel="badger"):
        self.cfg = PANELS[panel]
        self.model = self.cfg["model"]()
        self.spi, self.cs, self.dc, self.rst, self.busy = wire(self.model)
        self.frames = []
        self.commands = []  # (boot, t_us, command byte)

    @property
    def errors(self):
        return list(self.model.errors)

    def _settle(self):
        # The firmware saw the emulator's BUSY pin, not the model's poll counter.
        for _ in range(10000):
            if self.busy.value() != self.cfg["busy_level"]:
                return

    def feed(self, spi, gpio, first_boot=None, cuts=()):
        """spi: (t, bus, byte, levels) records (read_spi); gpio: the GPIO log's records (dicts),
        covering the same span; cuts: indexes of spi where the chip was reset (see _segments).
        CS and DC come from the GPIO levels logged with each byte."""
        rst_pin, cs_pin = self.cfg["rst"], self.cfg["cs"]
        if first_boot is None:
            boots = [r["boot"] for r in gpio if "boot" in r]
            first_boot = min(boots) if boots else 1
        bus, cs_bit, dc_bit = self.cfg["bus"], 1 << cs_pin, 1 << self.cfg["dc"]
        segs = [[r for r in seg if r[1] == bus] for seg in _segments(spi, cuts)]
        segs = [seg for seg in segs if seg]
        seg_boots = _boot_of_segments(segs, gpio, cs_pin, first_boot)
        rst = {}
        for r in gpio:
            if r.get("pin") == rst_pin:
                rst.setdefault(r["boot"], []).append((r["t"], r["v"]))
        by_boot = {}
        for seg, boot in zip(segs, seg_boots):
            by_boot.setdefault(boot, []).extend(seg)
        for boot in sorted(set(rst) | set(by_boot)):
            self._boot(boot, by_boot.get(boot, []), rst.get(boot, []), cs_bit, dc_bit)
        return self

    def _boot(self, boot, seg, rst, cs_bit, dc_bit):
        ri, i, n = 0, 0, len(seg)
        while i < n:
            t, _bus, b, g = seg[i]
            while ri < len(rst) and rst[ri][0] <= t:
                self.rst.value(rst[ri][1])
                ri += 1
            if g & cs_bit:
                self.model.error("SPI byte with CS high at %d us" % t)
                i += 1
            elif g & dc_bit:  # a run of data bytes, up to the next command or RST change
                until = rst[ri][0] if ri < len(rst) else None
                j = i
                while (
                    j < n
                    and seg[j][3] & dc_bit
                    and not seg[j][3] & cs_bit
                    and (until is None or seg[j][0] < until)
                ):
                    j += 1
                self.cs.value(0)
                self.dc.value(1)
                self.spi.write(bytes(seg[k][2] for k in range(i, j)))
                i = j
            else:
                self._command(boot, t, b)
                i += 1
        for _t, v in rst[ri:]:
            self.rst.value(v)

    def _command(self, boot, t, c):
        self._settle()
        n = len(self.model.refreshes)
        self.cs.value(0)
        self.dc.value(0)
        self.spi.write(bytes((c,)))
        self.commands.append((boot, t, c))
        # both models start a refresh at the command byte (UC8151 DRF, SSD1680 master activation)
        if len(self.model.refreshes) > n:
            kind, img = self.model.refreshes[-1]
            ms = getattr(self.model, "refresh_ms", None)  # (kept since the panel's last reset)
            self.frames.append(Frame(boot, t, kind, img, ms[-1] if ms else None))

    def feed_files(self, spi_path, gpio_path, first_boot=None, cuts=()):
        return self.feed(read_spi(spi_path), read_jsonl(gpio_path), first_boot, cuts)


def decode(spi_path, gpio_path, panel="badger", first_boot=None, cuts=()):
    """All frames of the logs, in order (a PanelReader: .frames, .errors, .commands)."""
    return PanelReader(panel).feed_files(spi_path, gpio_path, first_boot, cuts)
