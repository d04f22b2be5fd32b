"""`knockbox report`'s page: the games of a selection (an evening by default) as one
self-contained HTML file, built with Jinja2 (templates/report.html) around matplotlib's charts
as inline SVG (charts.py), in English or Russian (words.py).

page(rows, lang, ...) -> HTML text. For each game: its running totals hand by hand with the
target line, the hands table, boxes, final and net, its payments. For the selection: the net per
player (bars), the settlement by the rules core's ledger (knockcore.evening, the same as
`knockbox settle` and the device's Evening screen) and the statistics of `knockbox stats`.
Numbers on the page carry data-k attributes (tests/test_report.py reads them in a browser).
"""

from __future__ import annotations

import datetime
import os

from markupsafe import Markup, escape
from typing import Any

from knockbox import settle, stats, templating
from knockbox.usererror import UserError
from knockbox.history import standings
from knockbox.report import charts
from knockbox.report.words import LANGS, hand_result
from knockbox.templating import isolate
from knockcore import evening as ledger

PALETTE = (
    "#0969da",
    "#cf222e",
    "#1a7f37",
    "#8250df",
    "#bc4c00",
    "#1b7c83",
    "#bf3989",
    "#4d2d00",
    "#57606a",
    "#7d4e00",
)
STATS = ("games", "wins", "hands", "hands_won", "gins", "undercuts", "avg_points", "net")
MAX_GAMES = 60  # games on one page at most
_HERE = os.path.dirname(os.path.abspath(__file__))


def page(
    rows: list[Any],
    lang: str = "en",
    evening: int | None = None,
    since: str | None = None,
    stake: int | None = None,
    now: datetime.datetime | None = None,
    home: tuple[str, str] | None = None,
    most: int | None = MAX_GAMES,
) -> str:
    """The report of these History.games(detail=True) rows as HTML text: what it shows was
    worked out when each game was stored (nothing is replayed); more than most games are
    refused (a page that size is not read: the book is for the whole history; the book's
    evening pages have no most). home: (href, text) of a link above the title (the book's
    evening pages link back to its index)."""
    if not rows:
        raise UserError("no games to report")
    if most is not None and len(rows) > most:
        raise UserError(
            "%d games are more than one page can sensibly hold (at most %d): choose "
            "an evening, fewer games or a later --since; `knockbox book -o DIR` "
            "makes the whole history a folder of pages" % (len(rows), most)
        )
    words = LANGS[lang]
    names = sorted({n for r in rows for n in r["players"]})
    colour = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(names)}
    res = settle.tally([r for r in rows if r["status"] != "invalid"])
    res["skipped"] += [[r["id"], r["status"]] for r in rows if r["status"] == "invalid"]
    if stake is not None:
        settle.add_money(res, stake)
    if evening is not None:
        title = words["evening"] % evening
    elif since is not None:
        title = words["since_title"] % since
    else:
        title = words["games_title"] % ", ".join(str(r["id"]) for r in rows)
    status = {r["id"]: words["status_" + r["status"]] for r in rows}
    left_out = ", ".join("%s (%s)" % (words["game"] % i, status[i]) for i, _ in res["skipped"])
    days = sorted({r["synced"][:10] for r in rows})
    ctx = {
        "lang": lang,
        "t": words,
        "title": title,
        "evening": evening,
        "home": home,
        "dates": days[0] if len(days) == 1 else "%s – %s" % (days[0], days[-1]),
        "made": (now or datetime.datetime.now()).strftime("%Y-%m-%d %H:%M"),
        "res": res,
        "money": stake is not None,
        "left_out": left_out,
        "per_point": words["stake"] % ledger.money(stake) if stake is not None else None,
        "net_chart": charts.net_bars(
            [[p["player"], p["net"]] for p in res["players"]], words, "net"
        )
        if res["players"]
        else None,
        "stats": stats.compute(rows),
        "stat_keys": STATS,
        "colour": colour,
        "games": [_game(r, words, colour) for r in rows],
    }
    env = templating.environment(os.path.join(_HERE, "templates"))
    return env.get_template("report.html").render(ctx)


def _game(row: dict[str, Any], words: dict[str, str], colour: dict[str, str]) -> dict[str, Any]:
    """One game's part of the page: its hands with running totals, its chart, its ending."""
    p = row["players"]
    out = {
        "id": row["id"],
        "row": row,
        "players": p,
        "status": row["status"],
        "status_text": words["status_" + row["status"]],
        "error": row["error"],
        "method": words["method%d" % row["method"]] if row["method"] in (1, 2, 3) else "",
        "synced": words["synced"] % row["synced"][:16],
    }
    if row["status"] == "invalid":
        return out
    st = standings(row)
    rec = row["record"]
    running, hands = row["play"]["running"], []
    for i, (h, x) in enumerate(zip(rec["hands"], st["hands"])):
        active = row["play"]["active"][i]
        hands.append(
            {
                "n": x["hand"],
                "dealer": p[x["dealer"]],
                "result": _result(h, x, p, words),
                "cells": [
                    {
                        "seat": s,
                        "total": running[i + 1][s],
                        "points": x["points"][s],
                        "out": s not in active,
                    }
                    for s in range(3)
                ],
            }
        )
    box = rec["start"].get("box") if row["method"] == 2 else None
    # a seat out of the hand: method 2's partner advises, method 1's idle player sits out
    out.update(
        st=st,
        hands=hands,
        box=box,
        labels=_labels(p, box, words),
        out_word=words["advises" if box is not None else "sat_out"],
        rules=", ".join("%s=%s" % (k, v) for k, v in sorted(rec["rules"].items())),
        chart=charts.running_totals(
            _series(p, box, running, words, colour),
            st["rules"]["m3_target" if row["method"] == 3 else "target"],
            words,
            "g%d" % row["id"],
        ),
    )
    if st["over"]:
        win = [p[s] for s in st["winners"]]
        out["winner"] = escape(words["winners" if len(win) > 1 else "winner"]) % _both(win, words)
        out["payments"] = [[p[a], p[b], v] for a, b, v in st["payments"]]
    return out


def _both(names: list[str], words: dict[str, str]) -> Markup:
    """Names joined by the words' "and", as HTML (each isolated)."""
    return escape(words["and"]).join(isolate(n) for n in names)


def _labels(p: list[str], box: int | None, words: dict[str, str]) -> list[Markup]:
    """Column heads (HTML): the players' names, the box player's marked (method 2)."""
    return [
        Markup("%s (%s)") % (isolate(n), words["in_box"]) if s == box else isolate(n)
        for s, n in enumerate(p)
    ]


def _series(
    p: list[str],
    box: int | None,
    running: list[list[int]],
    words: dict[str, str],
    colour: dict[str, str],
) -> list[tuple[str, str, list[int]]]:
    """The chart's lines: a player each; in method 2 the box player and the partnership."""
    if box is None:
        return [(p[s], colour[p[s]], [t[s] for t in running]) for s in range(3)]
    mates = [s for s in range(3) if s != box]
    return [
        ("%s (%s)" % (p[box], words["in_box"]), colour[p[box]], [t[box] for t in running]),
        (
            "%s%s%s (%s)" % (p[mates[0]], words["and"], p[mates[1]], words["partners"]),
            colour[p[mates[0]]],
            [t[mates[0]] for t in running],
        ),
    ]


def _result(
    h: dict[str, Any], x: dict[str, Any], p: list[str], words: dict[str, str]
) -> str | Markup:
    """What happened in a hand, in words (HTML): who knocked or went gin, an undercut, a tie, a
    void hand (knockbox.report.words.hand_result)."""
    return hand_result(h, x, [isolate(n) for n in p], words, escape, escape(words["and"]).join)
