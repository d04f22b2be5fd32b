# Every string the device shows, in English and Russian, from one table.
#
#   from knockfw import strings
#   strings.set_lang("ru")          # from the settings; "en" (default) or "ru"
#   strings.t("deals")              # -> "Сдаёт"
#   strings.t("hand_n") % 12        # templates take % arguments; word order is per language
#   strings.t("deals", "en")        # one-off lookup in another language
#
# Adding a string is one line: "key": ("English", "Русский"),. tests/test_fonts.py checks that
# every key has both languages, that every character is in the fonts (no placeholder boxes)
# and that every value fits the width the UI budgets for it in max_w() below (add the budget
# there when a string lives in a narrow place; the default is a full-width medium line).
#
# Messages of the rules core (knockcore.errors.GameError) are short English text: they are
# shown as they are, in both languages. t() returns any key it does not know unchanged, so
# t(str(err)) is safe and never raises on the device.
#
# The table is a dict literal: its tuples of two str constants are folded by mpy-cross into the
# .mpy's constants, so import builds only the dict (measured by bench/bench_fonts.py).

LANGS = ("en", "ru")

_lang = 0  # index into each entry: 0 English, 1 Russian

_T = {
    # game methods (RULES.md 2-4)
    "method1": ("Cutthroat", "На вылет"),
    "method2": ("In the box", "Один против двух"),
    "method2_alt": ("Chouette", "Шуэтт"),
    "method3": ("All three", "Все трое"),
    "method": ("Method", "Способ"),
    # roles and scoreboard labels
    "target": ("Target", "Цель"),
    "deals": ("Deals", "Сдаёт"),
    "sits_out": ("Sits out", "Отдыхает"),
    "in_box": ("In the box", "В боксе"),
    "captain": ("Captain", "Капитан"),
    "partners": ("Partners", "Партнёры"),
    "hand": ("Hand", "Раздача"),
    "hand_n": ("Hand %d", "Раздача %d"),
    "boxes": ("Boxes", "Боксы"),
    "total": ("Total", "Сумма"),
    # recording a hand
    "knock": ("Knock", "Стук"),
    "gin": ("Gin", "Джин"),
    "void": ("Void", "Пусто"),
    "undercut": ("Undercut", "Андеркат"),
    "count": ("Count", "Очки"),
    "confirm": ("Confirm", "Подтвердить"),
    "cancel": ("Cancel", "Отмена"),
    "undo": ("Undo last hand", "Отменить последнюю раздачу"),
    "edit_hand": ("Edit hand", "Изменить раздачу"),
    "hint_who": ("A/B/C: who knocked", "A/B/C: кто постучал"),
    "hint_gin": ("A/B/C: who went gin", "A/B/C: у кого джин"),
    "hint_count": ("Up/Down: count", "Вверх/Вниз: очки"),
    "hint_confirm": ("A: confirm  C: back", "A: да  C: назад"),
    # games
    "new_game": ("New game", "Новая игра"),
    "next_game": ("Next game", "Следующая игра"),
    "game_over": ("Game over", "Игра окончена"),
    "wins": ("Wins", "Победа"),
    "x_wins": ("%s wins", "Победа: %s"),
    "pays": ("Pays", "Платит"),
    "x_pays_y": ("%s pays %s %d", "%s → %s: %d"),
    "final": ("Final", "Итог"),
    "net": ("Net", "Расчёт"),
    # settings
    "settings": ("Settings", "Настройки"),
    "preset": ("Preset", "Набор правил"),
    "language": ("Language", "Язык"),
    "lang_en": ("English", "English"),
    "lang_ru": ("Русский", "Русский"),
    "erase_all": ("Erase all games?", "Стереть все игры?"),
    "press_a": ("Press A to confirm", "Нажмите A для подтверждения"),
    # link and storage
    "syncing": ("Syncing", "Синхронизация"),
    "saved": ("Saved", "Сохранено"),
}


def set_lang(code):
    """Select the language for t(): "en" or "ru" (anything else selects English)."""
    global _lang
    _lang = 1 if code == "ru" else 0


def lang():
    """The language code t() uses now."""
    return LANGS[_lang]


def t(key, code=None):
    """The string for key in the current language (or in `code`); unknown keys come back as is."""
    e = _T.get(key)
    if e is None:
        return key
    if code is None:
        return e[_lang]
    return e[1 if code == "ru" else 0]


def keys():
    return list(_T)


def max_w():
    """{key: (font module name, pixels)}: the room the UI gives a string (tests check it).

    Keys not listed get FULL: one medium line across the 296 px screen. Templates are checked
    with long sample arguments (see tests/test_fonts.py)."""
    col = ("small", 96)  # a label under one seat's column: a third of the screen
    hint = ("small", 296)
    return {
        "deals": col, "sits_out": col, "in_box": col, "captain": col, "partners": col,
        "boxes": col, "total": col, "knock": col, "gin": col, "void": col, "undercut": col,
        "count": col, "wins": col, "pays": col, "final": col, "net": col, "target": col,
        "hint_who": hint, "hint_gin": hint, "hint_count": hint, "hint_confirm": hint,
        "x_pays_y": ("small", 296),
    }


FULL = ("medium", 296)
