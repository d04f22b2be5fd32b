# The menu (knockfw.ui activity "menu"), opened by Up/Down from the scoreboard: Up/Down move,
# A opens the entry, B/C go back to the scoreboard. The entries on offer depend on the game.
from micropython import const

from knockfw import screens as S
from knockfw.buttons import STEPS
from knockfw.strings import t

_ALWAYS = const(0)
_PLAYING = const(1)  # a game that is not over
_HANDS = const(2)  # a game with hands
_OVER = const(3)  # a game that is over

# (string key, when it is offered, the activity it opens, what with), in the menu's order
ENTRIES = (
    ("void_hand", _PLAYING, "hand", ("void", None, None, None)),
    ("undo_last", _HANDS, "hand", ("undo", None, None, None)),
    ("edit_hand", _HANDS, "fix", None),
    ("next_game", _OVER, "newgame", "next"),
    ("new_game", _ALWAYS, "newgame", "new"),
    ("settings", _ALWAYS, "settings", None),
    ("evening", _ALWAYS, "evening", None),
    ("new_evening", _ALWAYS, "evening", "new"),
    ("back", _ALWAYS, "score", None),
)


def _offered(when, game):
    if when == _ALWAYS:
        return True
    if game is None:
        return False
    if when == _PLAYING:
        return not game.over
    if when == _HANDS:
        return len(game.hands) > 0
    return game.over


class Activity:
    mode = "menu"

    def start(self, ui, game, settings, arg):
        self.items = [e[0] for e in ENTRIES if _offered(e[1], game)]  # string keys
        self.sel = 0
        return None

    def handle(self, ui, name, how, game, settings):
        if name in STEPS:
            self.sel = (self.sel + (1 if name == "down" else -1)) % len(self.items)
            return None
        if how != "press":
            return None
        if name != "a":
            return ui.home()
        key = self.items[self.sel]
        for e in ENTRIES:
            if e[0] == key:
                return ui.open(e[2], game, settings, e[3])
        return None

    def draw(self, fb, game, settings, sync):
        items = self.items
        S.listing(fb, t("menu"), len(items), self.sel, lambda i: t(items[i]))
        return t("hint_menu")
