# A game is its start plus an append-only list of hands; standings are a fold over the hands.
# Undo drops the last hand, an edit replaces one; both fold again from the start.
# Every method is imported with the game, not when first needed: a method imported later,
# during the device's journal replay, once found no room on a fragmented heap.
from knockcore import FORMAT
from knockcore import hand
from knockcore import rules as _rules
from knockcore import method1, method2, method3
from knockcore import pairs
from knockcore.errors import GameError

_METHODS = (method1, method2, method3)
_RECORD_KEYS = ("format", "method", "players", "start", "rules", "hands", "meta")


_FIELDS = (
    "totals",
    "boxes",
    "dealer",
    "active",
    "idle",
    "last_idle",
    "box",
    "captain",
    "over",
    "winners",
)


class _State:
    # The fold's accumulator: everything derived from the start and the hands so far (_FIELDS).
    def __init__(self) -> None:
        self.totals = [0, 0, 0]
        self.boxes = [0, 0, 0]
        self.dealer = 0
        self.active = [0, 1, 2]
        # seats, or None where the method has none (method 2's box and captain; its idle seat)
        self.idle: "hand.Any" = None
        self.last_idle: "hand.Any" = None
        self.box: "hand.Any" = None
        self.captain: "hand.Any" = None
        self.over = False
        self.winners: list[int] = []

    def copy(self) -> "_State":
        c = _State()
        for k in ("dealer", "idle", "last_idle", "box", "captain", "over"):
            setattr(c, k, getattr(self, k))
        c.totals = self.totals[:]
        c.boxes = self.boxes[:]
        c.active = self.active[:]
        c.winners = self.winners[:]
        return c


def _check_players(players: object) -> None:
    if not isinstance(players, list) or len(players) != 3:
        raise GameError("players: need exactly three")
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise GameError("players: each name must be a non-empty string")
    if players[0] == players[1] or players[0] == players[2] or players[1] == players[2]:
        raise GameError("players: names must differ")


class Game:
    def __init__(
        self, method: int, players: list[str], start: dict, rules: "dict | None" = None
    ) -> None:
        if type(method) is not int or method not in (1, 2, 3):
            raise GameError("unknown method %r (use 1, 2 or 3)", method)
        _check_players(players)
        if not isinstance(start, dict):
            raise GameError("start: must be an object")
        self.method = method
        self.players = list(players)
        self.start = dict(start)
        self.rules = _rules.resolve(rules)
        self._m = _METHODS[method - 1]
        self.hands: list[int] = []  # packed (knockcore.hand)
        self.closed = False  # ended unfinished (events.END): takes no more hands
        self._st = self._begin()

    def _begin(self) -> _State:
        st = _State()
        self._m.begin(st, self.start)
        return st

    # The running standings, for the scoreboard.
    @property
    def over(self) -> bool:
        return self._st.over

    @property
    def totals(self) -> list[int]:
        return self._st.totals

    @property
    def boxes(self) -> list[int]:
        return self._st.boxes

    @property
    def dealer(self) -> int:
        return self._st.dealer

    @property
    def active(self) -> list[int]:
        return self._st.active

    @property
    def idle(self) -> "int | None":
        return self._st.idle  # type: ignore[no-any-return]

    @property
    def winners(self) -> list[int]:
        return self._st.winners

    def _play(self, st: _State, h: object, n: int) -> tuple[int, str, list[int], list[int]]:
        """Validate hand number n against state st and apply it; (packed, kind, winners, points)."""
        if st.over:
            raise GameError("the game is over", hand=n)
        v = hand.parse(h, n, st.active, self.players, self.rules["knock_limit"])
        if hand.kind(v) == hand.VOID:
            # Nobody wins; the same players play again and the same dealer deals.
            return v, "void", [], [0, 0, 0]
        kind, winners, points = self._m.play(st, v, self.rules)
        return v, kind, winners, points

    def preview(self, h: dict) -> tuple[str, list[int], list[int]]:
        """What this hand would score, without recording it: (kind, winners, points)."""
        st = self._st.copy()
        r = self._play(st, h, len(self.hands) + 1)
        return r[1], r[2], r[3]

    def add(self, h: dict) -> None:
        # _play checks everything before it changes anything (hand.parse raises first; the
        # methods' play() cannot fail), so a refused hand leaves the state as it was.
        v = self._play(self._st, h, len(self.hands) + 1)[0]
        self.hands.append(v)

    def _refold(self, packed: list[int]) -> _State:
        st = self._begin()
        for i in range(len(packed)):
            self._play(st, hand.to_dict(packed[i]), i + 1)
        return st

    def undo(self) -> "dict | None":
        """Drop the last hand; returns it (as a hand record), or None when there is none."""
        if not self.hands:
            return None
        last = self.hands[-1]
        self._st = self._refold(self.hands[:-1])
        self.hands.pop()
        return hand.to_dict(last)

    def replace(self, i: int, h: dict) -> None:
        """Edit hand i (0-based) and fold again; refused, changing nothing, if any hand breaks."""
        if type(i) is not int or i < 0 or i >= len(self.hands):
            raise GameError("no hand %r to edit", i + 1 if type(i) is int else i)
        st = self._begin()
        packed = self.hands[:]
        for j in range(i):
            self._play(st, hand.to_dict(packed[j]), j + 1)
        packed[i] = self._play(st, h, i + 1)[0]
        for j in range(i + 1, len(packed)):
            self._play(st, hand.to_dict(packed[j]), j + 1)
        self.hands = packed
        self._st = st

    def snapshot(self) -> list:
        """The game as JSON values, the fold's state included: restore() rebuilds it without
        playing its hands again (the device's boot checkpoint, knockfw.store)."""
        st = self._st
        return [
            self.method,
            self.players,
            self.start,
            _rules.overrides(self.rules),
            self.hands,
            self.closed,
            [getattr(st, k) for k in _FIELDS],
        ]

    def copy(self) -> "Game":
        """An independent game with the same hands (to try an edit without making it)."""
        g = Game(self.method, self.players, self.start, self.rules)
        g.hands = self.hands[:]
        g.closed = self.closed
        g._st = self._st.copy()
        return g

    def active_at(self, i: int) -> list[int]:
        """The seats that played hand i (0-based), as the hands before it left them."""
        st = self._begin()
        for j in range(i):
            self._play(st, hand.to_dict(self.hands[j]), j + 1)
        return st.active

    def hand(self, i: int) -> dict:
        return hand.to_dict(self.hands[i])

    def record(self) -> dict:
        return {
            "format": FORMAT,
            "method": self.method,
            "players": self.players[:],
            "start": dict(self.start),
            "rules": _rules.overrides(self.rules),
            "hands": [hand.to_dict(v) for v in self.hands],
        }

    def standings(self, hands: bool = True) -> dict:
        """The standings contract. hands=False leaves out the per-hand list (the device's
        screens do not need it, and 300 entries cost a 64-bit heap a great deal)."""
        if hands:
            st = self._begin()
            per_hand = []
            for i in range(len(self.hands)):
                dealt = st.dealer
                r = self._play(st, hand.to_dict(self.hands[i]), i + 1)
                per_hand.append(
                    {"hand": i + 1, "kind": r[1], "winners": r[2], "points": r[3], "dealer": dealt}
                )
        else:
            st = self._st.copy()
            per_hand = None
        out = {
            "method": self.method,
            "players": self.players[:],
            "rules": dict(self.rules),
            "over": st.over,
            "totals": st.totals[:],
            "boxes": st.boxes[:],
            "hands": per_hand,
        }
        if per_hand is None:
            del out["hands"]
        if st.over:
            final, owe = self._m.finish(st, self.rules)
            out["winners"] = st.winners[:]
            out["final"] = final
            out["net"], out["payments"] = pairs.settle(owe)
            if self.method == 2:
                out["next_game"] = method2.next_game(st)
        else:
            out["next"] = {"dealer": st.dealer, "active": st.active[:], "idle": st.idle}
        return out


def restore(snap: list) -> Game:
    """The game a snapshot() was taken of. The start is checked as a new game's is and the
    shapes of the rest, not the hands' play: a snapshot is only taken of a game that played them.
    Raises GameError (the start), ValueError or TypeError for one that does not fit; these are
    not the player's messages (the store falls back to replaying the journal)."""
    method, players, start, rules, hands, closed, state = snap
    g = Game(method, players, start, rules)
    for v in hands:
        if type(v) is not int:
            raise ValueError("snapshot: hands")
    if len(state) != len(_FIELDS) or not (closed is True or closed is False):
        raise ValueError("snapshot: state")
    st = g._st
    for i in range(len(_FIELDS)):
        setattr(st, _FIELDS[i], state[i])
    if len(st.totals) != 3 or len(st.boxes) != 3 or not isinstance(st.active, list):
        raise ValueError("snapshot: state")
    g.hands = list(hands)
    g.closed = closed
    return g


def from_record(rec: object) -> Game:
    """Build a Game from a game record (format knockbox-game/1); hands are checked in order."""
    if not isinstance(rec, dict):
        raise GameError("game record: must be an object")
    for k in rec:
        if k not in _RECORD_KEYS:
            raise GameError("game record: unknown field %r", k)
    if rec.get("format", FORMAT) != FORMAT:
        raise GameError("game record: format must be %r", FORMAT)
    for k in ("method", "players", "start"):
        if k not in rec:
            raise GameError("game record: missing %r", k)
    g = Game(rec["method"], rec["players"], rec["start"], rec.get("rules"))
    hands = rec.get("hands", [])
    if not isinstance(hands, list):
        raise GameError("game record: hands must be a list")
    for h in hands:
        g.add(h)
    return g
