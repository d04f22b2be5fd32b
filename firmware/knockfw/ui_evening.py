# The evening (knockfw.ui activity "evening", from the menu or B on the game-over screen): each
# player's net over the evening's finished games, games and wins; the fewest payments that settle
# it; the game on the table apart, "so far". Opened with "new" it asks "New evening?" instead
# (mode "new_evening"): A starts one (effect {"t":"evening"}), B back to the menu, C cancels.
#
#   evening:      Up/Down  the pages: the players (three a page), the settlement, the game on
#                          the table (its totals now); A/B/C  back to the scoreboard
#
# An evening is the games from the store's newest {"t":"evening","next":G} record on (gid >= G;
# every game when there is none), summed with the rules core's ledger (knockcore.evening): the
# numbers of `knockbox settle --evening` for the same games. With a stake per point (settings
# "stake", in hundredths) each player's money is under his name and the payments are money (their
# points under them), to the cent as the laptop says. Everything is worked out when the screen opens,
# from the standings of the evening's finished games that the store gives (Store.evening_games:
# it keeps only its newest games in RAM and replays the older ones from the journal).
from micropython import const

from knockcore import evening as ledger
from knockfw import screens as S
from knockfw import text
from knockfw.buttons import STEPS
from knockfw.fonts import large, medium, small
from knockfw.strings import t

_ROWS = const(3)  # 32-pixel rows on a page


def tally(store):
    """The store's current evening: (ledger, finished games, the game on the table if it is the
    evening's and not over, else None)."""
    led: dict = {}
    n = 0
    for st in store.evening_games():  # (the store reads the older ones from the journal)
        ledger.add(led, st)
        n += 1
    g = store.current()
    run = store.game(g) if g is not None and g >= store.evening_gid else None
    return led, n, None if run is None or run.over else run


def _row(fb, k, left, amount, detail):
    # Row k of a page (32 px): a name, or who pays whom, with a detail under it; the amount in
    # large digits on the right.
    y = S.BAR + 1 + k * 32
    w = text.width(amount, large)
    text.draw(fb, amount, S.W - 2 - w, y, large)
    room = S.W - w - 10
    text.draw(fb, text.fit(left, medium, room), 2, y + 1, medium)
    if detail:
        text.draw(fb, text.fit(detail, small, room), 2, y + 19, small)


def _amount(v, stake, sign):
    # points, or money when there is a stake; "+"/"−" in front when sign
    s = ledger.money(abs(v) * stake) if stake else str(abs(v))
    if sign:
        return ("−" if v < 0 else "+") + s
    return s


def _pages(title, rows, empty):
    # rows (left, amount, detail) on pages of _ROWS: [(title, rows, what an empty page says)]
    return [(title, rows[i : i + _ROWS], empty) for i in range(0, max(1, len(rows)), _ROWS)]


class Activity:
    mode = "evening"

    def start(self, ui, game, settings, arg):
        if arg == "new":
            self.mode = "new_evening"
            return None
        led, self.games, run = tally(ui.store)
        stake = settings.get("stake", 0)
        self.rows = ledger.rows(led)  # [[name, net, games, wins]], the biggest winner first
        self.pays = ledger.payments(led)  # [[payer, payee, points]], the biggest first
        rows = []
        for name, net, games, wins in self.rows:
            d = t("ev_gw") % (games, wins)
            if stake:  # the points in large digits, the money under the name
                d += " · " + _amount(net, stake, True)
            rows.append((name, _amount(net, 0, True), d))
        pays = []
        for a, b, v in self.pays:  # with a stake: the money, the points under who pays whom
            pays.append(
                (t("ev_pays") % (a, b), _amount(v, stake, False), t("ev_pts") % v if stake else "")
            )
        pages = _pages(t("ev_title") % self.games, rows, t("ev_none"))
        if rows:
            pages += _pages(t("ev_settle"), pays, t("ev_square"))
        if run is not None:
            pages += _pages(
                t("ev_so_far"), [(run.players[s], str(run.totals[s]), "") for s in range(3)], ""
            )
        self.pages = pages
        self.page = 0
        return None

    def handle(self, ui, name, how, game, settings):
        if how != "press":
            return None
        if self.mode == "new_evening":
            if name == "a":
                ui.home()
                return [{"t": "evening"}]
            if name == "b":
                return ui.open("menu", game, settings)
            return ui.home() if name == "c" else None
        if name in STEPS:
            self.page = (self.page + (1 if name == "down" else -1)) % len(self.pages)
            return None
        return ui.home()

    def draw(self, fb, game, settings, sync):
        if self.mode == "new_evening":
            S.bar(fb, t("ev_new_q"))
            S.center(fb, t("ev_new_1"), 0, 36, S.W, medium)
            S.center(fb, t("ev_new_2"), 0, 62, S.W, medium)
            return t("hint_confirm")
        n = len(self.pages)
        title, rows, empty = self.pages[self.page]
        S.bar(fb, title, "%d/%d" % (self.page + 1, n) if n > 1 else "")
        if not rows:
            S.center(fb, empty, 0, 48, S.W, medium)
        for k in range(len(rows)):
            _row(fb, k, rows[k][0], rows[k][1], rows[k][2])
        return t("ev_hint")
