# What the buttons mean and what the panel shows, split by what the player is doing: each
# activity (the scoreboard, entering a hand, the menu, ...) is one module of knockfw with a class
# Activity, named in ACTIVITIES. No I/O here: a button event may give effects for the app (a hand
# to record, a game to start, ...), and knockfw.screens draws the activity showing.
#
# Buttons: A, B, C are the three seats (0, 1, 2); Up and Down step counts and move in lists.
# Events are (name, how): how is "press", "long" (A/B/C held) or "repeat" (Up/Down held).
#
# An activity has:
#   mode                                    the screen it shows now (a name: "counts", ...)
#   start(ui, game, settings, arg)          when opened (arg: what it was opened with)
#   handle(ui, name, how, game, settings)   a button event
#   draw(fb, game, settings, sync)          draws its screen, returns the hint line's text
# start and handle return effects (or None); an activity moves on with ui.open(name, game,
# settings, arg) or ui.home() and returns what they return.
# Effects: a change to the games is its event (knockcore.events) less what the store fills in
# (the game number; an evening's first game), recorded as it is by Store.record:
#   {"t":"game","rec":REC} (a game record without hands), {"t":"hand","h":HAND}, {"t":"undo"},
#   {"t":"edit","i":I,"h":HAND}, {"t":"evening"} (start a new evening);
# the others are tuples: ("settings", partial settings), ("erase", yes).
#
# When an activity's module is imported: the scoreboard's (HOME) with the UI, which the app makes
# before it loads the journal (the first screen), and kept; any other when it is opened, gc
# first (its bytecode needs room in one piece), and forgotten again when it is left, so the
# live heap holds only the scoreboard and the activity showing.
import gc
import sys

HOME = "score"
# name: its module in knockfw
ACTIVITIES = {
    "score": "ui_score",  # the scoreboard, the game over, no game yet
    "hand": "ui_hand",  # entering a hand: counts, confirm
    "menu": "ui_menu",
    "fix": "ui_fix",  # correcting an earlier hand: pick it, who knocked
    "newgame": "ui_newgame",  # starting a game: method, players, roles
    "settings": "ui_settings",
    "evening": "ui_evening",  # the evening's ledger; "New evening?"
    "erase": "ui_erase",  # asked by the laptop over the serial link
}


class UI:
    def __init__(self):
        self.note = None  # (string key, argument): shown until the next button press
        self.store: object = None  # the app's store: the Evening screen asks it for the
        # evening's games (Store.evening_games), reads no journal
        self._lazy = None  # the module of the activity showing, if it is forgotten when left
        self.home()  # self.act: the activity showing

    @property
    def mode(self):
        """The screen showing: "score", "counts", "confirm", "menu", "pick", "who", "method",
        "players", "roles", "settings", "erase", "evening" or "new_evening"."""
        return self.act.mode

    def handle(self, ev, game, settings):
        """Apply one button event; return a list of effects for the app (maybe empty)."""
        name, how = ev
        if how != "repeat":
            self.note = None
        return self.act.handle(self, name, how, game, settings) or []

    def open(self, name, game=None, settings=None, arg=None):
        """Show activity `name`, started with arg; returns its effects."""
        mod = ACTIVITIES[name]
        lazy = name != HOME
        act = _load(mod, lazy).Activity()  # (HOME: first on a young heap, in one piece: no gc)
        old = self._lazy
        self.act = act
        self._lazy = mod if lazy else None
        if old is not None and old != mod:
            _forget(old)
        return act.start(self, game, settings, arg)

    def home(self):
        self.open(HOME)

    def say(self, key, arg=None):
        """Show a note: the string of key (with arg filled in), or a message as it is."""
        self.note = (key, arg)

    def ask_erase(self, n_games):
        self.open("erase", None, None, n_games)


def _load(mod, collect=True):
    m = sys.modules.get("knockfw." + mod)  # (much quicker than __import__ on the Pico)
    if m is None:
        if collect:
            gc.collect()
        m = __import__("knockfw." + mod, None, None, ("Activity",))
    return m


def _forget(mod):
    sys.modules.pop("knockfw." + mod, None)
    pkg = sys.modules.get("knockfw")
    if pkg is not None and hasattr(pkg, mod):
        delattr(pkg, mod)
