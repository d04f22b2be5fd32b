"""The device's UI state machine (knockfw.ui and its activities) on CPython: what each button does
on each screen, named by mode, and the effects it hands the app. The rules core keeps the game, as
the app's store does (tests/test_firmware_app.py plays the same machine through the real app
under the MicroPython unix port)."""

import sys

import pytest

from knockcore import events
from knockcore.game import Game
from knockcore.hand import MAX_COUNT
from knockcore.rules import CHOICES, PRESETS
from knockfw import ui as U
from knockfw.buttons import NAMES, SEATS, STEPS
from knockfw.strings import LANGS

NAMES3 = ["Ann", "Bob", "Cy"]
SETTINGS = {
    "lang": "en",
    "rules": {"preset": "seed"},
    "sleep_s": 30,
    "roster": ["Ann", "Bob", "Cy", "Dee"],
    "stake": 0,
}


class Table:
    """A UI with the game it plays; effects are applied as the app applies them."""

    def __init__(self, game=None, settings=None):
        self.ui = U.UI()
        self.game = game
        self.settings = dict(settings or SETTINGS)
        self.effects = []

    def press(self, *keys):
        """keys: "a" ... "down" (a press), "A" (a long press of a), "up*" (a repeat)."""
        for k in keys:
            how = "repeat" if k.endswith("*") else "long" if k.isupper() else "press"
            for e in self.ui.handle((k.rstrip("*").lower(), how), self.game, self.settings):
                self.effects.append(e)
                if type(e) is dict:  # a change to the games: its event, as the store records
                    if e["t"] != "evening":
                        self.game = events.apply(None if e["t"] == "game" else self.game, e)
                elif e[0] == "settings":
                    self.settings.update(e[1])
        return self

    @property
    def mode(self):
        return self.ui.mode

    @property
    def act(self):
        return self.ui.act


def game(method, *hands, players=NAMES3):
    g = Game(
        method,
        players,
        {1: {"idle": 2, "dealer": 1}, 2: {"box": 0, "captain": 1}, 3: {"dealer": 2}}[method],
        {"preset": "seed"},
    )
    for h in hands:
        g.add(h)
    return g


class Panel:
    """A framebuffer that keeps nothing (the text is native code, drawn on the device only)."""

    def __getattr__(self, name):
        return lambda *args: None


def draw(t, monkeypatch):
    """The strings knockfw.screens draws for the UI's screen now (text 6 px a character)."""
    from knockfw import screens, text, ui_score

    drawn = []
    monkeypatch.setattr(ui_score, "_veil", lambda: None)  # a framebuf.FrameBuffer on the device
    monkeypatch.setattr(text, "width", lambda s, font: 6 * len(s))
    monkeypatch.setattr(text, "fit", lambda s, font, w: s)
    monkeypatch.setattr(text, "clear", lambda fb: None)
    monkeypatch.setattr(text, "draw", lambda fb, s, x, y, f, c=1: drawn.append(s) or 6 * len(s))
    screens.draw(Panel(), t.ui, t.game, t.settings)
    return drawn


# ---- the activity table -----------------------------------------------------------------------


def test_every_activity_is_a_module_with_an_activity_and_a_mode():
    modes = set()
    for name, mod in U.ACTIVITIES.items():
        m = __import__("knockfw." + mod, None, None, ("Activity",))
        act = m.Activity()
        assert isinstance(act.mode, str) and act.mode
        modes.add(act.mode)
        for f in ("start", "handle", "draw"):
            assert callable(getattr(act, f)), (name, f)
    assert {"score", "counts", "menu", "pick", "method", "settings", "erase"} <= modes
    assert SEATS + STEPS == NAMES == ("a", "b", "c", "up", "down")


def modules(lazy=True):
    """The activities' modules imported when opened (lazy), or with the UI."""
    return {"knockfw." + mod for n, mod in U.ACTIVITIES.items() if (n != U.HOME) == lazy}


def test_the_ui_imports_the_scoreboard_and_an_activity_is_in_only_while_it_shows():
    later = modules()
    for m in later:
        sys.modules.pop(m, None)
    assert modules(lazy=False) == {"knockfw.ui_score"}  # the first screen's
    t = Table(game(3))
    assert t.mode == "score" and all(m not in sys.modules for m in later)
    t.press("a")  # opened: imported
    assert t.mode == "counts"
    assert sorted(m for m in later if m in sys.modules) == ["knockfw.ui_hand"]  # while open
    t.press("A")  # the knocker's own button held on his count: back to the scoreboard
    assert t.mode == "score" and "knockfw.ui_hand" not in sys.modules
    assert "knockfw.ui_score" in sys.modules  # (kept)


def test_rarely_used_activities_are_loaded_when_opened_and_forgotten_when_left():
    assert modules() == {
        "knockfw.ui_settings",
        "knockfw.ui_newgame",
        "knockfw.ui_erase",
        "knockfw.ui_fix",
        "knockfw.ui_evening",
        "knockfw.ui_menu",
        "knockfw.ui_hand",
    }
    for m in modules():
        sys.modules.pop(m, None)
    t = Table(game(3, {"knock": 0, "counts": [5, 20, 30]}))
    t.press("up", "down", "down", "down", "down", "a")
    assert t.mode == "settings" and "knockfw.ui_settings" in sys.modules
    t.press("c")
    assert t.mode == "score" and "knockfw.ui_settings" not in sys.modules
    t.press("up", "down", "down", "a")
    assert t.mode == "pick" and "knockfw.ui_fix" in sys.modules
    t.press("c", "down", "down", "down", "a")  # pick: C back to the menu; then New game
    assert t.mode == "method" and "knockfw.ui_fix" not in sys.modules
    assert "knockfw.ui_newgame" in sys.modules
    t.ui.ask_erase(2)
    assert t.mode == "erase" and "knockfw.ui_newgame" not in sys.modules
    t.press("c")
    assert "knockfw.ui_erase" not in sys.modules and t.effects == [("erase", False)]


# ---- the scoreboard ---------------------------------------------------------------------------


def test_no_game_any_button_opens_the_menu_else_a_seat_knocks_or_goes_gin():
    for key in ("a", "B", "up"):
        t = Table().press(key)
        assert t.mode == "menu" and t.act.items == [
            "new_game",
            "settings",
            "evening",
            "new_evening",
            "back",
        ]
    assert Table().press("up*").mode == "score"
    t = Table(game(3)).press("b")
    assert t.mode == "counts" and (t.act.ending, t.act.who) == ("knock", 1)
    # the knocker's count starts at the knock limit, the others' at 0
    assert t.act.fields == [1, 2, 0] and t.act.counts == [0, 10, 0]
    t = Table(game(3)).press("C")
    assert t.mode == "counts" and (t.act.ending, t.act.who) == ("gin", 2)
    assert t.act.fields == [0, 1] and t.act.counts == [50, 50, 0]  # after a gin: at 50


def test_a_seat_sitting_out_gets_a_note_and_the_scoreboard_stays(monkeypatch):
    t = Table(game(1, players=["Ann", "Bob", "C|y %s"])).press("c")
    assert t.mode == "score" and t.ui.note == ("sits_out_x", "C|y %s")
    assert draw(t, monkeypatch)[-1] == "C|y %s sits out this hand"  # the note, not the hint
    t.press("up*")  # a held button's repeats keep the note
    assert t.ui.note == ("sits_out_x", "C|y %s")
    t.press("a")  # the next press clears it
    assert t.ui.note is None and t.mode == "counts" and t.act.fields == [0, 1]
    assert draw(t, monkeypatch)[-1] == "▲▼: 1, held: 5 · next held: back"


def test_game_over_a_starts_the_next_game_and_up_opens_the_menu():
    g = game(3, {"gin": 0, "counts": [0, 98, 98]})
    assert g.over
    t = Table(g).press("c", "B")
    assert t.mode == "score" and not t.effects  # (B opens the evening: tests/test_ui_evening.py)
    t.press("down")
    assert t.mode == "menu" and t.act.items == [
        "undo_last",
        "edit_hand",
        "next_game",
        "new_game",
        "settings",
        "evening",
        "new_evening",
        "back",
    ]
    t = Table(g).press("a")
    assert t.mode == "roles" and t.act.method == 3 and t.act.players == NAMES3
    t.press("c")
    assert t.effects == [
        {
            "t": "game",
            "rec": {
                "method": 3,
                "players": NAMES3,
                "start": {"dealer": 2},
                "rules": {"preset": "seed"},
            },
        }
    ]
    assert t.mode == "score" and t.game.hands == []


N = None
# Box bonuses lift the losers' finals above the winner's (RULES: the lower final pays).
BOX_WINS_AND_PAYS = [{"knock": 1, "counts": [2, 1, N]}] * 9 + [{"gin": 0, "counts": [0, 75, N]}]
PARTNERS_WIN_AND_PAY = [
    {"knock": 0, "counts": [1, 2, N]},
    {"knock": 0, "counts": [1, N, 2]},
] * 4 + [{"knock": 0, "counts": [1, 2, N]}, {"gin": 2, "counts": [75, N, 0]}]


@pytest.fixture
def russian():
    from knockfw import strings

    strings.set_lang("ru")
    yield
    strings.set_lang("en")


def test_game_over_names_the_winners_and_what_a_paying_winner_pays(monkeypatch):
    t = Table(game(3, {"gin": 0, "counts": [0, 98, 98]}))
    assert draw(t, monkeypatch)[0] == "Game over · Ann wins"
    g = game(2, *BOX_WINS_AND_PAYS)
    assert g.standings()["winners"] == [0] and g.standings()["net"] == [-18, 9, 9]
    drawn = draw(Table(g), monkeypatch)
    assert drawn[0] == "Game over · Ann wins, pays 18"
    assert "Ann pays Bob 9 · Ann pays Cy 9" in drawn
    g = game(2, *PARTNERS_WIN_AND_PAY)
    assert g.standings()["winners"] == [1, 2] and g.standings()["net"] == [18, -9, -9]
    assert draw(Table(g), monkeypatch)[0] == "Game over · Bob and Cy win, pay 9 each"


def test_game_over_in_russian_joins_two_winners_with_i(monkeypatch, russian):
    g = game(2, {"gin": 1, "counts": [98, 0, N]})
    assert g.standings()["winners"] == [1, 2] and min(g.standings()["net"][1:]) > 0
    assert draw(Table(g), monkeypatch)[0] == "Партия окончена · Победа: Bob и Cy"
    g = game(2, *PARTNERS_WIN_AND_PAY)
    assert draw(Table(g), monkeypatch)[0] == "Партия окончена · Победа: Bob и Cy, платят по 9"
    g = game(2, *BOX_WINS_AND_PAYS)
    assert draw(Table(g), monkeypatch)[0] == "Партия окончена · Победа: Ann, платит 18"


def test_the_partner_who_sits_out_in_the_box_advises(monkeypatch, russian):
    # Method 2's partner out of the hand advises; "свободный" is method 1's idle player.
    drawn = draw(Table(game(2)), monkeypatch)
    assert "Советует" in drawn and "Свободный" not in drawn and "Взято 0" in drawn
    assert "Один против двух · Партия до 100" in drawn
    drawn = draw(Table(game(1)), monkeypatch)
    assert "Свободный" in drawn and "Советует" not in drawn


# ---- entering a hand --------------------------------------------------------------------------


def test_each_press_has_one_effect_however_long_it_is_held():
    # Blind entry (README "Playing"): Up/Down +-1, held +-5; another seat's button +10, held
    # -10; "up*" is a repeat of the Up held: its first one makes the press a long one (+4 more),
    # the later ones do nothing.
    t = Table(game(3)).press("a")
    assert t.act.counts[0] == 10  # the knocker's count starts at the knock limit
    t.press("up")
    assert t.act.counts[0] == 10  # and stops there
    t.press("down", "down", "down")
    assert t.act.counts[0] == 7
    t.press("down", "down*")
    assert t.act.counts[0] == 2  # held Down: -5 in all
    t.press(*["down*"] * 20)
    assert t.act.counts[0] == 2  # held on: nothing more
    t.press("B")
    assert t.act.counts[0] == 0  # another seat's button held: -10 (stops at 0)
    t.press("c")
    assert t.act.counts[0] == 10  # tapped: +10 (stops at the knock limit)
    t.press("a")  # the knocker's own button: Bob's count, from 0
    assert t.act.fields[t.act.cursor] == 1 and t.act.counts == [10, 0, 0]
    t.press("c", "a", "c")
    assert t.act.counts[1] == 30  # either other seat's button: +10
    t.press("A", "up", "up*", "up*", "up*")
    assert t.act.counts[1] == 25
    t.press("down", "up", "up*")
    assert t.act.counts[1] == 29  # a new press: +1, held +5 again
    t.press(*["c"] * 10)
    assert t.act.counts[1] == MAX_COUNT
    t.press("up", "b", "up*", "up*")  # Up held from Bob's count across moving on to Cy's
    assert t.act.counts == [10, MAX_COUNT, 0]  # its repeats change neither
    t.press("C", "down", "down*")
    assert t.act.counts == [10, MAX_COUNT - 5, 0]  # (held C: back to Bob's count)


def test_the_highlighted_players_button_moves_on_and_held_goes_back():
    t = Table(game(3)).press("a", "down", "down", "a")
    assert t.act.fields[t.act.cursor] == 1  # Bob
    t.press("c", "up", "b")
    assert t.act.fields[t.act.cursor] == 2 and t.act.counts == [8, 11, 0]  # Cy
    t.press("up", "up", "up", "C")  # Cy's button held: back to Bob's count
    assert t.act.fields[t.act.cursor] == 1 and t.mode == "counts"
    t.press("up", "b")
    assert t.act.fields[t.act.cursor] == 2
    t.press("c")  # the last count: confirm
    assert t.mode == "confirm" and t.act.hand == {"knock": 0, "counts": [8, 12, 3]}
    t.press("b", "C", "B", "A")  # back to the counts; held back to the first, then out
    assert t.mode == "score" and not t.effects


def test_the_confirm_screen_works_out_the_score_when_it_opens(monkeypatch):
    g = game(3, {"knock": 0, "counts": [5, 20, 30]})
    t = Table(g).press("b", "C", "up", "b", "up", "up*", "c", "up", "up")
    calls = []
    real = g.preview
    g.preview = lambda h: calls.append(h) or real(h)
    t.press("a")
    assert t.mode == "confirm" and calls == [{"knock": 1, "counts": [2, 1, 5]}]
    assert t.act.before == [45, 0, 0]
    kind, winners, points = t.act.result
    assert winners == [1] and t.act.after == [45 + points[0], points[1], points[2]]
    assert t.act.after == [45, 6, 0] and t.act.error is None
    g.preview = g.copy = None  # drawing the confirm screen works nothing out again
    drawn = draw(t, monkeypatch)
    assert "Bob knocks 1 · Cy 5 · Ann 2" in drawn and "Bob +6" in drawn and "Bob 6" in drawn


def test_the_confirm_screen_calls_a_tie_of_the_knocker_in_method_3_a_tie(monkeypatch):
    # Ann knocks 5, Bob 5, Cy 30: in method 3 Bob wins the tie, and Ann pays the tie penalty
    t = Table(game(3)).press("a", "down", "down*", "a", "up", "up*", "b", "a", "a", "a", "c")
    assert t.mode == "confirm" and t.act.hand == {"knock": 0, "counts": [5, 5, 30]}
    assert "Bob ties +30 · Ann −20" in draw(t, monkeypatch)
    # in method 1 the same counts are an undercut
    t = Table(game(1)).press("b", "down", "down*", "b", "up", "up*", "a")
    assert t.mode == "confirm" and t.act.hand == {"knock": 1, "counts": [5, 5, None]}
    assert any(s.startswith("Ann undercuts +") for s in draw(t, monkeypatch))


def test_confirm_a_saves_b_goes_back_c_cancels_and_a_held_seat_leaves_the_counts():
    t = Table(game(3)).press("a", "B", "up", "a", "up", "b", "up", "c", "b")
    assert t.mode == "counts" and t.act.counts == [1, 1, 1]
    t.press("c")
    assert t.mode == "confirm"
    t.press("c")
    assert t.mode == "score" and not t.effects and t.game.hands == []
    t.press("a", "up", "A")
    assert t.mode == "score" and not t.effects
    t.press("a", "B", "up", "a", "up", "b", "up", "c", "a")
    assert t.effects == [{"t": "hand", "h": {"knock": 0, "counts": [1, 1, 1]}}]
    assert t.mode == "score" and len(t.game.hands) == 1


def test_a_knock_at_0_is_confirmed_and_saved_as_gin(monkeypatch):
    # 0 deadwood is gin (knockcore.hand, docs/RULES.md): the counts screen labels the knocker
    # "Gin" while his count is 0, the confirm screen shows the gin and what it scores, and the
    # hand is saved as gin.
    t = Table(game(3)).press("a")
    assert "Knock" in draw(t, monkeypatch) and "Gin" not in draw(t, monkeypatch)
    t.press("B")
    assert "Gin" in draw(t, monkeypatch) and "Knock" not in draw(t, monkeypatch)
    t.press("up")
    assert "Knock" in draw(t, monkeypatch)
    t.press("down", "a", "up", "up*", "up", "up", "b", "a", "up", "up", "c")
    assert t.mode == "confirm" and t.act.hand == {"gin": 0, "counts": [0, 7, 12]}
    drawn = draw(t, monkeypatch)
    assert "Ann: gin · Bob 7 · Cy 12" in drawn and "Ann +59" in drawn
    t.press("a")
    assert t.effects == [{"t": "hand", "h": {"gin": 0, "counts": [0, 7, 12]}}]
    assert t.game.standings()["hands"][0]["kind"] == "gin" and t.game.totals == [59, 0, 0]


def test_a_knock_at_0_in_russian(monkeypatch, russian):
    t = Table(game(3)).press("a", "C")
    assert "Джин" in draw(t, monkeypatch) and "Нокер" not in draw(t, monkeypatch)
    t.press("up")
    assert "Нокер" in draw(t, monkeypatch)
    t.press("down", "a", "up", "b", "up", "up", "c")
    assert "Ann: джин · Bob 1 · Cy 2" in draw(t, monkeypatch)


def test_void_hand_and_undo_from_the_menu():
    t = Table(game(3, {"knock": 0, "counts": [5, 20, 30]}))
    t.press("up")
    assert t.act.items == [
        "void_hand",
        "undo_last",
        "edit_hand",
        "new_game",
        "settings",
        "evening",
        "new_evening",
        "back",
    ]
    t.press("a")
    assert t.mode == "confirm" and t.act.hand == {"void": True} and t.act.result[0] == "void"
    t.press("b")
    assert t.mode == "menu"  # B from a void hand: back to the menu
    t.press("a", "a")
    assert t.effects == [{"t": "hand", "h": {"void": True}}] and len(t.game.hands) == 2
    t.press("up", "down", "a")
    assert t.mode == "confirm" and t.act.undo and t.act.hand == {"void": True}
    t.press("a")
    assert t.effects[-1] == {"t": "undo"} and len(t.game.hands) == 1


def test_menu_moves_around_and_b_or_c_go_back():
    t = Table(game(3)).press("up")
    assert t.act.items == ["void_hand", "new_game", "settings", "evening", "new_evening", "back"]
    t.press("up")
    assert t.act.sel == 5
    t.press("down", "down*", "A")  # held: nothing
    assert t.act.sel == 1 and t.mode == "menu"
    t.press("b")
    assert t.mode == "score"
    t.press("up", "up", "a")  # Back
    assert t.mode == "score" and not t.effects


# ---- correcting an earlier hand ---------------------------------------------------------------


def test_edit_an_earlier_hand_starts_from_its_counts_and_shows_the_new_totals():
    hands = [{"knock": 0, "counts": [5, 20, 30]}, {"gin": 1, "counts": [14, 0, 9]}]
    t = Table(game(3, *hands))
    t.press("up", "down", "down", "a")
    assert t.mode == "pick" and t.act.sel == 1
    t.press("up", "a")
    assert t.mode == "who" and t.act.sel == 0
    t.press("b")
    assert t.mode == "counts" and t.act.edit == 0 and t.act.counts == [5, 10, 30]
    t.press("up", "b", "c", "down", "a")  # Bob knocks 10 · Cy 30 · Ann 4
    assert t.mode == "confirm" and t.act.hand == {"knock": 1, "counts": [4, 10, 30]}
    want = Game(3, NAMES3, {"dealer": 2}, {"preset": "seed"})
    want.add(t.act.hand)
    want.add(hands[1])
    assert t.act.result is None and t.act.after == want.totals
    t.press("a")
    assert t.effects == [{"t": "edit", "i": 0, "h": {"knock": 1, "counts": [4, 10, 30]}}]
    assert t.game.totals == want.totals and t.mode == "score"


def test_edit_back_and_forth():
    t = Table(game(3, {"knock": 0, "counts": [5, 20, 30]}, {"gin": 1, "counts": [14, 0, 9]}))
    t.press("up", "down", "down", "a", "up", "a", "c")
    assert t.mode == "counts" and t.act.edit == 0
    t.press("C")  # the knocker's own button held: back to the list, the hand still selected
    assert t.mode == "pick" and t.act.sel == 0
    t.press("a", "down")  # who knocked? Up/Down: back to the list
    assert t.mode == "pick"
    t.press("b")  # B: make it void
    assert t.mode == "confirm" and t.act.hand == {"void": True} and t.act.edit == 0
    t.press("b")
    assert t.mode == "menu"
    t.press("down", "down", "a", "c")  # the list, then C: back to the menu
    assert t.mode == "menu" and not t.effects


def test_edit_who_knocked_only_among_the_seats_that_played_it():
    t = Table(game(1, {"knock": 0, "counts": [4, 19, None]}, {"gin": 2, "counts": [22, None, 0]}))
    t.press("up", "down", "down", "a", "up", "a")  # hand 1: Ann and Bob played, Cy sat out
    assert t.mode == "who" and t.act.sel == 0
    t.press("c")
    assert t.mode == "who" and t.ui.note == ("sits_out_x", "Cy")
    t.press("B")
    assert t.mode == "counts" and t.act.ending == "gin" and t.act.fields == [0]
    assert t.act.counts == [4, 0, None]


def test_an_edit_that_breaks_a_later_hand_cannot_be_saved():
    # Method 1: Bob lost hand 1, so Cy played hand 2 against Ann; make Ann lose hand 1 instead
    # and Bob stays in: hand 2's gin by Cy is no longer possible.
    t = Table(game(1, {"knock": 0, "counts": [4, 19, None]}, {"gin": 2, "counts": [22, None, 0]}))
    t.press("up", "down", "down", "a", "up", "a", "b", *["down"] * 9, "b", "a")
    assert t.mode == "confirm" and t.act.hand == {"knock": 1, "counts": [4, 1, None]}
    assert t.act.error and "sitting out" in t.act.error and t.act.after == []


# ---- starting a game --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method,start,keys",
    [
        (1, {"idle": 2, "dealer": 0}, ["c", "a"]),
        (2, {"box": 1, "captain": 0}, ["b", "a"]),
        (3, {"dealer": 1}, ["b"]),
    ],
)
def test_new_game_method_players_roles(method, start, keys):
    t = Table()
    t.press("a", "a")  # the menu's first entry: New game
    assert t.mode == "method" and t.act.method == 3
    t.press(*{1: ["down"], 2: ["up"], 3: []}[method])
    assert t.act.method == method
    t.press("a")
    assert t.mode == "players" and t.act.players == NAMES3 and t.act.cursor == 0
    t.press("b", "down")  # Bob's seat: the next name not taken
    assert t.act.players == ["Ann", "Dee", "Cy"]
    t.press("up", "b", "c")  # back to Bob; B again: C's seat; C: the last seat
    assert t.mode == "roles" and t.act.players == NAMES3
    t.press(*keys)
    assert t.effects == [
        {
            "t": "game",
            "rec": {
                "method": method,
                "players": NAMES3,
                "start": start,
                "rules": {"preset": "seed"},
            },
        }
    ]
    assert t.mode == "score" and t.game.method == method


def test_new_game_going_back():
    t = Table().press("a", "a", "b")
    assert t.mode == "score"
    t.press("a", "a", "a", "A")  # held in the players: back to the method
    assert t.mode == "method"
    t.press("down", "a", "a", "b", "c", "a")  # method 1: who sits out? A
    assert t.mode == "roles" and t.act.roles == {"idle": 0}
    t.press("a")  # a seat already given a role: nothing
    assert t.act.roles == {"idle": 0} and t.act.step == 1
    t.press("up")  # Up: the question before
    assert t.act.step == 0 and t.act.roles == {}
    t.press("up")  # and then the players
    assert t.mode == "players" and not t.effects


def test_next_game_in_the_box_needs_no_roles():
    g = game(2, {"gin": 0, "counts": [0, 98, None]})
    t = Table(g).press("a")
    nxt = g.standings(False)["next_game"]
    assert t.effects == [
        {
            "t": "game",
            "rec": {"method": 2, "players": NAMES3, "start": nxt, "rules": {"preset": "seed"}},
        }
    ]
    assert t.mode == "score" and nxt["box"] == 1


# ---- settings and erase -----------------------------------------------------------------------


def test_settings_offer_the_rules_choices_and_the_apps_own_and_save_each_change():
    from knockfw import ui_settings

    values = dict(ui_settings.ITEMS)
    assert list(values) == [
        "preset",
        "target",
        "m3_target",
        "m1_extra",
        "m3_formula",
        "m3_penalty_on",
        "lang",
        "sleep_s",
        "stake",
    ]
    assert values["preset"] is PRESETS and values["lang"] is LANGS
    assert all(values[k] is CHOICES[k] for k in CHOICES)
    t = Table().press("a", "down", "a")
    assert t.mode == "settings"
    t.press("a")
    assert t.effects[-1] == ("settings", {"rules": {"preset": "classic"}})
    t.press("down", "down", "b")  # m3_target backwards from 200 (the default)
    assert t.effects[-1] == ("settings", {"rules": {"preset": "classic", "m3_target": 150}})
    t.press("down", "down", "down", "down", "a")
    assert t.effects[-1] == ("settings", {"lang": "ru"})
    t.press("down", "a")  # from the default, the first choice
    assert t.effects[-1] == ("settings", {"sleep_s": 60})
    t.press("down", "a")  # the stake: off, 0.01, 0.10, 1.00 a point
    assert t.effects[-1] == ("settings", {"stake": 1})
    t.press("b", "b")
    assert t.effects[-1] == ("settings", {"stake": 100})
    t.press("down")  # the about line: the firmware's version, A/B change nothing
    from knockfw.version import VERSION

    assert t.act.sel == len(ui_settings.ITEMS)
    assert ui_settings._row(t.settings, t.act.sel).endswith(" " + VERSION)
    t.press("a", "b")
    assert t.mode == "settings" and len(t.effects) == 7
    t.press("down")  # round to the top
    assert t.act.sel == 0
    t.press("c")
    assert t.mode == "score" and t.settings["lang"] == "ru" and len(t.effects) == 7
    assert t.settings["stake"] == 100


def test_erase_takes_a_long_press_of_a():
    t = Table(game(3))
    t.ui.ask_erase(3)
    assert t.mode == "erase" and t.act.games == 3
    t.press("a", "b", "up", "C")
    assert t.mode == "erase" and not t.effects
    t.press("A")
    assert t.effects == [("erase", True)] and t.mode == "score"
    t.ui.ask_erase(3)
    t.press("c")
    assert t.effects[-1] == ("erase", False) and t.mode == "score"
