"""A measured figure is written by the bench that measures it, never by hand: in a doc it sits in
the bench's block (bench/docfigures.py), and a code comment names the bench instead of quoting
it. Hand-typed figures go stale (the latch was "~25", "~55" and "~60 ms" in four places while
the bench printed 22 ms).

What counts as a measured figure: a number with a unit of time (us, ms, s, min, h), current
(uA, mA, A), charge (mAs, mAh) or size (B, bytes, KB, MB), that is written as an approximation
(`~`, `≈`, about, around, roughly, some, nearly) or on a line that calls it measured (measured,
median). An exact value is the code's own (a 50 ms debounce, the 8 s watchdog) or a budget
(`<= 100 ms`, at most 64 KB): a target, not a measurement, and not what this looks for.

Allowed: the figures in a bench's block; a vendor's figure named as such, its line naming the
datasheet, the vendor or the upstream source (`datasheet`, `vendor`, `upstream`, or a vendor by
name: Pimoroni, Waveshare, GxEPD2, Winbond); CHANGELOG.md (each release as it was); the benches'
own sources (bench/*.py: their inputs, each with its source, and what they print).
"""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

UNIT = r"(?:us|µs|ms|s|sec|seconds?|min|minutes?|h|hours?|uA|µA|mA|A|mAs|mAh|B|bytes?|KB|kB|KiB|MB|MiB)"
NUM = r"\d[\d,]*(?:\.\d+)?(?:\s*(?:-|to)\s*\d[\d,]*(?:\.\d+)?)?"
FIGURE = NUM + r"\s*" + UNIT + r"(?![\w/])"
APPROX = re.compile(
    r"(?:~|≈|\babout\s|\baround\s|\broughly\s|\bsome\s|\bnearly\s)\s*" + FIGURE, re.I
)
PLAIN = re.compile(r"(?<![\w.~])" + FIGURE)
MEASURED = re.compile(r"\bmeasured(?![a-z])|\bmedian\b", re.I)
CITED = re.compile(r"datasheet|vendor|upstream|Pimoroni|Waveshare|GxEPD2|Winbond", re.I)
BLOCK = re.compile(r"<!-- written by bench/.*?<!-- end of bench/\S+'s figures -->", re.S)
# (and this file: its examples of what it finds)
LEFT_OUT = re.compile(r"^(CHANGELOG\.md|bench/[^/]+\.py|tests/vectors/.*|tests/test_figures\.py)$")


def files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    names = [n for n in out.splitlines() if n.endswith((".py", ".md")) and not LEFT_OUT.match(n)]
    assert len(names) > 100  # a checkout: git lists its files
    return names


def hand_typed(text):
    """[(line number, figure, line)] of the measured figures written by hand in text."""
    # a block's lines are kept (as blank lines) so that the numbers stay the file's own
    text = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if CITED.search(line):
            continue
        hits = [m.group(0) for m in APPROX.finditer(line)]
        if MEASURED.search(line):
            hits += [m.group(0) for m in PLAIN.finditer(line)]
        found += [(n, hit.strip(), line.strip()) for hit in hits]
    return found


def test_no_measured_figure_is_typed_by_hand():
    problems = []
    for name in files():
        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
            for n, fig, line in hand_typed(f.read()):
                problems.append("%s:%d: %s   (%s)" % (name, n, fig, line[:90]))
    assert problems == [], (
        "measured figures typed by hand (quote the bench's block, or name the bench; a vendor's "
        "figure names its datasheet or vendor):\n" + "\n".join(problems)
    )


@pytest.mark.parametrize(
    "line",
    [
        "- Badger: `/boot.py` takes the power latch (GPIO 10) ~55 ms after reset (budget 100 ms",
        "# Budget: latch high <= 100 ms after reset. MicroPython itself takes ~25 ms to get here",
        "    MEASURED_AWAKE_S_PER_HAND = 4.0 s at the buttons (8.7 presses), 5.4 refreshes",
        "# (rp2board's rings, ~730 B), no light sleep while they are in use (~210 B)",
        "a 200-event page costs the heap about 4 KB on the Pico",
        "the median boot took 689 ms",
        "(~0.3-0.5 s a refresh)",
        "# the app is importing (~500 ms), 1.5-2 KB of heap",
    ],
)
def test_the_check_finds_a_hand_typed_figure(line):
    assert hand_typed(line) != [], line


@pytest.mark.parametrize(
    "line",
    [
        "# Budget: latch high <= 100 ms after reset (bench/bench_pico.py measures it).",
        "debounce_ms=50, long_ms=600: a press counts 50 ms after its first edge",
        "| full refresh time | 2-4.5 s | Pimoroni (UC8151 default waveform ~4.5 s) |",
        "journal's flash write (~45 ms typical; W25Q16JV datasheet)",
        "~/.local/share/knockbox, ~1 game a minute, ~ 5 things",
        "the whole firmware at most 64 KB of .mpy; the core 12 KB",
        "<!-- written by bench/bench_pico.py --write: do not edit by hand -->\n\n"
        "    reset -> power latch high   22 ms  median 22.1 ms over 7 boots\n\n"
        "<!-- end of bench/bench_pico.py's figures -->",
    ],
)
def test_the_check_leaves_budgets_design_values_vendors_and_blocks(line):
    assert hand_typed(line) == [], line
