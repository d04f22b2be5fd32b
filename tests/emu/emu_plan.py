"""The button presses a player makes to play a game, planned closed-loop on the firmware's own UI
state machine (knockfw.ui, pure Python: it runs on CPython as on the device) with the rules core
(knockcore) keeping the game, as the app does. The same presses are then made on the emulated
Pico and under the MicroPython unix port (tests/mp_scripts/app_driver.py, "keys" actions), and
what each device recorded and drew is compared.

    p = Planner(settings={"rules": {...}})
    p.new_game(3, ["Ann", "Bob", "Cy"], {"dealer": 2})
    p.hand({"knock": 0, "counts": [3, 20, 9]})
    p.presses      # [("a", "press"), ("up", "press"), ("a", "long"), ...]
    p.records()    # the game records the device should now hold

Counts are keyed blind as bench/entry_plan.py plans them (each press a fixed effect: taps and
long presses, whatever the panel shows), so the plan does not depend on how fast the firmware runs.
"""

import copy

import entry_plan  # bench/entry_plan.py (bench/ is on sys.path: tests/conftest.py)
from knockcore import events
from knockfw import ui as U

SEATS = ("a", "b", "c")
ROLE_KEYS = (None, ("idle", "dealer"), ("box", "captain"), ("dealer",))
DEFAULT_SETTINGS = {
    "lang": "en",
    "rules": {"preset": "seed"},
    "sleep_s": 30,
    "roster": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
}


class PlanError(AssertionError):
    pass


class Planner:
    def __init__(self, settings=None):
        self.settings = copy.deepcopy(DEFAULT_SETTINGS)
        if settings:
            self.settings.update(copy.deepcopy(settings))
        self.ui = U.UI()
        self.games = []  # knockcore games, in the order they were started
        self.evenings = []  # a new evening was started when this many games had been started
        self.presses = []

    # ---- one button event, as the app handles it
    @property
    def game(self):
        return self.games[-1] if self.games else None

    def ev(self, name, kind="press"):
        self.presses.append((name, kind))
        for e in self.ui.handle((name, kind), self.game, self.settings) or []:
            if type(e) is dict:  # a change to the games: its event, as the store records it
                if e["t"] == "evening":
                    self.evenings.append(len(self.games))
                elif e["t"] == "game":
                    self.games.append(events.apply(None, e))
                else:
                    events.apply(self.game, e)
            elif e[0] == "settings":
                self.settings.update(e[1])
            else:
                raise PlanError("effect %r not planned for" % (e,))

    def _until(self, cond, name, limit=40):
        n = 0
        while not cond():
            if n >= limit:
                raise PlanError("%s never reached the state wanted" % name)
            self.ev(name)
            n += 1

    # ---- what a player does, looking at the panel
    def open_menu(self):
        if self.ui.mode != "menu":
            self.ev("up" if self.game is not None else "a")
        if self.ui.mode != "menu":
            raise PlanError("the menu did not open")

    def choose(self, item):
        self.open_menu()
        self._until(lambda: self.ui.act.items[self.ui.act.sel] == item, "down")
        self.ev("a")

    def new_game(self, method, names, start):
        self.choose("new_game")
        self._until(lambda: self.ui.act.method == method, "down")
        self.ev("a")
        for seat in range(3):
            if self.ui.act.cursor != seat:
                self.ev(SEATS[seat])
            self._until(lambda seat=seat: self.ui.act.players[seat] == names[seat], "down", 20)
            self.ev(SEATS[seat])
        for key in ROLE_KEYS[method]:
            self.ev(SEATS[start[key]])
        g = self.game
        if g is None or g.method != method or g.players != list(names) or g.start != start:
            raise PlanError("the new game is not the one planned")

    def hand(self, h):
        n = len(self.game.hands)
        if "void" in h:
            self.choose("void_hand")
            self.ev("a")
        else:
            kind = "knock" if "knock" in h else "gin"
            who = h[kind]
            self.ev(SEATS[who], "long" if kind == "gin" else "press")
            for seat in list(self.ui.act.fields):
                if self.ui.act.fields[self.ui.act.cursor] != seat:
                    raise PlanError("the counts are not asked in the order planned")
                for name, how in entry_plan.count(self.ui.act, self.game, h["counts"][seat]):
                    for e in entry_plan.events(name, how):
                        self.ev(*e)
                    if how == "long" and name in ("up", "down"):  # one press: (name, "long")
                        del self.presses[-2:]
                        self.presses.append((name, "long"))
                self.ev(SEATS[seat])
            if self.ui.mode != "confirm":
                raise PlanError("no confirm screen after the counts")
            self.ev("a")
        if len(self.game.hands) != n + 1 or self.game.record()["hands"][-1] != h:
            raise PlanError("hand %r was not recorded as planned" % (h,))

    def records(self):
        return [g.record() for g in self.games]

    # ---- the same presses for the unix port's app_driver ("keys": a capital = long press)
    def driver_keys(self, presses=None):
        out = []
        for name, kind in self.presses if presses is None else presses:
            out.append(name.upper() if kind == "long" else name)
        return ["keys", out]
