# Method 1, "Cutthroat": two play, the loser sits out; the idle player comes in and deals.
from knockcore import pairs
from knockcore.errors import GameError


def begin(st: "pairs.hand.State", start: dict) -> None:
    idle = pairs.start_seat(start, "idle")
    dealer = pairs.start_seat(start, "dealer")
    if idle == dealer:
        raise GameError("start: the idle player cannot deal")
    if len(start) != 2:
        raise GameError("start: method 1 takes idle and dealer")
    st.idle = idle
    st.dealer = dealer
    st.active = [s for s in (0, 1, 2) if s != idle]


def play(st: "pairs.hand.State", v: int, rules: dict) -> tuple[str, list[int], list[int]]:
    kind, w, loser, pts = pairs.score(v, st.active, rules)
    points = [0, 0, 0]
    points[w] = pts
    st.totals[w] += pts
    st.boxes[w] += 1
    st.last_idle = st.idle
    # The loser sits out; the idle player comes in and deals to the winner.
    st.dealer = st.idle
    st.active = sorted([w, st.idle])
    st.idle = loser
    if st.totals[w] >= rules["target"]:
        st.over = True
        st.winners = [w]
    return kind, [w], points


def finish(st: "pairs.hand.State", rules: dict) -> tuple[list[int], list[list[int]]]:
    w = st.winners[0]
    final = [st.totals[i] + rules["box_bonus"] * st.boxes[i] for i in range(3)]
    final[w] += rules["game_bonus"]
    owe = pairs.ledger(final)
    extra = rules["shutout_extra"]
    for i in range(3):
        if i == w:
            continue
        if rules["m1_extra"] == "idle":
            pays = i == st.last_idle
        else:
            pays = st.boxes[i] == 0
        if pays:
            owe[i][w] += extra
    return final, owe
