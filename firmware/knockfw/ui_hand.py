# Entering a hand (knockfw.ui activity "hand"): the counts, then the confirm screen, which shows
# what will be scored and the new totals before anything is recorded. The same confirm screen
# takes a void hand and taking the last hand back; an earlier hand is entered again the same way
# (opened by knockfw.ui_fix with its number).
#
#   counts:   Up/Down  the highlighted player's count (held: faster, then 5 at a time)
#             A/B/C    highlight that player's count; the highlighted player's button again: next
#             held     back (to the scoreboard, or to the list of hands when correcting one)
#   confirm:  A save, B back, C cancel
#
# Opened with arg = (what, seat, edit, active): what is "knock" or "gin" (seat: who), "void" or
# "undo"; edit is the index of the hand being corrected (None: a new hand); active the seats
# that played it (None: the seats in play now).
from knockcore.errors import say
from knockcore.hand import MAX_COUNT
from knockfw import screens as S
from knockfw import text
from knockfw.fonts import large, medium, small
from knockfw.strings import t
from knockfw.ui import SEATS, STEPS


class Activity:
    mode = "counts"

    def __init__(self):
        self.ending = "knock"  # how the hand ended: "knock" or "gin"
        self.who = 0  # the seat that knocked or went gin
        self.counts: list = [0, 0, 0]  # per seat; None for a seat sitting out
        self.fields: list = []  # seats whose counts are asked, in order
        self.cursor = 0  # index in fields of the count Up/Down change
        self.repeats = 0  # repeats of the Up/Down held now
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
        gin = what == "gin"
        self.ending = what
        self.who = seat
        others = [s for s in ((seat + 1) % 3, (seat + 2) % 3) if s in active]
        self.fields = others if gin else [seat] + others
        self.counts = [None, None, None]
        for s in active:
            c = old["counts"][s] if old and old.get("counts") else 0
            self.counts[s] = c if c is not None else 0
        self.counts[seat] = 0 if gin else min(self.counts[seat], game.rules["knock_limit"])
        return None

    def handle(self, ui, name, how, game, settings):
        if how != "repeat":
            self.repeats = 0
        if self.mode == "counts":
            return self._step(ui, name, how, game, settings)
        return self._confirming(ui, name, how, game, settings)

    # ---- counts

    def _step(self, ui, name, how, game, settings):
        if name in STEPS:
            if how == "repeat":
                self.repeats += 1
            step = 1 if self.repeats < 4 else 5
            seat = self.fields[self.cursor]
            knocker = seat == self.who and self.ending == "knock"
            top = game.rules["knock_limit"] if knocker else MAX_COUNT
            c = self.counts[seat] + (step if name == "up" else -step)
            self.counts[seat] = 0 if c < 0 else (top if c > top else c)
            return None
        seat = SEATS.index(name)
        if how == "long":
            if self.edit is not None:
                return ui.open("fix", game, settings, self.edit)
            return ui.home()
        if seat not in self.fields:
            return None
        if seat != self.fields[self.cursor]:
            self.cursor = self.fields.index(seat)
            return None
        if self.cursor + 1 < len(self.fields):
            self.cursor += 1
            return None
        # A knock at 0 is gin (knockcore.hand scores it so): recorded and confirmed as gin.
        ending = "gin" if self.counts[self.who] == 0 else self.ending
        return self._confirm(game, {ending: self.who, "counts": self.counts[:]})

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
        res = t("totals_change") if self.result is None else _scores(self.result, players)
        text.draw(fb, text.fit(res, medium, S.W - 8), 4, 44, medium)
        for s in range(3):
            x = s * (S.COL + 1)
            S.center(fb, "%s %d" % (players[s], self.after[s]), x, 74, S.COL, small)
            if self.after[s] != self.before[s]:
                S.center(fb, "(%s)" % S.signed(self.after[s] - self.before[s]), x, 88, S.COL, small)
        return t("hint_confirm")


def _scores(result, players):
    """What a hand scores: 'Ann +45', 'Bob undercuts +27 · Cy −20'."""
    kind, winners, points = result
    if kind == "void":
        return t("void_result")
    parts = []
    for w in winners:
        name = t("x_undercuts") % players[w] if kind == "undercut" else players[w]
        parts.append(name + " " + S.signed(points[w]))
    for s in range(3):
        if points[s] < 0:
            parts.append("%s %s" % (players[s], S.signed(points[s])))
    return " · ".join(parts)
