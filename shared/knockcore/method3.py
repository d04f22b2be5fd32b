# Method 3: all three play; the deal passes to the left (the next seat clockwise).
from knockcore import hand
from knockcore import pairs
from knockcore.errors import GameError


def begin(st: "hand.State", start: dict) -> None:
    d = pairs.start_seat(start, "dealer")
    if len(start) != 1:
        raise GameError("start: method 3 takes dealer only")
    st.dealer = d
    st.active = [0, 1, 2]
    st.idle = None


def score(v: int, rules: dict) -> tuple[str, list[int], list[int]]:
    """(kind, winners, points) of a knock or gin among three; points may include the penalty."""
    k = hand.seat(v)
    c: list[int] = hand.counts(v)  # type: ignore[assignment]  # all three play: no None
    o1, o2 = (k + 1) % 3, (k + 2) % 3
    points = [0, 0, 0]
    if hand.kind(v) == hand.GIN:
        # Gin: both opponents' counts plus the bonus; no lay-offs, no undercut.
        points[k] = c[o1] + c[o2] + rules["m3_gin_bonus"]
        return "gin", [k], points
    low = min(c)
    if c[k] < c[o1] and c[k] < c[o2]:
        winners = [k]
    elif c[o1] == c[o2] == low:
        # Both opponents lowest with the same count: both win the difference to the knocker.
        winners = sorted([o1, o2])
        for w in winners:
            points[w] = c[k] - low
    else:
        # One opponent is lowest, or ties the knocker at the lowest: he wins instead.
        winners = [o1 if c[o1] == low else o2]
    if len(winners) == 1:
        w = winners[0]
        others = c[0] + c[1] + c[2] - c[w]  # the other two counts together
        if rules["m3_formula"] == "literal":
            points[w] = others - c[w]
        else:
            points[w] = others - 2 * c[w]
    if winners[0] == k:
        return "knock", winners, points
    if low == c[k] or rules["m3_penalty_on"] == "tie_or_undercut":
        points[k] -= rules["m3_tie_penalty"]
    return "undercut", winners, points


def play(st: "hand.State", v: int, rules: dict) -> tuple[str, list[int], list[int]]:
    kind, winners, points = score(v, rules)
    for i in range(3):
        st.totals[i] += points[i]
    for w in winners:
        st.boxes[w] += 1
    st.dealer = (st.dealer + 1) % 3
    t = st.totals
    top = max(t)
    if top >= rules["m3_target"] and t.count(top) == 1:
        st.over = True
        st.winners = [t.index(top)]
    return kind, winners, points


def finish(st: "hand.State", rules: dict) -> tuple[list[int], list[list[int]]]:
    w = st.winners[0]
    final = [st.totals[i] + rules["box_bonus"] * st.boxes[i] for i in range(3)]
    final[w] += rules["game_bonus"]
    owe = pairs.ledger(final)
    for i in range(3):
        if i != w and st.boxes[i] == 0:
            owe[i][w] += rules["shutout_extra"]
    return final, owe
