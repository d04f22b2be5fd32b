# Correcting an earlier hand (knockfw.ui activity "fix", from the menu's "Edit hand"):
#   pick:  Up/Down choose the hand; A: enter it again (who knocked?), B: make it void, C: back
#   who:   A/B/C who knocked (held: went gin), then the counts and the confirm screen as for a
#          new hand (knockfw.ui_hand); Up/Down: back to the list
# Opened with the index of the hand to show selected (None: the last one).
from knockfw import screens as S
from knockfw.buttons import SEATS, STEPS
from knockfw.strings import t


class Activity:
    mode = "pick"

    def start(self, ui, game, settings, arg):
        self.sel = len(game.hands) - 1 if arg is None else arg
        return None

    def handle(self, ui, name, how, game, settings):
        if self.mode == "who":
            return self._who(ui, name, how, game, settings)
        if name in STEPS:
            self.sel = (self.sel + (1 if name == "down" else -1)) % len(game.hands)
            return None
        if how != "press":
            return None
        if name == "a":
            self.mode = "who"
            return None
        if name == "b":
            return ui.open("hand", game, settings, ("void", None, self.sel, None))
        return ui.open("menu", game, settings)

    def _who(self, ui, name, how, game, settings):
        if name in STEPS:
            self.mode = "pick"
            return None
        seat = SEATS.index(name)
        active = game.active_at(self.sel)  # the seats in play for that hand
        if seat not in active:
            ui.say("sits_out_x", game.players[seat])
            return None
        ending = "gin" if how == "long" else "knock"
        return ui.open("hand", game, settings, (ending, seat, self.sel, active))

    def draw(self, fb, game, settings, sync):
        if self.mode == "who":
            S.seats(fb, t("who_knocked_n") % (self.sel + 1), game.players)
            return t("hint_who")
        players = game.players
        S.listing(
            fb,
            t("edit_hand"),
            len(game.hands),
            self.sel,
            lambda i: "%d. %s" % (i + 1, S.describe(game.hand(i), players)),
        )
        return t("hint_pick")
