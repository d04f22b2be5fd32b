# Draws the UI state (knockfw.ui) into the 296x128 one-bit framebuffer: 1 = black ink.
# Layout: a black title bar (14 px), the body, a rule and a hint line at the bottom (14 px).
# Every string comes from knockfw.strings; numbers use the large digits.
import framebuf
from micropython import const

from knockfw import text
from knockfw import ui as U
from knockfw.fonts import large, medium, small
from knockfw.strings import t

W = const(296)
H = const(128)
_COL = const(98)     # one seat's column; columns start at 0, 99, 198
_BAR = const(14)
_FOOT = const(114)


_quiet = [False]  # a note is showing: it takes the hint line


def draw(fb, u, game, settings, sync=False):
    text.clear(fb)
    _quiet[0] = bool(u.msg)
    m = u.mode
    if m == U.SCORE:
        if game is None:
            _empty(fb)
        elif game.over:
            _over(fb, game)
        else:
            _score(fb, game, settings, sync)
    elif m == U.COUNTS:
        _counts(fb, u, game)
    elif m == U.CONFIRM:
        _confirm(fb, u, game)
    elif m == U.MENU:
        _list(fb, t("menu"), [t(k) for k in u.items], u.sel, t("hint_menu"))
    elif m == U.PICK:
        _pick(fb, u, game)
    elif m == U.WHO:
        _seats(fb, t("who_knocked_n") % (u.edit + 1), game.players, t("hint_who"))
    elif m == U.METHOD:
        names = [t("method%d" % i) for i in (1, 2, 3)]
        _list(fb, t("new_game"), names, u.method - 1, t("hint_method"))
    elif m == U.PLAYERS:
        _seats(fb, t("players"), u.players, t("hint_players"), u.cursor)
    elif m == U.ROLES:
        _roles(fb, u)
    elif m == U.SETTINGS:
        _settings(fb, u, settings)
    elif m == U.ERASE:
        _erase(fb, u)
    if u.msg:
        _note(fb, u.msg)


# ---- pieces --------------------------------------------------------------------------------

def _bar(fb, left, right=""):
    fb.fill_rect(0, 0, W, _BAR, 1)
    rw = text.width(right, small) if right else 0
    text.draw(fb, text.fit(left, small, W - rw - 10), 3, 1, small, 0)
    if right:
        text.draw(fb, right, W - rw - 3, 1, small, 0)


def _hint(fb, s):
    if _quiet[0]:
        return
    fb.hline(0, _FOOT - 2, W, 1)
    text.draw(fb, text.fit(s, small, W - 4), 2, _FOOT + 1, small)


def _note(fb, msg):
    # A note replaces the hint line, white on black so it is seen.
    # "key|argument" for a note of the string table; anything else (a rules-core message, which
    # may hold a player's name with any character in it) is shown as it is.
    key, _, arg = msg.partition("|")
    if arg and t(key) != key:
        msg = t(key) % arg
    else:
        msg = t(msg)
    fb.fill_rect(0, _FOOT - 2, W, H - _FOOT + 2, 1)
    text.draw(fb, text.fit(msg, small, W - 4), 2, _FOOT + 1, small, 0)


def _center(fb, s, x, y, w, font, color=1):
    s = text.fit(s, font, w - 2)
    text.draw(fb, s, x + (w - text.width(s, font)) // 2, y, font, color)


def _cols(fb, top, bottom):
    for i in (1, 2):
        fb.vline(i * (_COL + 1) - 1, top, bottom - top, 1)


def _label(fb, s, x, y, inverted):
    # A small label centred in a seat's column; inverted (white on black) to stand out.
    s = text.fit(s, small, _COL - 8)
    w = text.width(s, small) + 6
    x0 = x + (_COL - w) // 2
    if inverted:
        fb.fill_rect(x0, y, w, 13, 1)
    text.draw(fb, s, x0 + 3, y, small, 0 if inverted else 1)


_veil_fb: list = []


def _veil():
    # White dots every 4 px on every other row, staggered (rows 0, 4, 8... from x 2; rows 2, 6...
    # from x 0), 1 = see-through: blitted with key 1 over a score. Built once, 384 bytes.
    if not _veil_fb:
        row = b"\xdd" * 12 + b"\xff" * 12 + b"\x77" * 12 + b"\xff" * 12
        _veil_fb.append(framebuf.FrameBuffer(bytearray(row * 8), _COL - 8, 32,
                                             framebuf.MONO_HLSB))
    return _veil_fb[0]


def _method_title(game):
    r = game.rules
    target = r["m3_target"] if game.method == 3 else r["target"]
    return "%s · %s %d" % (t("method%d" % game.method), t("target"), target)


def describe(hand, players):
    """One line for a hand: 'Ann knocks 5 · Bob 20 · Cy 30', 'Void hand'."""
    if "void" in hand:
        return t("void_hand")
    kind = "knock" if "knock" in hand else "gin"
    who = hand[kind]
    cs = hand["counts"]
    parts = [t("x_knocks_n" if kind == "knock" else "x_gin") % ((players[who], cs[who])
                                                               if kind == "knock" else players[who])]
    for s in ((who + 1) % 3, (who + 2) % 3):
        if cs[s] is not None:
            parts.append("%s %d" % (players[s], cs[s]))
    return " · ".join(parts)


def _result(kind, winners, points, players):
    """What a hand scores: 'Ann +45', 'Bob undercuts +27 · Cy −20'."""
    if kind == "void":
        return t("void_result")
    parts = []
    for w in winners:
        p = points[w]
        parts.append((t("x_undercuts") if kind == "undercut" else "%s") % players[w]
                     + " " + _signed(p))
    for s in range(3):
        if points[s] < 0:
            parts.append("%s %s" % (players[s], _signed(points[s])))
    return " · ".join(parts)


def _signed(n):
    return ("+%d" % n) if n >= 0 else ("−%d" % -n)


# ---- screens -------------------------------------------------------------------------------

def _empty(fb):
    _bar(fb, "Knockbox")
    _center(fb, t("no_game"), 0, 44, W, medium)
    _hint(fb, t("hint_empty"))


def _score(fb, game, settings, sync):
    right = t("hand_n") % (len(game.hands) + 1)
    if sync:
        right = t("syncing") + " · " + right
    _bar(fb, _method_title(game), right)
    _cols(fb, _BAR + 2, _FOOT - 4)
    for s in range(3):
        x = s * (_COL + 1)
        text.draw(fb, "ABC"[s], x + 2, _BAR + 2, small)
        _center(fb, game.players[s], x + 12, _BAR + 2, _COL - 16, medium)
        out = s not in game.active
        _center(fb, str(game.totals[s]), x, 34, _COL, large)
        if out:
            # Sitting out: a dotted veil over the score, so the eye skips this column.
            fb.blit(_veil(), x + 4, 34, 1)
        y = 70
        if game.method == 2:
            _label(fb, t("in_box") if s == game.start["box"] else t("partners"), x, y, False)
            y += 14
        if s == game.dealer:
            _label(fb, t("deals"), x, y, True)
        elif out:
            _label(fb, t("sits_out"), x, y, False)
        _label(fb, "%s %d" % (t("boxes"), game.boxes[s]), x, 98, False)
    _hint(fb, t("hint_score"))


def _over(fb, game):
    st = game.standings(False)
    names = [game.players[w] for w in st["winners"]]
    _bar(fb, t("game_over") + " · " + t("x_wins" if len(names) == 1 else "x_win") % " & ".join(names))
    _cols(fb, _BAR + 2, 82)
    for s in range(3):
        x = s * (_COL + 1)
        _center(fb, game.players[s], x, _BAR + 2, _COL, medium)
        _center(fb, str(st["final"][s]), x, 32, _COL, large)
        _label(fb, "%s %s" % (t("net"), _signed(st["net"][s])), x, 66, s in st["winners"])
    # Who pays whom: every payment is shown (up to three, one per pair); long names are
    # shortened so that one payment always fits a line, and the hint gives way to a third line.
    lines: list = []
    for p, q, a in st["payments"]:
        line = t("x_pays_y") % (text.fit(game.players[p], small, 100),
                                text.fit(game.players[q], small, 100), a)
        if lines and text.width(lines[-1] + " · " + line, small) <= W - 4:
            lines[-1] += " · " + line
        else:
            lines.append(line)
    if len(lines) > 2:
        _quiet[0] = True
    for i in range(len(lines)):
        text.draw(fb, text.fit(lines[i], small, W - 4), 2, 84 + 13 * i, small)
    _hint(fb, t("hint_over"))


def _counts(fb, u, game):
    who = game.players[u.who]
    title = (t("x_knocks") if u.kind == "knock" else t("x_gin")) % who
    if u.edit is not None:
        title = (t("hand_n") % (u.edit + 1)) + ": " + title
    _bar(fb, title, t("count"))
    _cols(fb, _BAR + 2, _FOOT - 4)
    cur = u.fields[u.cursor]
    for s in range(3):
        x = s * (_COL + 1)
        _center(fb, game.players[s], x, _BAR + 4, _COL, medium)
        c = u.counts[s]
        if s == cur:
            fb.fill_rect(x + 6, 36, _COL - 12, 40, 1)
        if c is None:
            _center(fb, "—", x, 40, _COL, medium)
        elif s == u.who and u.kind == "gin":
            _center(fb, t("gin"), x, 48, _COL, medium)
        else:
            _center(fb, str(c), x, 40, _COL, large, 0 if s == cur else 1)
        if s == u.who and u.kind == "knock":
            _label(fb, t("knock"), x, 84, False)
    _hint(fb, t("hint_count"))


def _confirm(fb, u, game):
    players = game.players
    if u.action == "undo":
        _bar(fb, t("undo_last"))
        text.draw(fb, text.fit(describe(u.hand, players), medium, W - 8), 4, 30, medium)
        _center(fb, t("undo_q"), 0, 60, W, medium)
        _hint(fb, t("hint_confirm"))
        return
    title = t("confirm") if u.action == "hand" else (t("hand_n") % (u.edit + 1)) + ": " + t("confirm")
    _bar(fb, title)
    text.draw(fb, text.fit(describe(u.hand, players), medium, W - 8), 4, 22, medium)
    try:
        if u.action == "edit":
            g = game.copy()
            g.replace(u.edit, u.hand)
            before = game.totals
            res = t("totals_change")
            after = g.totals
        else:
            kind, winners, points = game.preview(u.hand)
            res = _result(kind, winners, points, players)
            before = game.totals
            after = [before[i] + points[i] for i in range(3)]
    except ValueError as e:
        text.draw(fb, t("cannot_save"), 4, 50, medium)
        _quiet[0] = True
        _note(fb, str(e))
        return
    text.draw(fb, text.fit(res, medium, W - 8), 4, 44, medium)
    for s in range(3):
        x = s * (_COL + 1)
        _center(fb, "%s %d" % (players[s], after[s]), x, 74, _COL, small)
        if after[s] != before[s]:
            _center(fb, "(%s)" % _signed(after[s] - before[s]), x, 88, _COL, small)
    _hint(fb, t("hint_confirm"))


def _list(fb, title, items, sel, hint):
    _bar(fb, title)
    rows = 5
    first = 0 if sel < rows else sel - rows + 1
    for i in range(first, min(len(items), first + rows)):
        y = _BAR + 4 + (i - first) * 19
        if i == sel:
            fb.fill_rect(0, y - 1, W, 18, 1)
        text.draw(fb, text.fit(items[i], medium, W - 12), 8, y, medium, 0 if i == sel else 1)
    _hint(fb, hint)


def _pick(fb, u, game):
    items = ["%d. %s" % (i + 1, describe(game.hand(i), game.players))
             for i in range(len(game.hands))]
    _list(fb, t("edit_hand"), items, u.sel, t("hint_pick"))


def _seats(fb, title, names, hint, cursor=None, labels=None):
    _bar(fb, title)
    _cols(fb, _BAR + 2, _FOOT - 4)
    for s in range(3):
        x = s * (_COL + 1)
        _center(fb, "ABC"[s], x, _BAR + 6, _COL, large)
        if s == cursor:
            fb.fill_rect(x + 3, 58, _COL - 6, 20, 1)
        _center(fb, names[s], x, 60, _COL, medium, 0 if s == cursor else 1)
        if labels and labels[s]:
            _label(fb, labels[s], x, 84, True)
    _hint(fb, hint)


def _roles(fb, u):
    labels = ["", "", ""]
    steps = U.ROLE_STEPS[u.method]
    for key, q in steps:
        if key in u.start:
            labels[u.start[key]] = t("role_" + key)
    _seats(fb, t(u.role_question()), u.players, t("hint_roles"), None, labels)


def _settings(fb, u, settings):
    items = []
    for i in range(len(U.SETTING_ITEMS)):
        v = U.setting_value(settings, i)
        key = U.SETTING_ITEMS[i][0]
        if key == "sleep":
            v = t("n_min") % (v // 60)
        elif key == "language":
            v = t("lang_" + v)
        elif not isinstance(v, int):
            v = t("opt_" + v)
        v = ": " + v if isinstance(v, str) else ": %d" % v
        items.append(text.fit(t("set_" + key), medium, W - 12 - text.width(v, medium)) + v)
    _list(fb, t("settings"), items, u.sel, t("hint_settings"))


def _erase(fb, u):
    _bar(fb, t("erase_all"))
    _center(fb, t("erase_n") % u.erase_games, 0, 34, W, medium)
    _center(fb, t("hold_a"), 0, 60, W, medium)
    _hint(fb, t("hint_erase"))
