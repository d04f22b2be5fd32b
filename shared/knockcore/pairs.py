# What happens between a pair of players: a hand of two-player gin scored (RULES.md section 1:
# the base of methods 1 and 2), and a finished game settled pair by pair (every method: each pair
# of players settles the difference of their final totals, the methods' extras on top).
from knockcore import hand
from knockcore.errors import GameError


def start_seat(start: dict, key: str) -> int:
    """A seat named in a game's start: 0, 1 or 2."""
    s = start.get(key)
    if type(s) is not int or s < 0 or s > 2:
        raise GameError("start: %s must be a seat 0, 1 or 2", key)
    return s


def score(v: int, active: list[int], rules: dict) -> tuple[str, int, int, int]:
    """Score a knock or gin between the two active seats: (kind, winner, loser, points)."""
    k = hand.seat(v)
    o = active[0] if active[1] == k else active[1]
    c: list[int] = hand.counts(v)  # type: ignore[assignment]  # k and o play: no None
    if hand.kind(v) == hand.GIN:
        # Gin: the opponent's whole count plus the bonus; no lay-offs, no undercut.
        return "gin", k, o, c[o] + rules["gin_bonus"]
    if c[o] <= c[k]:
        # Undercut (a tie is an undercut): the opponent scores the difference plus the bonus.
        return "undercut", o, k, c[k] - c[o] + rules["undercut_bonus"]
    return "knock", k, o, c[o] - c[k]


def ledger(final: list[int]) -> list[list[int]]:
    """Who owes whom: owe[i][j] is what i pays j. Each pair settles the difference of their
    final totals (the lower pays the higher), so net(i) = 2F(i) - F(j) - F(k)."""
    owe = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for i in range(3):
        for j in range(3):
            if final[j] > final[i]:
                owe[i][j] = final[j] - final[i]
    return owe


def settle(owe: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """(net per seat, payments [[payer, payee, amount], ...]) with each pair's debts offset."""
    net = [0, 0, 0]
    pays = []
    for i in range(3):
        for j in range(i + 1, 3):
            x = owe[i][j] - owe[j][i]
            if x:
                p, q = (i, j) if x > 0 else (j, i)
                pays.append([p, q, abs(x)])
                net[p] -= abs(x)
                net[q] += abs(x)
    return net, pays
