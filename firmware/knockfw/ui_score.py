# The scoreboard (knockfw.ui activity "score"): the game on the table, the game-over screen with
# who pays whom, or "No game yet".
#   A/B/C          that player knocked: enter the counts (held: went gin)
#   Up/Down        the menu
#   game over: A   the next game; B   the evening (knockfw.ui_evening)
from knockfw import screens as S
from knockfw import text
from knockfw.buttons import SEATS, STEPS
from knockfw.fonts import large, medium, small
from knockfw.strings import t


class Activity:
    mode = "score"

    def start(self, ui, game, settings, arg):
        return None

    def handle(self, ui, name, how, game, settings):
        if game is None:
            if name in SEATS or how == "press":
                return ui.open("menu", game, settings)
            return None
        if game.over:
            if name == "a" and how == "press":
                return ui.open("newgame", game, settings, "next")
            if name == "b" and how == "press":
                return ui.open("evening", game, settings)
            if name in STEPS:
                return ui.open("menu", game, settings)
            return None
        if name in STEPS:
            if how == "press":
                return ui.open("menu", game, settings)
            return None
        seat = SEATS.index(name)
        if seat not in game.active:
            ui.say("sits_out_x", game.players[seat])
            return None
        ending = "gin" if how == "long" else "knock"
        return ui.open("hand", game, settings, (ending, seat, None, None))

    def draw(self, fb, game, settings, sync):
        if game is None:
            S.bar(fb, "Knockbox")
            S.center(fb, t("no_game"), 0, 44, S.W, medium)
            return t("hint_empty")
        if game.over:
            return _over(fb, game)
        return _score(fb, game, sync)


_veil_fb: list = []


def _veil():
    # White dots every 4 px on every other row, staggered (rows 0, 4, 8... from x 2; rows 2, 6...
    # from x 0), 1 = see-through: blitted with key 1 over a score. Built once, 384 bytes.
    if not _veil_fb:
        import framebuf

        row = b"\xdd" * 12 + b"\xff" * 12 + b"\x77" * 12 + b"\xff" * 12
        _veil_fb.append(framebuf.FrameBuffer(bytearray(row * 8), S.COL - 8, 32, framebuf.MONO_HLSB))
    return _veil_fb[0]


def _score(fb, game, sync):
    r = game.rules
    target = r["m3_target"] if game.method == 3 else r["target"]
    right = t("hand_n") % (len(game.hands) + 1)
    if sync:
        right = t("syncing") + " · " + right
    S.bar(fb, "%s · %s %d" % (t("method%d" % game.method), t("target"), target), right)
    S.cols(fb, S.BAR + 2, S.FOOT - 4)
    for s in range(3):
        x = s * (S.COL + 1)
        text.draw(fb, "ABC"[s], x + 2, S.BAR + 2, small)
        S.center(fb, game.players[s], x + 12, S.BAR + 2, S.COL - 16, medium)
        out = s not in game.active
        S.center(fb, str(game.totals[s]), x, 34, S.COL, large)
        if out:
            # Sitting out: a dotted veil over the score, so the eye skips this column.
            fb.blit(_veil(), x + 4, 34, 1)
        y = 70
        if game.method == 2:
            S.label(fb, t("in_box") if s == game.start["box"] else t("partners"), x, y, False)
            y += 14
        if s == game.dealer:
            S.label(fb, t("deals"), x, y, True)
        elif out:
            # Method 2's partner who sits the hand out advises the one who plays.
            S.label(fb, t("advises" if game.method == 2 else "sits_out"), x, y, False)
        S.label(fb, "%s %d" % (t("boxes"), game.boxes[s]), x, 98, False)
    return t("hint_score")


def _winners(st, players):
    """The title bar: 'Game over · Ann wins', '... · Bob and Cy win' (method 2's partnership);
    with what a winner pays when box bonuses left him the lower final (the lower final pays):
    'Ann wins, pays 12', 'Bob and Cy win, pay 9 each'. The names share the room the rest leaves,
    so that the amount always shows."""
    ws = st["winners"]
    paid = 0
    for p, _q, a in st["payments"]:
        if p == ws[0]:
            paid += a
    two = len(ws) > 1
    won = t(("x_win_pay" if two else "x_wins_pays") if paid else ("x_win" if two else "x_wins"))
    tail = (paid,) if paid else ()
    head = t("game_over") + " · "
    room = (S.W - 10 - text.width(head + won % (("",) * len(ws) + tail), small)) // len(ws)
    return head + won % (tuple(text.fit(players[w], small, room) for w in ws) + tail)


def _over(fb, game):
    st = game.standings(False)
    S.bar(fb, _winners(st, game.players))
    S.cols(fb, S.BAR + 2, 82)
    for s in range(3):
        x = s * (S.COL + 1)
        S.center(fb, game.players[s], x, S.BAR + 2, S.COL, medium)
        S.center(fb, str(st["final"][s]), x, 32, S.COL, large)
        S.label(fb, "%s %s" % (t("net"), S.signed(st["net"][s])), x, 66, s in st["winners"])
    # Who pays whom: every payment is shown (up to three, one per pair); long names are
    # shortened so that one payment always fits a line, and the hint gives way to a third line.
    lines: list = []
    for p, q, a in st["payments"]:
        line = t("x_pays_y") % (
            text.fit(game.players[p], small, 100),
            text.fit(game.players[q], small, 100),
            a,
        )
        if lines and text.width(lines[-1] + " · " + line, small) <= S.W - 4:
            lines[-1] += " · " + line
        else:
            lines.append(line)
    for i in range(len(lines)):
        text.draw(fb, text.fit(lines[i], small, S.W - 4), 2, 84 + 13 * i, small)
    return t("hint_over") + " · B: " + t("evening") if len(lines) <= 2 else None
