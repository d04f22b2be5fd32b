# Every string the device shows, in the language of the settings.
#
#   from knockfw import strings
#   strings.set_lang("ru")          # from the settings; "en" (default) or "ru"
#   strings.t("deals")              # -> "Сдаёт"
#   strings.t("hand_n") % 12        # templates take % arguments; word order is per language
#
# The keys are KEYS below, one a line; the texts are in knockfw/strings_en.py and strings_ru.py,
# one line per key in the same order (a key is written once, not once per language). All three
# are generated from one source, tools/strings/strings.txt (tools/strings/gen_strings.py). Only the
# language in use is loaded, kept as one bytes object with the start of each line (an array:
# a dict of str objects costs several times its text on the heap); a lookup is a find() and a
# count() in C, and the strings a screen asks for are kept in a small dict, so drawing a screen
# does not search the tables again.
#
# t() returns any key it does not know unchanged, so t(message) is safe and never raises. The
# rules core's messages and the journal's notes are keyed by their English text (a template,
# knockcore.errors.say()); in Russian t() finds them in knockfw/messages_ru.py, loaded the first
# time one is asked for.
#
# On the device the tables come packed (firmware/manifest.py's table(): the build compiles each
# from its TABLE packed, not from its text): every Cyrillic letter А..я is one byte, 0x80 + its
# offset from U+0410, instead of UTF-8's two; everything else is UTF-8 as it is. _utf8 (native
# code: this module is compiled with mpy-cross -march=armv6m for the Pico) unpacks a table once,
# when it is loaded. From source (the unix port's tests) a table is its text, a str.
import sys
from array import array

if __debug__:  # (CPython's const(): MicroPython's compiler knows it, and -O3 drops this import)
    from micropython import const

import micropython

from knockfw.settings import LANGS

# key n's text is line n of the language's table
KEYS = """
method1
method2
method3
target
deals
sits_out
advises
in_box
partners
hand_n
boxes
knock
gin
count
confirm
edit_hand
hint_who
hint_count
key_next
key_ten
hint_confirm
x_knocks
x_knocks_n
x_gin
x_undercuts
x_ties
void_hand
void_result
undo_last
undo_q
totals_change
cannot_save
sits_out_x
who_knocked_n
no_game
hint_empty
hint_score
hint_over
menu
back
hint_menu
hint_pick
hint_method
players
hint_players
hint_roles
cut_lowest
cut_next_lowest
cut_highest_box
cut_second
cut_highest_deals
role_idle
role_dealer
role_box
role_captain
set_preset
set_target
set_m3_target
set_m1_extra
set_m3_formula
set_m3_penalty_on
set_lang
set_sleep_s
n_min
n_sec
opt_seed
opt_classic
opt_idle
opt_shutout
opt_literal
opt_pairwise
opt_tie
opt_tie_or_undercut
hint_settings
erase_n
hint_erase
hold_a
erase_failed
new_game
next_game
game_over
x_wins
x_win
x_wins_pays
x_win_pay
x_pays_y
net
settings
lang_en
lang_ru
erase_all
syncing
saved
evening
new_evening
ev_title
ev_none
ev_gw
ev_pts
ev_settle
ev_pays
ev_square
ev_so_far
ev_hint
ev_new_q
ev_new_1
ev_new_2
about
set_stake
ev_off
fault
fault_saved
fault_off
fault_usb
fault_sync
bat_low
bat_off
"""

_lang = "en"
_table = b""
_lines = array("H")  # where each line of _table starts, and where the last one ends
_messages: "bytes | None" = None  # the language's messages table (bytes) once asked for; b"": none
_memo: dict = {}
_MEMO = 64  # strings remembered


def set_lang(code):
    """Select the language for t(): "en" or "ru" (anything else selects English)."""
    global _lang, _table, _lines, _messages
    code = code if code in LANGS else "en"
    if _table and code == _lang:
        return
    _table = b""
    _messages = None
    _memo.clear()
    _lines = array("H")
    _table = _load("strings_" + code)
    i = _table.find(b"\n") + 1
    while i:
        _lines.append(i)
        i = _table.find(b"\n", i) + 1
    _lang = code


def _load(name):
    # A table module's text as UTF-8; the module is forgotten, so its constant goes.
    mod = __import__("knockfw." + name, None, None, ("TABLE",))
    b = mod.TABLE
    del sys.modules["knockfw." + name]
    delattr(sys.modules["knockfw"], name)
    if type(b) is str:
        return b.encode()
    out = bytearray(2 * len(b))  # unpacked, a table is at most twice as long
    return out[: _utf8(b, len(b), out)]


# UTF-8's first bytes: 0x00-0x7F a character of its own, 0x80-0xBF one that continues a
# character, 0xC0-0xDF the first of two, 0xE0-0xEF the first of three (RFC 3629)
_CONT = const(0x80)
_LEAD2 = const(0xC0)
_LEAD3 = const(0xE0)
_PACKED = const(0x80)  # a packed letter: this + its offset from U+0410 (the build's pack_table)
_CYRILLIC = const(0x410)  # U+0410, А


@micropython.viper
def _utf8(src, n: int, dst) -> int:
    """The packed table src[0:n] as UTF-8 into dst; returns its length."""
    s = ptr8(src)
    d = ptr8(dst)
    i = 0
    j = 0
    more = 0  # continuation bytes of a UTF-8 character still to copy
    while i < n:
        c = s[i]
        i += 1
        if more:
            more -= 1
        elif c >= _LEAD3:  # (the tables have no 4-byte characters: the build refuses them)
            more = 2
        elif c >= _LEAD2:
            more = 1
        elif c >= _PACKED:  # a packed letter: U+0410 + c - 0x80, two bytes of UTF-8
            c += _CYRILLIC - _PACKED
            d[j] = _LEAD2 | (c >> 6)
            j += 1
            c = _CONT | (c & 0x3F)
        d[j] = c
        j += 1
    return j


def lang():
    """The language code t() uses now."""
    return _lang


def t(key):
    """The string for key in the current language; an unknown key comes back as it is."""
    global _messages
    s = _memo.get(key)
    if s is not None:
        return s
    if not _table:
        set_lang(_lang)
    i = KEYS.find("\n" + key + "\n")
    if i >= 0:
        i = KEYS.count("\n", 0, i)
        s = _table[_lines[i] : _lines[i + 1] - 1].decode()
    else:
        if _messages is None:
            try:
                _messages = _load("messages_" + _lang)
            except ImportError:
                _messages = b""
        k = b"\n" + key.encode() + b"|"
        i = _messages.find(k)
        if i < 0:
            return key
        i += len(k)
        s = _messages[i : _messages.find(b"\n", i)].decode()
    if len(_memo) >= _MEMO:
        _memo.clear()
    _memo[key] = s
    return s


def say_notes(notes, lookup=None):
    """Notes [(English template, args)] as one line, through lookup(template) -> template (e.g.
    t, so that they speak the player's language; English without). An argument
    may itself be a note (template, args) or a rules-core error (knockcore.errors.GameError)."""
    out = []
    for tmpl, args in notes:
        out.append(
            (lookup(tmpl) if lookup else tmpl) % tuple(_word(a, lookup) for a in args)
            if args
            else (lookup(tmpl) if lookup else tmpl)
        )
    return "; ".join(out)


def _word(a, lookup):
    if isinstance(a, tuple):
        return say_notes([a], lookup)
    if hasattr(a, "template"):  # a knockcore.errors.GameError
        from knockcore.errors import say

        return say(a, lookup)
    return a
