# Entering a hand (knockfw.ui activity "hand"): the counts, then the confirm screen, which shows
# what will be scored and the new totals before anything is recorded. The same confirm screen
# takes a void hand and taking the last hand back; an earlier hand is entered again the same way
# (opened by knockfw.ui_fix with its number).
#
#   counts:   the highlighted count (the knocker's first, then clockwise), keyed blind: each
#             press has one effect, whatever the panel is drawing and however long a button is
#             held past a long press (README "Playing"; bench/entry_plan.py plans with it)
#             Up / Down                  +1 / -1      held: +5 / -5 (its first repeat: +4 more)
#             another seat's button      +10          held: -10
#             the highlighted seat's     the next count (after the last: confirm)
#                                        held: the count before (from the first: back to the
#                                        scoreboard, or to the list of hands when correcting)
#             A new hand's counts start at the knock limit for the knocker, 0 for the others
#             and GIN_START for the others after a gin (their whole counts: most are 40-60).
#   confirm:  A save, B back, C cancel
#
# Opened with arg = (what, seat, edit, active): what is "knock" or "gin" (seat: who), "void" or
# "undo"; edit is the index of the hand being corrected (None: a new hand); active the seats
# that played it (None: the seats in play now).
from knockcore.errors import say
from knockcore.hand import MAX_COUNT
from knockfw import screens as S
from knockfw import text
from knockfw.buttons import SEATS, STEPS
from knockfw.fonts import large, medium, small
from knockfw.strings import t

GIN_START = 50  # the others' counts after a gin (a knock's start at 0, the knocker's at the limit)
FIVE = 5  # Up / Down held
TEN = 10  # another seat's button (held: minus)


class Activity:
    mode = "counts"

    def __init__(self):
        self.ending = "knock"  # how the hand ended: "knock" or "gin"
        self.who = 0  # the seat that knocked or went gin
        self.counts: list = [0, 0, 0]  # per seat; None for a seat sitting out
        self.fields: list = []  # seats whose counts are asked, in order
        self.cursor = 0  # index in fields of the count the keys change
        self.held = None  # (button, seat) of the Up/Down press whose first repeat adds 4 more
        self.edit = None  # index of the hand being corrected, or None for a new hand
        self.hand: dict = {}  # the hand on the confirm screen
        self.undo = False  # the confirm screen takes the last hand back
        self.before: list = []  # the confirm screen's preview: totals before and after,
        self.after: list = []
        self.result = None  # (kind, winners, points) a new hand scores (None for an edit)
        self.error = None  # why the hand cannot be saved (the preview's error)

    def start(self, ui, game, settings, arg):
        what, seat, self.edit, active = arg
        if what == "undo":
            return self._confirm(game, game.hand(len(game.hands) - 1), True)
        if what == "void":
            return self._confirm(game, {"void": True})
        if active is None:
            active = game.active
        old = game.hand(self.edit) if self.edit is not None else None
        was = old.get("counts") if old else None  # the counts being corrected
        gin = what == "gin"
        self.ending = what
        self.who = seat
        others = [s for s in ((seat + 1) % 3, (seat + 2) % 3) if s in active]
        self.fields = others if gin else [seat] + others
        self.counts = [None, None, None]
        limit = game.rules["knock_limit"]
        for s in active:
            c = was[s] if was else None
            self.counts[s] = c if c is not None else (GIN_START if gin else 0)
        self.counts[seat] = 0 if gin else (min(self.counts[seat], limit) if was else limit)
        return None

    def handle(self, ui, name, how, game, settings):
        if self.mode == "counts":
            return self._step(ui, name, how, game, settings)
        return self._confirming(ui, name, how, game, settings)

    # ---- counts

    def _step(self, ui, name, how, game, settings):
        seat = self.fields[self.cursor]
        if name in STEPS:  # +-1; held, its first repeat +-4 more (+-5 in all), later ones nothing
            d = 1
            if how == "repeat":
                if self.held != (name, seat):
                    return None
                d = FIVE - 1
            self.held = None if how == "repeat" else (name, seat)
            return self._add(game, seat, d if name == "up" else -d)
        s = SEATS.index(name)
        if s != seat:  # another seat's button: +10, held -10
            return self._add(game, seat, -TEN if how == "long" else TEN)
        if how == "long":  # held: the count before, or back from the first
            if self.cursor:
                self.cursor -= 1
                return None
            if self.edit is not None:
                return ui.open("fix", game, settings, self.edit)
            return ui.home()
        if self.cursor + 1 < len(self.fields):
            self.cursor += 1
            return None
        # A knock at 0 is gin (knockcore.hand scores it so): recorded and confirmed as gin.
        ending = "gin" if self.counts[self.who] == 0 else self.ending
        return self._confirm(game, {ending: self.who, "counts": self.counts[:]})

    def _add(self, game, seat, d):
        top = (
            game.rules["knock_limit"] if seat == self.who and self.ending == "knock" else MAX_COUNT
        )
        c = self.counts[seat] + d
        self.counts[seat] = 0 if c < 0 else (top if c > top else c)

    # ---- confirm

    def _confirm(self, game, hand, undo=False):
        """Show the confirm screen for hand, with what it scores worked out now, once."""
        self.mode = "confirm"
        self.hand = hand
        self.undo = undo
        self.error = None
        self.after = []
        if undo:
            return None
        self.before = game.totals[:]
        try:
            if self.edit is not None:
                g = game.copy()
                g.replace(self.edit, hand)
                self.result = None
                self.after = g.totals[:]
            else:
                self.result = game.preview(hand)
                points = self.result[2]
                self.after = [self.before[i] + points[i] for i in range(3)]
        except ValueError as e:  # the rules core refuses it: why, in the language
            self.error = say(e, t) if hasattr(e, "template") else str(e)
        return None

    def _confirming(self, ui, name, how, game, settings):
        if how != "press":
            return None
        if name == "a":
            ui.home()
            if self.undo:
                return [{"t": "undo"}]
            if self.edit is not None:
                return [{"t": "edit", "i": self.edit, "h": self.hand}]
            return [{"t": "hand", "h": self.hand}]
        if name == "b":
            if self.undo or "void" in self.hand:
                return ui.open("menu", game, settings)
            self.mode = "counts"
        elif name == "c":
            ui.home()
        return None

    # ---- the screens

    def draw(self, fb, game, settings, sync):
        if self.mode == "counts":
            return self._draw_counts(fb, game)
        return self._draw_confirm(fb, game)

    def _title(self, s):
        return s if self.edit is None else (t("hand_n") % (self.edit + 1)) + ": " + s

    def _draw_counts(self, fb, game):
        knock = self.ending == "knock"
        who = game.players[self.who]
        S.bar(fb, self._title((t("x_knocks") if knock else t("x_gin")) % who), t("count"))
        S.cols(fb, S.BAR + 2, S.FOOT - 4)
        cur = self.fields[self.cursor]
        col = S.COL
        for s in range(3):
            x = s * (col + 1)
            S.center(fb, game.players[s], x, S.BAR + 4, col, medium)
            c = self.counts[s]
            if s == cur:
                fb.fill_rect(x + 6, 36, col - 12, 40, 1)
            if c is None:
                S.center(fb, "—", x, 40, col, medium)
            elif s == self.who and not knock:
                S.center(fb, t("gin"), x, 48, col, medium)
            else:
                S.center(fb, str(c), x, 40, col, large, 0 if s == cur else 1)
            if s == self.who and knock:
                S.label(fb, t("gin" if c == 0 else "knock"), x, 84, False)  # 0: gin
            # what the seat's button does now (the buttons are under the columns)
            S.center(fb, t("key_next" if s == cur else "key_ten"), x, 98, col, small)
        return t("hint_count")

    def _draw_confirm(self, fb, game):
        players = game.players
        line = text.fit(S.describe(self.hand, players), medium, S.W - 8)
        if self.undo:
            S.bar(fb, t("undo_last"))
            text.draw(fb, line, 4, 30, medium)
            S.center(fb, t("undo_q"), 0, 60, S.W, medium)
            return t("hint_confirm")
        S.bar(fb, self._title(t("confirm")))
        text.draw(fb, line, 4, 22, medium)
        if self.error is not None:
            text.draw(fb, t("cannot_save"), 4, 50, medium)
            S.note(fb, (self.error, None))
            return None
        res = (
            t("totals_change") if self.result is None else _scores(self.result, players, self.hand)
        )
        text.draw(fb, text.fit(res, medium, S.W - 8), 4, 44, medium)
        for s in range(3):
            x = s * (S.COL + 1)
            S.center(fb, "%s %d" % (players[s], self.after[s]), x, 74, S.COL, small)
            if self.after[s] != self.before[s]:
                S.center(fb, "(%s)" % S.signed(self.after[s] - self.before[s]), x, 88, S.COL, small)
        return t("hint_confirm")


def _scores(result, players, hand):
    """What a hand scores: 'Ann +45', 'Bob undercuts +27 · Cy −20'; in method 3 an opponent who
    ties the knocker's count wins, and that is a tie ('Bob ties +27 · Cy −20'), as the rules
    say it (in methods 1 and 2 a tie is an undercut like any lower count)."""
    kind, winners, points = result
    if kind == "void":
        return t("void_result")
    parts = []
    c = hand.get("counts")
    for w in winners:
        name = players[w]
        if kind == "undercut":
            tie = None not in c and c[w] == c[hand["knock"]]
            name = t("x_ties" if tie else "x_undercuts") % name
        parts.append(name + " " + S.signed(points[w]))
    for s in range(3):
        if points[s] < 0:
            parts.append("%s %s" % (players[s], S.signed(points[s])))
    return " · ".join(parts)
