# "Erase all games?" (knockfw.ui activity "erase"), asked when the laptop wants the device erased
# (knockbox sync --erase, through app.request_erase). Opened with the number of games on the
# device. Erasing takes a long press of A: a press that began before the question appeared (its
# release comes as a short press) must not erase anything. C keeps the games.
from knockfw import screens as S
from knockfw.fonts import medium
from knockfw.strings import t


class Activity:
    mode = "erase"

    def start(self, ui, game, settings, arg):
        self.games = arg
        return None

    def handle(self, ui, name, how, game, settings):
        if name == "a" and how == "long":
            ui.home()
            return [("erase", True)]
        if name == "c" and how == "press":
            ui.home()
            return [("erase", False)]
        return None

    def draw(self, fb, game, settings, sync):
        S.bar(fb, t("erase_all"))
        S.center(fb, t("erase_n") % self.games, 0, 34, S.W, medium)
        S.center(fb, t("hold_a"), 0, 60, S.W, medium)
        return t("hint_erase")
