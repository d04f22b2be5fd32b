"""Counts in the laptop tool's English lines: count(1, "new game") is "1 new game",
count(2, "new game") "2 new games", count(0, "game") "0 games"."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    return "%d %s" % (n, noun if n == 1 else plural or noun + "s")
