# The screens' drawing kit: one frame on the 296x128 one-bit panel (1 = black ink), and the pieces
# every activity (knockfw.ui) draws its screens with. Layout: a black title bar (BAR px), the
# body, a rule and a hint line at the bottom (from FOOT). Every string comes from
# knockfw.strings; numbers use the large digits.
#
#   screens.draw(fb, ui, game, settings, sync)
#
# draws the activity showing (ui.act.draw(fb, game, settings, sync) draws the title bar and the
# body and returns the hint line's text, or None for none), then the hint, or the note in its
# place (ui.note, a (string key, argument) pair, shown until the next button press).
from micropython import const

from knockfw import text
from knockfw.fonts import large, medium, small
from knockfw.strings import t

W = const(296)
H = const(128)
COL = const(98)  # one seat's column; columns start at 0, 99, 198
BAR = const(14)
FOOT = const(114)
_ROWS = const(5)  # rows of a list on the screen


def draw(fb, ui, game, settings, sync=False):
    text.clear(fb)
    hint = ui.act.draw(fb, game, settings, sync)
    if ui.note:
        note(fb, ui.note)
    elif hint:
        fb.hline(0, FOOT - 2, W, 1)
        text.draw(fb, text.fit(hint, small, W - 4), 2, FOOT + 1, small)


def note(fb, n):
    """A note in the hint line's place, white on black so it is seen. n = (key, arg): the string
    of that key (with arg filled in, unless arg is None); a key the strings do not know (a
    rules-core message) is shown as it is."""
    key, arg = n
    s = t(key)
    if arg is not None:
        s = s % arg
    fb.fill_rect(0, FOOT - 2, W, H - FOOT + 2, 1)
    text.draw(fb, text.fit(s, small, W - 4), 2, FOOT + 1, small, 0)


def bar(fb, left, right=""):
    """The title bar: left (shortened to fit), right aligned to the right edge."""
    fb.fill_rect(0, 0, W, BAR, 1)
    rw = text.width(right, small) if right else 0
    text.draw(fb, text.fit(left, small, W - rw - 10), 3, 1, small, 0)
    if right:
        text.draw(fb, right, W - rw - 3, 1, small, 0)


def center(fb, s, x, y, w, font, color=1):
    """s centred in the w pixels from x (shortened to fit)."""
    s = text.fit(s, font, w - 2)
    text.draw(fb, s, x + (w - text.width(s, font)) // 2, y, font, color)


def cols(fb, top, bottom):
    """The rules between the three seats' columns."""
    for i in (1, 2):
        fb.vline(i * (COL + 1) - 1, top, bottom - top, 1)


def label(fb, s, x, y, inverted):
    """A small label centred in the seat's column from x; inverted (white on black) to stand out."""
    s = text.fit(s, small, COL - 8)
    w = text.width(s, small) + 6
    x0 = x + (COL - w) // 2
    if inverted:
        fb.fill_rect(x0, y, w, 13, 1)
    text.draw(fb, s, x0 + 3, y, small, 0 if inverted else 1)


def listing(fb, title, n, sel, row):
    """A list of n rows under a title, row sel highlighted; row(i) gives the text of row i (asked
    only for the rows on the screen: at most 5, the window that shows row sel)."""
    bar(fb, title)
    first = 0 if sel < _ROWS else sel - _ROWS + 1
    for i in range(first, min(n, first + _ROWS)):
        y = BAR + 4 + (i - first) * 19
        if i == sel:
            fb.fill_rect(0, y - 1, W, 18, 1)
        text.draw(fb, text.fit(row(i), medium, W - 12), 8, y, medium, 0 if i == sel else 1)


def seats(fb, title, names, cursor=None, labels=None):
    """The three seats A, B, C with a name under each (the cursor's highlighted), and a label
    under a name where labels has one."""
    bar(fb, title)
    cols(fb, BAR + 2, FOOT - 4)
    for s in range(3):
        x = s * (COL + 1)
        center(fb, "ABC"[s], x, BAR + 6, COL, large)
        if s == cursor:
            fb.fill_rect(x + 3, 58, COL - 6, 20, 1)
        center(fb, names[s], x, 60, COL, medium, 0 if s == cursor else 1)
        if labels and labels[s]:
            label(fb, labels[s], x, 84, True)


def signed(n):
    return ("+%d" % n) if n >= 0 else ("−%d" % -n)


def describe(hand, players):
    """One line for a hand: 'Ann knocks 5 · Bob 20 · Cy 30', 'Void hand'."""
    if "void" in hand:
        return t("void_hand")
    knock = "knock" in hand
    who = hand["knock" if knock else "gin"]
    cs = hand["counts"]
    parts = [t("x_knocks_n") % (players[who], cs[who]) if knock else t("x_gin") % players[who]]
    for s in ((who + 1) % 3, (who + 2) % 3):
        if cs[s] is not None:
            parts.append("%s %d" % (players[s], cs[s]))
    return " · ".join(parts)
