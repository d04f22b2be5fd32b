"""The player pages' charts (net over time, rating over time) as small hand-written inline SVG:
a line over a grid with round-number ticks. A player's page is made again after each evening the
player plays, so its charts must cost next to nothing (matplotlib's take a tenth of a second
each); the evening pages keep the report's matplotlib charts."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

INK = "#24292f"
GRID = "#d0d7de"
W, H = 920, 290  # the drawing's units (it scales to the page's width)
LEFT, RIGHT, TOP, BOTTOM = 64, 14, 12, 46


def ticks(lo: float, hi: float, most: int = 7) -> list[float]:
    """Round-number ticks (1, 2 or 5 times a power of ten) covering lo..hi."""
    if hi <= lo:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / most
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    out, v = [], first
    while v <= hi + step * 1e-9:
        out.append(round(v, 10))
        v += step
    if out[-1] < hi:
        out.append(round(v, 10))
    return out


def _num(v: float) -> str:
    return ("%d" % v if float(v).is_integer() else "%g" % v).replace("-", "\u2212")


def line(
    xs: list[int] | list[float],
    ys: list[int] | list[float],
    colour: str,
    xlabel: str,
    ylabel: str,
    name: str,
    zero: bool = True,
    integer_x: bool = True,
) -> str:
    """A line through (xs, ys) with its axes, as SVG text; dots on the points when few."""
    yt = ticks(min(ys + [0] if zero else ys), max(ys + [0] if zero else ys))
    xt = [
        v
        for v in ticks(xs[0], xs[-1], 8)
        if xs[0] <= v <= xs[-1] and (float(v).is_integer() or not integer_x)
    ] or [xs[0]]
    x0, x1 = xs[0], xs[-1]
    pad = (x1 - x0) * 0.02 or 0.5  # the first and last dots clear of the axes
    x0, x1 = x0 - pad, x1 + pad
    y0, y1 = yt[0], yt[-1]
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x0) / ((x1 - x0) or 1) * pw

    def py(y: float) -> float:
        return TOP + ph - (y - y0) / ((y1 - y0) or 1) * ph

    out = [
        '<svg class="chart" role="img" data-chart="%s" viewBox="0 0 %d %d" '
        'xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, Arial, sans-serif" '
        'font-size="13" fill="%s">' % (escape(name), W, H, INK)
    ]
    for v in yt:
        y = py(v)
        out.append(
            '<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="%s"/>'
            % (
                LEFT,
                W - RIGHT,
                y,
                y,
                INK if v == 0 and zero else GRID,
                "1" if v == 0 and zero else "0.7",
            )
        )
        out.append(
            '<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s'
            "</text>" % (LEFT - 8, y, _num(v))
        )
    for v in xt:
        x = px(v)
        out.append(
            '<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="%s" stroke-width="0.7"/>'
            % (x, x, TOP, TOP + ph, GRID)
        )
        out.append(
            '<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x, TOP + ph + 18, _num(v))
        )
    out.append(
        '<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
        % (LEFT + pw / 2, H - 6, escape(xlabel))
    )
    out.append(
        '<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle">%s'
        "</text>" % (TOP + ph / 2, escape(ylabel))
    )
    pts = " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in zip(xs, ys))
    many = len(xs) > 60
    out.append(
        '<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" '
        'stroke-linejoin="round"/>' % (pts, colour, "1.6" if many else "2.4")
    )
    if not many:
        out += [
            '<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (px(x), py(y), colour)
            for x, y in zip(xs, ys)
        ]
    out.append("</svg>")
    return "\n".join(out)
