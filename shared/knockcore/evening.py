# The evening: a ledger of the finished games of one evening, by player name, and the fewest
# payments that settle it. The device's Evening screen and the laptop's `knockbox settle` and
# `knockbox report` all use this module, so they agree to the point and to the cent.
#
# A ledger is a dict {name: [net, games, wins]}; add() takes a finished game's standings
# (Game.standings(hands=False) is enough). Money is integer: a stake in hundredths of a currency
# unit per point (1 = 0.01, 100 = 1.00), so a payment of P points costs P * stake hundredths.
#
# Fewest payments: players whose balances split into k disjoint groups that each sum to zero
# can be settled with n - k payments (each group of m players with m - 1), and no fewer. For up
# to 8 players with a balance the most groups are found exactly, over the subsets; beyond that
# the biggest debtor pays the biggest creditor until all are square (at most n - 1 payments).
from micropython import const

_EXACT = const(8)


def add(led: dict, st: dict) -> bool:
    """Add a game's standings; a game not over adds nothing (returns False)."""
    if not st["over"]:
        return False
    for s in range(3):
        name = st["players"][s]
        r = led.get(name)
        if r is None:
            r = led[name] = [0, 0, 0]
        r[0] += st["net"][s]
        r[1] += 1
        if s in st["winners"]:
            r[2] += 1
    return True


def rows(led: dict) -> list:
    """[[name, net, games, wins]], the biggest winner first (ties by name)."""
    return sorted([[n] + led[n] for n in led], key=lambda r: (-r[1], r[0]))


def payments(led: dict) -> list:
    """The fewest [payer, payee, points] that bring every net to zero, the biggest first."""
    ps = sorted([[n, led[n][0]] for n in led if led[n][0]])
    out = _greedy(ps) if len(ps) > _EXACT else _exact(ps)
    out.sort(key=lambda p: (-p[2], p[0], p[1]))
    return out


def _exact(ps: list) -> list:
    # most[m]: the most zero-sum prefixes an order of the players in m has, which for m summing
    # to zero is the most zero-sum groups m splits into
    n = len(ps)
    full = (1 << n) - 1
    tot = [0] * (full + 1)
    most = [0] * (full + 1)
    for m in range(1, full + 1):
        b = j = 0
        for i in range(n):
            if m >> i & 1:
                j = i
                if most[m ^ 1 << i] > b:
                    b = most[m ^ 1 << i]
        tot[m] = tot[m ^ 1 << j] + ps[j][1]
        most[m] = b + 1 if tot[m] == 0 else b
    out = []
    m = full
    while m:
        # the first zero-sum group holding m's lowest player that leaves the most groups
        low = m & -m
        s = low
        while s & m != s or tot[s] or most[m ^ s] != most[m] - 1:
            s += low << 1  # m's submasks holding low are its odd multiples
        out.extend(_greedy([ps[i] for i in range(n) if s >> i & 1]))
        m ^= s
    return out


def _greedy(ps: list) -> list:
    # the biggest debtor pays the biggest creditor (ties: the first name) until all are square
    out = []
    while True:
        d = c = -1
        for i in range(len(ps)):
            v = ps[i][1]
            if v < 0 and (d < 0 or v < ps[d][1]):
                d = i
            if v > 0 and (c < 0 or v > ps[c][1]):
                c = i
        if d < 0:
            break
        x = min(-ps[d][1], ps[c][1])
        out.append([ps[d][0], ps[c][0], x])
        ps[d][1] += x
        ps[c][1] -= x
    return out


def money(v: int) -> str:
    """Hundredths as text: -1234 -> "-12.34"."""
    return "%s%d.%02d" % ("-" if v < 0 else "", abs(v) // 100, abs(v) % 100)
