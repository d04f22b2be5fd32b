# Starting a game (knockfw.ui activity "newgame"): the method, the three players, then the roles
# the cut gave them (RULES.md 2-4). Opened with "new" (from the menu: the method first) or "next"
# (the next game of the same method and players: the roles; method 2 needs none, the next card of
# the cut goes into the box).
#   method:   Up/Down the method; A next, B/C back to the scoreboard
#   players:  A/B/C the seat to change (again: the next seat), Up/Down its name from the roster;
#             held: back to the method
#   roles:    A/B/C answers the question on the screen; Up/Down back
from knockfw import screens as S
from knockfw.buttons import SEATS, STEPS
from knockfw.strings import t

# The questions asked per method: (start key, question)
ROLES = {
    1: (("idle", "cut_lowest"), ("dealer", "cut_next_lowest")),
    2: (("box", "cut_highest_box"), ("captain", "cut_second")),
    3: (("dealer", "cut_highest_deals"),),
}


class Activity:
    mode = "method"

    def start(self, ui, game, settings, arg):
        self.method = game.method if game is not None else 3
        self.roster = []
        self.players = ["", "", ""]
        self.cursor = 0  # the seat whose name Up/Down change
        self.step = 0  # the role question asked
        self.roles = {}  # the answers so far: the game record's start
        if arg != "next":
            return None
        self._begin_players(game, settings)  # the roster, for going back to the names
        if game.method == 2:
            return self._new_game(ui, settings, game.standings(False).get("next_game"))
        self.mode = "roles"
        return None

    def handle(self, ui, name, how, game, settings):
        if self.mode == "method":
            return self._method(ui, name, how, game, settings)
        if self.mode == "players":
            return self._players(name, how)
        return self._roles(ui, name, how, settings)

    def _method(self, ui, name, how, game, settings):
        if name in STEPS:
            self.method = (self.method + (0 if name == "down" else -2)) % 3 + 1
            return None
        if how != "press":
            return None
        if name != "a":
            return ui.home()
        self._begin_players(game, settings)
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
        self.players = last[:] if last else roster[:3]
        self.cursor = 0
        self.mode = "players"

    def _players(self, name, how):
        if name in STEPS:
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
        if how == "long":
            self.mode = "method"
        elif seat != self.cursor:
            self.cursor = seat
        elif seat < 2:
            self.cursor += 1
        else:
            self.step = 0
            self.roles = {}
            self.mode = "roles"
        return None

    def _roles(self, ui, name, how, settings):
        if name in STEPS:
            if self.step:
                self.step -= 1
                self.roles = {}
            else:
                self.mode = "players"
            return None
        if how != "press":
            return None
        seat = SEATS.index(name)
        if seat in [self.roles[k] for k in self.roles]:
            return None
        steps = ROLES[self.method]
        self.roles[steps[self.step][0]] = seat
        self.step += 1
        if self.step < len(steps):
            return None
        return self._new_game(ui, settings, self.roles)

    def _new_game(self, ui, settings, start):
        rec = {
            "method": self.method,
            "players": self.players[:],
            "start": dict(start),
            "rules": dict(settings["rules"]),
        }
        ui.home()
        return [{"t": "game", "rec": rec}]

    def draw(self, fb, game, settings, sync):
        if self.mode == "method":
            S.listing(fb, t("new_game"), 3, self.method - 1, lambda i: t("method%d" % (i + 1)))
            return t("hint_method")
        if self.mode == "players":
            S.seats(fb, t("players"), self.players, self.cursor)
            return t("hint_players")
        labels = ["", "", ""]
        for key, _q in ROLES[self.method]:
            if key in self.roles:
                labels[self.roles[key]] = t("role_" + key)
        S.seats(fb, t(ROLES[self.method][self.step][1]), self.players, None, labels)
        return t("hint_roles")
