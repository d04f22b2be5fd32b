# The device's screens as a state machine: a button event changes the UI state and may ask the
# app to do something (record a hand, undo, start a game...). No I/O here: the app runs the
# effects through the store (which persists them) and draws the state with knockfw.screens.
#
# Buttons: A, B, C are the three seats (0, 1, 2); Up and Down step counts and move in lists.
# Events are (name, kind): kind "press", "long" (A/B/C held) or "repeat" (Up/Down held).
#
# Recording a hand from the scoreboard:
#   A/B/C          that player knocked       (hold: went gin)
#   Up/Down        change the count of the highlighted player (held: faster)
#   A/B/C          highlight that player's count; the highlighted player's button again: next
#   after the last count, the confirm screen shows what will be scored: A save, B back, C cancel
from micropython import const

SCORE = const(0)
COUNTS = const(1)
CONFIRM = const(2)
MENU = const(3)
PICK = const(4)
WHO = const(5)
METHOD = const(6)
PLAYERS = const(7)
ROLES = const(8)
SETTINGS = const(9)
ERASE = const(10)

SEATS = ("a", "b", "c")
_MAX_COUNT = const(98)

# Menu entries (keys of knockfw.strings).
M_VOID = "void_hand"
M_UNDO = "undo_last"
M_EDIT = "edit_hand"
M_NEXT = "next_game"
M_NEW = "new_game"
M_SETTINGS = "settings"
M_BACK = "back"

# Settings: (key, rules option or None, values). The first value is the default.
SETTING_ITEMS = (
    ("preset", "preset", ("seed", "classic")),
    ("target", "target", (100, 150, 200, 250, 300, 50)),
    ("m3_target", "m3_target", (200, 250, 300, 400, 500, 100, 150)),
    ("m1_extra", "m1_extra", ("idle", "shutout")),
    ("m3_formula", "m3_formula", ("literal", "pairwise")),
    ("m3_penalty_on", "m3_penalty_on", ("tie", "tie_or_undercut")),
    ("language", None, ("en", "ru")),
    ("sleep", None, (300, 600, 1800, 120, 60)),
)

# Roles asked after a new game's players, from the cut (RULES.md 2-4): (start key, question).
ROLE_STEPS = (
    (),
    (("idle", "cut_lowest"), ("dealer", "cut_next_lowest")),
    (("box", "cut_highest_box"), ("captain", "cut_second")),
    (("dealer", "cut_highest_deals"),),
)


class UI:
    def __init__(self):
        self.mode = SCORE
        self.msg = ""          # a one-line note shown until the next button press
        self.sel = 0           # selection in lists (menu, hands, settings, methods)
        self.items: list = []
        self.kind = "knock"    # the hand being recorded: "knock" or "gin"
        self.who = 0
        self.counts: list = [0, 0, 0]
        self.fields = []       # seats whose counts are asked, in order
        self.cursor = 0
        self.edit = None       # index of the hand being corrected, or None for a new hand
        self.hand: dict = {}   # the hand on the confirm screen
        self.action = None     # what the confirm screen will do: "hand", "edit" or "undo"
        self.repeats = 0
        self.method = 3
        self.players = ["", "", ""]
        self.roster = []
        self.start = {}
        self.step = 0
        self.erase_games = 0

    # ---- entry points ---------------------------------------------------------------------

    def handle(self, ev, game, settings):
        """Apply one button event; return a list of effects for the app (maybe empty)."""
        name, kind = ev
        if kind != "repeat":
            self.msg = ""
            self.repeats = 0
        h = _HANDLERS[self.mode]
        return h(self, name, kind, game, settings) or []

    def home(self):
        self.mode = SCORE
        self.sel = 0

    def ask_erase(self, n_games):
        self.erase_games = n_games
        self.mode = ERASE

    def screen_group(self):
        """Which screen family is showing: a change of family gets a full panel refresh."""
        return self.mode if self.mode in (SCORE, MENU, SETTINGS, ERASE) else COUNTS

    # ---- scoreboard -----------------------------------------------------------------------

    def _score(self, name, kind, game, settings):
        if game is None:
            if name in SEATS or kind == "press":
                return self._open_menu(game)
            return None
        if game.over:
            if name == "a" and kind == "press":
                return self._next_game(game, settings)
            if name in ("up", "down"):
                return self._open_menu(game)
            return None
        if name in ("up", "down"):
            if kind == "press":
                return self._open_menu(game)
            return None
        seat = SEATS.index(name)
        if seat not in game.active:
            self.msg = "sits_out_x|" + game.players[seat]
            return None
        self.edit = None
        self._begin_hand("gin" if kind == "long" else "knock", seat, game, None)
        return None

    def _begin_hand(self, kind, seat, game, old):
        self.kind = kind
        self.who = seat
        others = [s for s in ((seat + 1) % 3, (seat + 2) % 3) if s in game.active]
        self.fields = others if kind == "gin" else [seat] + others
        self.counts = [None, None, None]
        for s in game.active:
            c = old["counts"][s] if old and old.get("counts") else 0
            self.counts[s] = c if c is not None else 0
        self.counts[seat] = 0 if kind == "gin" else min(self.counts[seat], game.rules["knock_limit"])
        self.cursor = 0
        self.mode = COUNTS

    # ---- counts ---------------------------------------------------------------------------

    def _counts(self, name, kind, game, settings):
        if name in ("up", "down"):
            if kind == "repeat":
                self.repeats += 1
            step = 1 if self.repeats < 4 else 5
            seat = self.fields[self.cursor]
            top = game.rules["knock_limit"] if (seat == self.who and self.kind == "knock") else _MAX_COUNT
            c = self.counts[seat] + (step if name == "up" else -step)
            self.counts[seat] = 0 if c < 0 else (top if c > top else c)
            return None
        seat = SEATS.index(name)
        if kind == "long":
            self._back_from_hand()
            return None
        if seat not in self.fields:
            return None
        if seat != self.fields[self.cursor]:
            self.cursor = self.fields.index(seat)
            return None
        if self.cursor + 1 < len(self.fields):
            self.cursor += 1
            return None
        hand = {self.kind: self.who, "counts": self.counts[:]}
        return self._confirm(hand, "edit" if self.edit is not None else "hand")

    def _back_from_hand(self):
        if self.edit is not None:
            self.mode = PICK
        else:
            self.home()

    def _confirm(self, hand, action):
        self.hand = hand
        self.action = action
        self.mode = CONFIRM
        return None

    def _confirming(self, name, kind, game, settings):
        if kind != "press":
            return None
        if name == "a":
            self.home()
            if self.action == "undo":
                return [("undo",)]
            if self.action == "edit":
                return [("edit", self.edit, self.hand)]
            return [("hand", self.hand)]
        if name == "b":
            if self.action == "undo" or "void" in self.hand:
                self._open_menu(game)
            else:
                self.mode = COUNTS
        if name == "c":
            self.home()
        return None

    # ---- menu -----------------------------------------------------------------------------

    def menu_items(self, game):
        items = []
        if game is not None:
            if not game.over:
                items.append(M_VOID)
            if game.hands:
                items.append(M_UNDO)
                items.append(M_EDIT)
            if game.over:
                items.append(M_NEXT)
        items += [M_NEW, M_SETTINGS, M_BACK]
        return items

    def _open_menu(self, game):
        self.items = self.menu_items(game)
        self.sel = 0
        self.mode = MENU
        return None

    def _move(self, name, n):
        if n:
            self.sel = (self.sel + (1 if name == "down" else -1)) % n

    def _menu(self, name, kind, game, settings):
        if name in ("up", "down"):
            self._move(name, len(self.items))
            return None
        if kind != "press":
            return None
        if name != "a":
            self.home()
            return None
        item = self.items[self.sel]
        if item == M_VOID:
            self.edit = None
            return self._confirm({"void": True}, "hand")
        if item == M_UNDO:
            self.hand = game.hand(len(game.hands) - 1)
            self.action = "undo"
            self.mode = CONFIRM
            return None
        if item == M_EDIT:
            self.sel = len(game.hands) - 1
            self.mode = PICK
            return None
        if item == M_NEXT:
            return self._next_game(game, settings)
        if item == M_NEW:
            self.method = game.method if game is not None else 3
            self.mode = METHOD
            return None
        if item == M_SETTINGS:
            self.sel = 0
            self.mode = SETTINGS
            return None
        self.home()
        return None

    # ---- correcting an earlier hand --------------------------------------------------------

    def _pick(self, name, kind, game, settings):
        if name in ("up", "down"):
            self._move(name, len(game.hands))
            return None
        if kind != "press":
            return None
        self.edit = self.sel
        if name == "a":
            self.mode = WHO
        elif name == "b":
            return self._confirm({"void": True}, "edit")
        else:
            self._open_menu(game)
        return None

    def _who(self, name, kind, game, settings):
        if name in ("up", "down"):
            self.mode = PICK
            return None
        seat = SEATS.index(name)
        # The seats in play for that hand, as the hands before it left them.
        g = _Seats(game.rules, game.active_at(self.edit))
        if seat not in g.active:
            self.msg = "sits_out_x|" + game.players[seat]
            return None
        self._begin_hand("gin" if kind == "long" else "knock", seat, g, game.hand(self.edit))
        return None

    # ---- new game -------------------------------------------------------------------------

    def _next_game(self, game, settings):
        self._begin_players(game, settings)   # the roster, for going back to the names
        self.method = game.method
        if game.method == 2:
            st = game.standings(False).get("next_game")
            return self._new_game(settings, st)
        self.step = 0
        self.start = {}
        self.mode = ROLES
        return None

    def _methods(self, name, kind, game, settings):
        if name in ("up", "down"):
            self.method = (self.method + (0 if name == "down" else -2)) % 3 + 1
            return None
        if kind != "press":
            return None
        if name == "a":
            self._begin_players(game, settings)
        else:
            self.home()
        return None

    def _begin_players(self, game, settings):
        roster = list(settings.get("roster") or ())
        last = game.players if game is not None else []
        for p in last:
            if p not in roster:
                roster.append(p)
        while len(roster) < 3:
            roster.append("Player %d" % (len(roster) + 1))
        self.roster = roster
        self.players = (last[:] if last else roster[:3])
        self.cursor = 0
        self.mode = PLAYERS

    def _players(self, name, kind, game, settings):
        if name in ("up", "down"):
            seat = self.cursor
            n = len(self.roster)
            i = self.roster.index(self.players[seat]) if self.players[seat] in self.roster else 0
            d = 1 if name == "down" else -1
            for _ in range(n):
                i = (i + d) % n
                if self.roster[i] not in self.players:
                    self.players[seat] = self.roster[i]
                    break
            return None
        seat = SEATS.index(name)
        if kind == "long":
            self.mode = METHOD
            return None
        if seat != self.cursor:
            self.cursor = seat
        elif seat < 2:
            self.cursor += 1
        else:
            self.step = 0
            self.start = {}
            self.mode = ROLES
        return None

    def role_question(self):
        return ROLE_STEPS[self.method][self.step][1]

    def _roles(self, name, kind, game, settings):
        if name in ("up", "down"):
            if self.step:
                self.step -= 1
                self.start = {}
            else:
                self.mode = PLAYERS
            return None
        if kind != "press":
            return None
        seat = SEATS.index(name)
        if seat in [self.start[k] for k in self.start]:
            return None
        steps = ROLE_STEPS[self.method]
        self.start[steps[self.step][0]] = seat
        self.step += 1
        if self.step < len(steps):
            return None
        return self._new_game(settings, self.start)

    def _new_game(self, settings, start):
        rec = {"method": self.method, "players": self.players[:], "start": dict(start),
               "rules": dict(settings.get("rules") or {"preset": "seed"})}
        self.home()
        return [("new", rec)]

    # ---- settings -------------------------------------------------------------------------

    def _settings(self, name, kind, game, settings):
        if name in ("up", "down"):
            self._move(name, len(SETTING_ITEMS))
            return None
        if kind != "press":
            return None
        if name == "c":
            self.home()
            return None
        key, opt, values = SETTING_ITEMS[self.sel]
        cur = setting_value(settings, self.sel)
        i = values.index(cur) if cur in values else 0
        v = values[(i + (1 if name == "a" else -1)) % len(values)]
        if opt is None:
            return [("settings", {"lang" if key == "language" else "sleep_s": v})]
        rules = dict(settings.get("rules") or {"preset": "seed"})
        rules[opt] = v
        return [("settings", {"rules": rules})]

    # ---- erase (asked by the laptop over the serial link) -----------------------------------

    def _erase(self, name, kind, game, settings):
        # Erasing takes a long press of A: a press that began before the question appeared
        # (its release comes as a short press) must not erase anything.
        if (name, kind) == ("a", "long"):
            self.home()
            return [("erase", True)]
        if (name, kind) == ("c", "press"):
            self.home()
            return [("erase", False)]
        return None


def setting_value(settings, i):
    key, opt, values = SETTING_ITEMS[i]
    if opt is None:
        return settings.get("lang" if key == "language" else "sleep_s", values[0])
    rules = settings.get("rules") or {}
    if opt in rules:
        return rules[opt]
    if opt == "preset":
        return "seed"
    # The option's default under the chosen preset.
    from knockcore.rules import defaults
    return defaults(rules.get("preset", "seed"))[opt]


class _Seats:
    # The seats in play for an earlier hand, for _begin_hand() when correcting it.
    def __init__(self, rules, active):
        self.rules = rules
        self.active = active


_HANDLERS = (UI._score, UI._counts, UI._confirming, UI._menu, UI._pick, UI._who, UI._methods,
             UI._players, UI._roles, UI._settings, UI._erase)
