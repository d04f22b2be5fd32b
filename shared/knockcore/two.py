# Two-player gin scoring (RULES.md section 1): the base of methods 1 and 2.
from knockcore import hand


def score(v, active, rules):
    """Score a knock or gin between the two active seats: (kind, winner, loser, points)."""
    k = hand.seat(v)
    o = active[0] if active[1] == k else active[1]
    c = hand.counts(v)
    if hand.kind(v) == hand.GIN:
        # Gin: the opponent's whole count plus the bonus; no lay-offs, no undercut.
        return "gin", k, o, c[o] + rules["gin_bonus"]
    if c[o] <= c[k]:
        # Undercut (a tie is an undercut): the opponent scores the difference plus the bonus.
        return "undercut", o, k, c[k] - c[o] + rules["undercut_bonus"]
    return "knock", k, o, c[o] - c[k]


def pairwise_net(final):
    """Each pair settles the difference of their final totals: net(i) = 2F(i) - F(j) - F(k)."""
    s = final[0] + final[1] + final[2]
    return [3 * f - s for f in final]
