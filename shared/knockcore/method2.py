# Method 2, "Chouette": one player in the box plays every hand against a partnership whose
# captain plays first; a partner who loses gives his place to the other.
# Both partners show the partnership's score and boxes.
from knockcore import pairs
from knockcore.errors import GameError


def begin(st: "pairs.hand.State", start: dict) -> None:
    box = pairs.start_seat(start, "box")
    cap = pairs.start_seat(start, "captain")
    if box == cap:
        raise GameError("start: the box player cannot be captain")
    if len(start) != 2:
        raise GameError("start: method 2 takes box and captain")
    st.box = box
    st.captain = cap
    st.dealer = cap  # the captain deals the first hand
    st.active = sorted([box, cap])
    st.idle = 3 - box - cap


def partners(st: "pairs.hand.State") -> list[int]:
    return [s for s in (0, 1, 2) if s != st.box]


def play(st: "pairs.hand.State", v: int, rules: dict) -> tuple[str, list[int], list[int]]:
    kind, w, loser, pts = pairs.score(v, st.active, rules)
    side = [st.box] if w == st.box else partners(st)
    points = [0, 0, 0]
    for s in side:
        points[s] = pts
        st.totals[s] += pts
        st.boxes[s] += 1
    st.last_idle = st.idle
    if w == st.box:
        # The partner who lost sits out and the other comes in; the newcomer deals.
        st.active = sorted([st.box, st.idle])
        st.dealer = st.idle
        st.idle = loser
    else:
        # The partnership's player won and stays; the losing side (the box) deals.
        st.dealer = st.box
    if st.totals[w] >= rules["target"]:
        st.over = True
        st.winners = side
    return kind, side, points


def finish(st: "pairs.hand.State", rules: dict) -> tuple[list[int], list[list[int]]]:
    # Each side adds its box bonus; the winner the game bonus, and the shutout extra when the
    # losing side won no hand. The payment V is the difference; the box settles with each partner.
    team = partners(st)[0]
    final = [st.totals[i] + rules["box_bonus"] * st.boxes[i] for i in range(3)]
    w = st.winners[0]
    lose = team if w == st.box else st.box
    bonus = rules["game_bonus"]
    if st.boxes[lose] == 0:
        bonus += rules["shutout_extra"]
    for s in st.winners:
        final[s] += bonus
    v = final[w] - final[lose]
    owe = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for p in partners(st):
        if w == st.box:
            owe[p][st.box] = v
        else:
            owe[st.box][p] = v
    return final, owe


def next_game(st: "pairs.hand.State") -> dict:
    """The next card of the original cut goes into the box: the captain, then the third."""
    cut = [st.box, st.captain, 3 - st.box - st.captain]
    return {"box": cut[1], "captain": cut[2]}
