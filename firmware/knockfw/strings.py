# Every string the device shows, in English and Russian, from one table.
#
#   from knockfw import strings
#   strings.set_lang("ru")          # from the settings; "en" (default) or "ru"
#   strings.t("deals")              # -> "Сдаёт"
#   strings.t("hand_n") % 12        # templates take % arguments; word order is per language
#   strings.t("deals", "en")        # one-off lookup in another language
#
# Adding a string is one line of _TABLE: key|English|Русский. tests/test_fonts.py checks that
# every key has both languages, that every character is in the fonts (no placeholder boxes)
# and that every value fits the width the UI budgets for it in max_w() below (add the budget
# there when a string lives in a narrow place; the default is a full-width medium line).
#
# Messages of the rules core (knockcore.errors.GameError) are short English text: they are
# shown as they are, in both languages. t() returns any key it does not know unchanged, so
# t(str(err)) is safe and never raises on the device.
#
# The table is one text constant, kept as one bytes object: a dict of 130 pairs of str objects
# took 22 KB of a 64-bit heap, the blob takes its own length (measured by bench/bench_fonts.py).
# Lookups are a find() over it in C; lines starting with # are comments.

LANGS = ("en", "ru")

_lang = 0  # index into each entry: 0 English, 1 Russian

_TABLE = """
# game methods (RULES.md 2-4)
method1|Cutthroat|На вылет
method2|In the box|Один против двух
method2_alt|Chouette|Шуэтт
method3|All three|Все трое
method|Method|Способ
# roles and scoreboard labels
target|Target|Цель
deals|Deals|Сдаёт
sits_out|Sits out|Отдыхает
in_box|In the box|В боксе
captain|Captain|Капитан
partners|Partners|Партнёры
hand|Hand|Раздача
hand_n|Hand %d|Раздача %d
boxes|Boxes|Боксы
total|Total|Сумма
# recording a hand
knock|Knock|Стук
gin|Gin|Джин
void|Void|Пусто
undercut|Undercut|Андеркат
count|Count|Очки
confirm|Confirm|Подтвердить
cancel|Cancel|Отмена
undo|Undo last hand|Отменить последнюю раздачу
edit_hand|Edit hand|Изменить раздачу
hint_who|A/B/C: who knocked · hold: gin · Up: back|A/B/C: кто постучал · держать: джин · ▲: назад
hint_gin|A/B/C: who went gin|A/B/C: у кого джин
hint_count|▲▼ count · A/B/C player · again: next · hold: cancel|▲▼ очки · A/B/C игрок · снова: далее · держать: отмена
hint_confirm|A: save · B: back · C: cancel|A: записать · B: назад · C: отмена
x_knocks|%s knocks|%s стучит
x_knocks_n|%s knocks %d|%s стучит %d
x_gin|%s: gin|%s: джин
x_undercuts|%s undercuts|%s: андеркат
void_hand|Void hand|Пустая раздача
void_result|No score; the same dealer deals again|Без очков; сдаёт тот же
undo_last|Undo last hand|Отменить последнюю раздачу
undo_q|Take this hand back?|Отменить эту раздачу?
totals_change|Scores after the correction:|Счёт после исправления:
cannot_save|Cannot save this hand|Эту раздачу не записать
sits_out_x|%s sits out this hand|%s отдыхает в этой раздаче
who_knocked_n|Hand %d: who knocked?|Раздача %d: кто постучал?
# scoreboard and menus
no_game|No game yet|Игры ещё нет
hint_empty|Any button: menu → New game|Любая кнопка: меню → Новая игра
hint_score|A/B/C: knocked · hold: gin · ▲▼: menu|A/B/C: стук · держать: джин · ▲▼: меню
hint_over|A: next game · ▲▼: menu|A: следующая игра · ▲▼: меню
menu|Menu|Меню
back|Back|Назад
hint_menu|▲▼: move · A: choose · B/C: back|▲▼: выбор · A: да · B/C: назад
hint_pick|▲▼ hand · A: record again · B: void · C: back|▲▼ раздача · A: заново · B: пустая · C: назад
hint_method|▲▼: method · A: next · B/C: back|▲▼: способ · A: далее · B/C: назад
players|Players|Игроки
hint_players|A/B/C seat · ▲▼ name · again: next · hold: back|A/B/C место · ▲▼ имя · снова: далее · держать: назад
hint_roles|A/B/C: choose · ▲▼: back|A/B/C: выбрать · ▲▼: назад
cut_lowest|Who cut the lowest card? (sits out)|Кто снял младшую карту? (отдыхает)
cut_next_lowest|Who cut the next lowest? (deals)|Кто снял следующую? (сдаёт)
cut_highest_box|Who cut the highest? (in the box)|Кто снял старшую? (в боксе)
cut_second|Who cut the second? (captain, deals)|Кто снял вторую? (капитан, сдаёт)
cut_highest_deals|Who cut the highest card? (deals)|Кто снял старшую карту? (сдаёт)
role_idle|Sits out|Отдыхает
role_dealer|Deals|Сдаёт
role_box|In the box|В боксе
role_captain|Captain|Капитан
# settings screen
set_preset|Rules|Правила
set_target|Target (1, 2)|Цель (1, 2)
set_m3_target|Target (all three)|Цель (все трое)
set_m1_extra|Extra payment (1)|Доплата (1)
set_m3_formula|Hand score (3)|Очки раздачи (3)
set_m3_penalty_on|Tie penalty (3)|Штраф за ничью (3)
set_language|Language|Язык
set_sleep|Sleep after|Сон через
n_min|%d min|%d мин
opt_seed|seed|seed
opt_classic|classic|classic
opt_idle|who sat out pays|платит отдыхавший
opt_shutout|who won nothing pays|платит без взяток
opt_literal|others' sum − own|сумма других − своё
opt_pairwise|pairwise differences|попарные разницы
opt_tie|on a tie|при ничьей
opt_tie_or_undercut|tie or undercut|ничья, андеркат
hint_settings|▲▼: move · A/B: change · C: done|▲▼: выбор · A/B: менять · C: готово
erase_n|Games on this device: %d|Игр на устройстве: %d
hint_erase|hold A: erase · C: keep|держать A: стереть · C: оставить
hold_a|Hold A to erase them|Держите A, чтобы стереть
# games
new_game|New game|Новая игра
next_game|Next game|Следующая игра
game_over|Game over|Игра окончена
wins|Wins|Победа
x_wins|%s wins|Победа: %s
x_win|%s win|Победа: %s
pays|Pays|Платит
x_pays_y|%s pays %s %d|%s → %s: %d
final|Final|Итог
net|Net|Расчёт
# settings
settings|Settings|Настройки
preset|Preset|Набор правил
language|Language|Язык
lang_en|English|English
lang_ru|Русский|Русский
erase_all|Erase all games?|Стереть все игры?
press_a|Press A to confirm|Нажмите A для подтверждения
# link and storage
syncing|Syncing|Синхронизация
saved|Saved|Сохранено
"""
_B = ("\n" + _TABLE).encode()
del _TABLE


def set_lang(code):
    """Select the language for t(): "en" or "ru" (anything else selects English)."""
    global _lang
    _lang = 1 if code == "ru" else 0


def lang():
    """The language code t() uses now."""
    return LANGS[_lang]


def t(key, code=None):
    """The string for key in the current language (or in `code`); unknown keys come back as is."""
    k = b"\n" + key.encode() + b"|"
    i = _B.find(k)
    if i < 0:
        return key
    i += len(k)
    j = _B.find(b"|", i)
    if (_lang if code is None else (1 if code == "ru" else 0)):
        i = j + 1
        j = _B.find(b"\n", i)
    return _B[i:j].decode()


def keys():
    out = []
    for line in _B.split(b"\n"):
        if line and not line.startswith(b"#"):
            out.append(line[:line.find(b"|")].decode())
    return out


def max_w():
    """{key: (font module name, pixels)}: the room the UI gives a string (tests check it).

    Keys not listed get FULL: one medium line across the 296 px screen. Templates are checked
    with long sample arguments (see tests/test_fonts.py)."""
    col = ("small", 96)  # a label under one seat's column: a third of the screen
    hint = ("small", 292)  # the hint line, 2 px margins
    return {
        "deals": col, "sits_out": col, "in_box": col, "captain": col, "partners": col,
        "boxes": col, "total": col, "knock": col, "gin": col, "void": col, "undercut": col,
        "count": col, "wins": col, "pays": col, "final": col, "net": col, "target": col,
        "hint_who": hint, "hint_gin": hint, "hint_count": hint, "hint_confirm": hint,
        "x_pays_y": ("small", 296),
        "role_idle": col, "role_dealer": col, "role_box": col, "role_captain": col,
        "sits_out_x": ("small", 292), "void_result": ("medium", 288),
        "hint_score": hint, "hint_over": hint, "hint_menu": hint, "hint_pick": hint,
        "hint_method": hint, "hint_players": hint, "hint_roles": hint, "hint_settings": hint,
        "hint_erase": hint, "hint_empty": hint,
    }


FULL = ("medium", 296)
