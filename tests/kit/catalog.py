"""The device's string catalogue as the tests read it (the device itself only has knockfw.strings,
one language at a time): every key, the text in each language, and the room the screens give a
string, for the width checks."""

import importlib

from knockfw.settings import LANGS  # noqa: F401  (the tests read them here)


def keys():
    """The keys, in their order (knockfw.strings.KEYS)."""
    from knockfw import strings

    return strings.KEYS.strip("\n").split("\n")


def lines(code):
    """The lines of firmware/knockfw/strings_<code>.py's table, in order."""
    mod = importlib.import_module("knockfw.strings_" + code)
    assert mod.TABLE.startswith("\n") and mod.TABLE.endswith("\n")
    return mod.TABLE[1:-1].split("\n")


def table(code):
    """{key: text} of one language: line n of its table is the text of key n; a table with a
    line more or less than there are keys is refused."""
    k, v = keys(), lines(code)
    if len(k) != len(v) or len(set(k)) != len(k):
        raise AssertionError(
            "strings_%s.py: %d lines for %d keys (%d different)"
            % (code, len(v), len(k), len(set(k)))
        )
    return dict(zip(k, v))


def text(key, code):
    return table(code)[key]


COL = ("small", 96)  # a label under one seat's column: a third of the screen
HINT = ("small", 292)  # the hint line, 2 px margins
FULL = ("medium", 296)  # keys not listed: one medium line across the screen
BAR = ("small", 286)  # the title bar (3 px margin, 10 px kept from the right edge)
WON = ("small", 190)  # the title bar after "Game over · " in the longer language

# {key: (font module name, pixels)}: the room the UI gives a string. Templates are checked
# with long sample arguments (tests/test_text_strings.py).
BUDGETS = {
    "deals": COL,
    "sits_out": COL,
    "in_box": COL,
    "partners": COL,
    "boxes": COL,
    "knock": COL,
    "gin": COL,
    "count": COL,
    "net": COL,
    "target": COL,
    "hint_who": HINT,
    "hint_count": HINT,
    "key_next": COL,
    "key_ten": COL,
    "hint_confirm": HINT,
    "x_pays_y": ("small", 296),
    "role_idle": COL,
    "role_dealer": COL,
    "role_box": COL,
    "role_captain": COL,
    "sits_out_x": ("small", 292),
    "erase_failed": ("small", 292),
    "void_result": ("medium", 288),
    "hint_score": HINT,
    "hint_over": HINT,
    "hint_menu": HINT,
    "hint_pick": HINT,
    "hint_method": HINT,
    "hint_players": HINT,
    "hint_roles": HINT,
    "hint_settings": HINT,
    "hint_erase": HINT,
    "hint_empty": HINT,
    "advises": COL,
    # the roles questions are the title bar (knockfw.screens.bar: small, 286 px)
    "cut_lowest": BAR,
    "cut_next_lowest": BAR,
    "cut_highest_box": BAR,
    "cut_second": BAR,
    "cut_highest_deals": BAR,
    # the winners follow "Game over · " in the title bar ("Партия окончена · ": 96 px)
    "x_wins": WON,
    "x_win": WON,
    "x_wins_pays": WON,
    "x_win_pay": WON,
    # the error screen (knockfw.fault): its title bar, and the line in the hint's place
    "fault": BAR,
    "fault_sync": HINT,
}
