"""`knockbox settle`: add up several games of one evening and say who pays whom.

Which games: the ids given; else those first synced on or after --since DATE; else the games
first synced on the latest day in the history (one evening's play). Only finished games count;
unfinished ones are named and left out. Each player's net (the rules' settlement points, by
name across games) is summed, and the debts are paid off with few payments (at most one
fewer than there are players): the biggest debtor pays the biggest creditor, again and again.
With --per-point AMOUNT the points are also shown as money: each payment to the cent, and each
player's money as the sum of their payments (so it adds up to zero).
"""
import decimal

from knockbox.commands.common import (add_db_option, date_arg, game_id, open_history, standings,
                                      write_json, write_table)
from knockbox.errors import UserError

HELP = "who pays whom over several games of one evening"
DESCRIPTION = __doc__.split("\n", 1)[1]
RAW_DESCRIPTION = True
MAX_RATE = 1000000      # money per point at most (so every sum fits Decimal's 28 digits)
_CENT = decimal.Decimal("0.01")


def arguments(p):
    p.add_argument("games", nargs="*", metavar="GAME", help="game ids (default: the last day's)")
    p.add_argument("--since", metavar="DATE", help="games first synced on or after DATE")
    p.add_argument("--per-point", metavar="AMOUNT", help="money per point, e.g. 0.05")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(p)


def evening(h, ids, since):
    """The games to settle: the ids, else those synced since, else the latest day's."""
    if ids:
        return h.games(ids)
    if since:
        return h.games(since=since)
    rows = h.games()
    if not rows:
        return []
    day = max(r["synced"][:10] for r in rows)
    return [r for r in rows if r["synced"][:10] == day]


def tally(rows):
    """Each player's net over the finished games and the payments that clear them:
    {"games": [ids], "skipped": [(id, status)], "net": {name: points}, "payments":
    [[payer, payee, points]]}. (The rules core's knockcore.two settles one game's pairs.)"""
    net, used, skipped = {}, [], []
    for r in rows:
        if r["status"] != "over":
            skipped.append((r["id"], r["status"]))
            continue
        st = standings(r)
        used.append(r["id"])
        for seat, name in enumerate(r["players"]):
            net[name] = net.get(name, 0) + st["net"][seat]
    return {"games": used, "skipped": skipped, "net": net, "payments": clearing_payments(net)}


def clearing_payments(net):
    """[[payer, payee, points]] that bring every net to zero: the biggest debtor pays the
    biggest creditor, again and again (at most one fewer payment than players)."""
    owe = sorted(([-v, n] for n, v in net.items() if v < 0), key=lambda x: (-x[0], x[1]))
    get = sorted(([v, n] for n, v in net.items() if v > 0), key=lambda x: (-x[0], x[1]))
    out = []
    i = j = 0
    while i < len(owe) and j < len(get):
        amount = min(owe[i][0], get[j][0])
        out.append([owe[i][1], get[j][1], amount])
        owe[i][0] -= amount
        get[j][0] -= amount
        if owe[i][0] == 0:
            i += 1
        if get[j][0] == 0:
            j += 1
    return out


def rate_arg(text):
    """A --per-point AMOUNT as a Decimal, or UserError."""
    try:
        v = decimal.Decimal(text)
    except decimal.InvalidOperation:
        v = None
    if v is None or not v.is_finite() or v < 0:
        raise UserError("--per-point: %r is not an amount like 0.05" % (text,))
    if v > MAX_RATE:
        raise UserError("--per-point: %s is more than %d per point" % (text, MAX_RATE))
    return v


def add_money(res, rate):
    """Money for each payment (points * rate, to the cent), and each player's money as the sum
    of their payments: the players' money adds up to zero and agrees with the payments."""
    try:
        for p in res["payments"]:
            p.append(decimal.Decimal(p[2] * rate).quantize(_CENT))
    except decimal.InvalidOperation:
        raise UserError("--per-point: %s makes amounts too large to show" % (rate,))
    bal = {n: decimal.Decimal(0).quantize(_CENT) for n in res["net"]}
    for p in res["payments"]:
        bal[p[0]] -= p[3]
        bal[p[1]] += p[3]
        p[3] = str(p[3])
    res["per_point"] = str(rate)
    res["money"] = {n: str(v) for n, v in bal.items()}


def run(args, out, err):
    rate = rate_arg(args.per_point) if args.per_point is not None else None
    h = open_history(args)
    ids = [game_id(g) for g in args.games]
    if ids and args.since:
        raise UserError("give game ids or --since, not both")
    res = tally(evening(h, ids, date_arg(args.since)))
    if rate is not None:
        add_money(res, rate)
    if args.json:
        res["skipped"] = [list(x) for x in res["skipped"]]
        write_json(out, res, sort_keys=True)
        return 0
    if not res["games"]:
        msg = "no finished games to settle"
        if res["skipped"]:
            msg += " (unfinished: %s)" % ", ".join("%d" % i for i, _ in res["skipped"])
        raise UserError(msg)
    out.write("games %s\n" % ", ".join(str(i) for i in res["games"]))
    for i, status in res["skipped"]:
        out.write("left out: game %d (%s)\n" % (i, status))
    table = [("player", "points") + (("money",) if rate is not None else ())]
    for name in sorted(res["net"], key=lambda n: (-res["net"][n], n)):
        table.append((name, "%+d" % res["net"][name])
                     + ((res["money"][name],) if rate is not None else ()))
    out.write("\n")
    write_table(out, table, right=(1, 2))
    out.write("\n")
    if not res["payments"]:
        out.write("all square: nobody pays\n")
    for p in res["payments"]:
        out.write("%s pays %s %d points%s\n" % (p[0], p[1], p[2],
                                                 " = %s" % p[3] if rate is not None else ""))
    return 0
