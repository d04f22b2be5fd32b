"""Random but valid games, for property tests and benchmarks (no dependency on hypothesis)."""

from knockcore.game import Game


def random_hand(g, rnd):
    """A random valid hand for the seats in play in game g."""
    r = rnd.random()
    if r < 0.06:
        return {"void": True}
    active = g.active
    s = rnd.choice(active)
    counts = [None, None, None]
    for i in active:
        counts[i] = rnd.randint(0, 98) if rnd.random() < 0.8 else rnd.randint(0, 12)
    if r < 0.25:
        counts[s] = 0
        return {"gin": s, "counts": counts}
    counts[s] = rnd.randint(0, g.rules["knock_limit"])
    # A knock at 0 is gin (knockcore.hand): the device records it so, and so does this.
    return {"gin" if counts[s] == 0 else "knock": s, "counts": counts}


def random_start(method, rnd):
    seats = [0, 1, 2]
    rnd.shuffle(seats)
    if method == 1:
        return {"idle": seats[0], "dealer": seats[1]}
    if method == 2:
        return {"box": seats[0], "captain": seats[1]}
    return {"dealer": seats[0]}


def random_game(rnd, method=None, max_hands=60, rules=None, until_over=False):
    method = method or rnd.choice((1, 2, 3))
    g = Game(method, ["Ann", "Bob", "Cy"], random_start(method, rnd), rules or {"preset": "seed"})
    n = 0
    while not g.over and (until_over or n < max_hands):
        g.add(random_hand(g, rnd))
        n += 1
    return g
