"""The report's charts, drawn by matplotlib (no pyplot: a Figure and its own SVG canvas, so no
global state or display) as inline SVG: text as paths (no fonts needed where the page is
opened), ids made unique per chart (several charts share one page), the same bytes each run.
Players' names are drawn as they are: no mathtext ($...$ is text), a legend's entries given
with their handles (matplotlib leaves out a label that starts with "_"), control characters as
visible escapes (knockbox.textsafe), a glyph the font lacks as its box without a warning, and
the text matplotlib puts beside its paths as comments (names in SVG comments) removed."""

from __future__ import annotations

import io
import re
import warnings

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from typing import Any, TYPE_CHECKING

from knockbox.textsafe import visible

if TYPE_CHECKING:
    from matplotlib.axes._axes import Axes

INK = "#24292f"
GRID = "#d0d7de"
WON = "#1a7f37"
LOST = "#cf222e"
_RC: dict = {
    "svg.fonttype": "path",
    "svg.hashsalt": "knockbox",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.edgecolor": GRID,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "text.color": INK,
    "text.parse_math": False,
}
_ID = re.compile(r'(\bid="|xlink:href="#|href="#|url\(#)([^")]+)')


def running_totals(
    series: list[tuple[str, str, list[int]]], target: int, words: dict[str, str], name: str
) -> str:
    """Running totals hand by hand: series [(label, colour, [total at start, after hand 1,
    ...])], a dashed line at the target. Returns the SVG text."""
    with rc_context(_RC):
        # fixed margins (the legend in a row above): one drawing pass instead of a layout's two
        fig = Figure(figsize=(9.2, 3.5))
        fig.subplots_adjust(left=0.075, right=0.985, bottom=0.14, top=0.88)
        ax = fig.add_subplot()
        top = low = 0
        handles, labels = [], []
        for label, colour, ys in series:
            handles += ax.plot(
                range(len(ys)),
                ys,
                color=colour,
                lw=2.2,
                marker="o",
                ms=3.5,
                solid_joinstyle="round",
            )
            labels.append(visible(label))
            top, low = max(top, max(ys)), min(low, min(ys))
        handles.append(ax.axhline(target, color=INK, lw=1, ls=(0, (5, 4))))
        labels.append(words["target"] % target)
        span = max(top, target) - low
        ax.set_ylim(low - span * 0.04, max(top, target) + span * 0.1)
        ax.set_xlim(-0.2, max(len(ys) for _, _, ys in series) - 0.8)
        _style(ax)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(words["axis_hand"])
        ax.set_ylabel(words["axis_points"])
        ax.legend(
            handles,
            labels,
            loc="lower left",
            bbox_to_anchor=(0, 1.01),
            ncols=len(series) + 1,
            frameon=False,
            borderaxespad=0,
            handlelength=2.4,
            columnspacing=1.6,
        )
        return _svg(fig, name)


def net_bars(rows: list[list[Any]], words: dict[str, str], name: str) -> str:
    """Net points per player as horizontal bars, won in green, lost in red, each labelled."""
    with rc_context(_RC):
        fig = Figure(figsize=(5.6, 0.45 * len(rows) + 0.8), layout="constrained")
        ax = fig.add_subplot()
        names = [visible(name) for name, _ in rows][::-1]
        nets = [net for _, net in rows][::-1]
        # (at numbered places, labelled: two names drawn alike keep a bar each)
        ax.barh(range(len(names)), nets, color=[WON if v >= 0 else LOST for v in nets], height=0.6)
        ax.set_yticks(range(len(names)), labels=names)
        ax.axvline(0, color=INK, lw=1)
        reach = max(abs(v) for v in nets) or 1
        for i, v in enumerate(nets):
            ax.annotate(
                "%+d" % v,
                (v, i),
                xytext=(5 if v >= 0 else -5, 0),
                textcoords="offset points",
                va="center",
                ha="left" if v >= 0 else "right",
                fontsize=10,
                color=INK,
            )
        ax.set_xlim(-reach * 1.25, reach * 1.25)
        _style(ax)
        ax.grid(axis="y", visible=False)
        ax.tick_params(axis="y", length=0, labelsize=11)
        ax.set_xlabel(words["axis_points"])
        return _svg(fig, name)


def _style(ax: Axes) -> None:
    ax.grid(True, color=GRID, lw=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _svg(fig: Figure, name: str) -> str:
    buf = io.StringIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"Glyph \d+ .*missing from font", UserWarning)
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    text = re.sub(r"<!-- .*? -->\n?", "", text, flags=re.S)  # ("--" in them is "- -")
    # ids are per document: prefix them so one chart's clip paths and glyphs are its own
    text = _ID.sub(lambda m: m.group(1) + name + "-" + m.group(2), text)
    text = re.sub(
        r'<svg ([^>]*?)width="[^"]*" height="[^"]*"',
        r'<svg \1class="chart" role="img" data-chart="%s"' % name,
        text,
        count=1,
    )
    return text
