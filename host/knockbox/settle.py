"""Settling up: the one home of the settlement the `settle`, `report` and `book` commands show,
and of money per point (`settle --per-point`, `report --per-point`, `push --stake`).

tally(rows) adds the finished games of History.games(seats=True) rows (each seat's net, stored
when the game was) into the rules core's ledger
(knockcore.evening, the same code as the device's Evening screen): each player's net, games and
wins, and the fewest payments. add_money(res, stake) adds money to it. parse_stake(text, option)
reads money per point as the device keeps it: whole hundredths of the currency unit, from 0 to
PER_POINT_MAX (1,000) a point.
"""

from __future__ import annotations

import decimal
from typing import Any

from knockbox.usererror import UserError
from knockcore import evening as ledger
from knockfw.settings import STAKE_MAX

# money per point at most, in whole units of the currency (knockfw.settings' STAKE_MAX is the same
# limit in hundredths, as the device keeps a stake)
PER_POINT_MAX = STAKE_MAX // 100
STAKE_HELP = (
    "money per point, in whole hundredths from 0.01 to %d (e.g. 0.05, 0.1, 1)" % PER_POINT_MAX
)


def parse_stake(text: str, option: str = "--per-point", off: bool = False) -> int:
    """Money per point typed by the user (e.g. "0.05") as hundredths (int), or UserError naming
    the option; 0 only with off (the device's stake: 0 switches the money off)."""
    try:
        v = decimal.Decimal(text.strip())
    except (decimal.InvalidOperation, AttributeError):
        v = None
    if v is None or not v.is_finite() or v < 0:
        raise UserError("%s: %r is not an amount like 0.05" % (option, text))
    if v > PER_POINT_MAX:
        raise UserError("%s: %s is more than %d per point" % (option, text, PER_POINT_MAX))
    h = v * 100
    if h != h.to_integral_value():
        raise UserError(
            "%s: %s is not a whole number of hundredths (0.01, 0.05, 1: the device "
            "and the laptop count money in hundredths)" % (option, text)
        )
    if not h and not off:
        raise UserError(
            "%s: %s is no money: give an amount from 0.01 to %d per point"
            % (option, text, PER_POINT_MAX)
        )
    return int(h)


def tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The ledger over the finished games: {"games": [ids], "skipped": [[id, status]], "net":
    {name: points}, "players": [{player, net, games, wins}] (biggest winner first), "payments":
    [[payer, payee, points]] (the fewest, biggest first)}."""
    led: dict = {}
    used, skipped = [], []
    for r in rows:
        if r["status"] != "over":
            skipped.append([r["id"], r["status"]])
            continue
        ledger.add(
            led,
            {
                "over": True,
                "players": r["players"],
                "winners": r["winners"],
                "net": [c["net"] for c in r["seats"]],
            },
        )
        used.append(r["id"])
    return {
        "games": used,
        "skipped": skipped,
        "net": {n: led[n][0] for n in led},
        "players": [
            {"player": n, "net": v, "games": g, "wins": w} for n, v, g, w in ledger.rows(led)
        ],
        "payments": ledger.payments(led),
    }


def add_money(res: dict[str, Any], stake: int) -> None:
    """Money (text, to the cent) for each payment, appended to it, and for each player; the
    same integer arithmetic as the device's, so every sum adds up exactly."""
    for p in res["payments"]:
        p.append(ledger.money(p[2] * stake))
    for p in res["players"]:
        p["money"] = ledger.money(p["net"] * stake)
    res["stake"] = stake
    res["per_point"] = ledger.money(stake)
    res["money"] = {n: ledger.money(v * stake) for n, v in res["net"].items()}
