# The device's strings in Russian, one line per key: `key|text`, where %s and %d are filled in
# by the screens (word order is free). Every key is in both knockfw/strings_en.py and
# strings_ru.py, and the firmware asks for every key (tests/test_text_strings.py checks those, the
# placeholders, the glyphs and the widths).
# knockfw.strings loads only the language in use: the other one takes no RAM.
TABLE = """
method1|На вылет
method2|Один против двух
method3|Все трое
target|Партия до
deals|Сдаёт
sits_out|Свободный
advises|Советует
in_box|Один
partners|Партнёры
hand_n|Сдача %d
boxes|Взято
knock|Нокер
gin|Джин
count|Очки
confirm|Подтвердить
edit_hand|Изменить сдачу
hint_who|A/B/C: кто стучал · держать: джин · ▲: назад
hint_count|▲▼ очки · A/B/C игрок · снова: далее · держать: отмена
hint_confirm|A: записать · B: назад · C: отмена
x_knocks|%s стучит
x_knocks_n|%s стучит %d
x_gin|%s: джин
x_undercuts|%s: подрезка
void_hand|Ничья
void_result|Ничья: без очков, сдаёт тот же
undo_last|Отменить последнюю сдачу
undo_q|Отменить эту сдачу?
totals_change|Счёт после исправления:
cannot_save|Эту сдачу не записать
sits_out_x|%s не играет в этой сдаче
who_knocked_n|Сдача %d: кто стучал?
no_game|Партии ещё нет
hint_empty|Любая кнопка: меню → Новая партия
hint_score|A/B/C: нокер · держать: джин · ▲▼: меню
hint_over|A: следующая партия · ▲▼: меню
menu|Меню
back|Назад
hint_menu|▲▼: выбор · A: да · B/C: назад
hint_pick|▲▼ сдача · A: заново · B: ничья · C: назад
hint_method|▲▼: способ · A: далее · B/C: назад
players|Игроки
hint_players|A/B/C место · ▲▼ имя · снова: далее · держать: назад
hint_roles|A/B/C: выбрать · ▲▼: назад
cut_lowest|Кто вытянул младшую карту? (свободный)
cut_next_lowest|Кто вытянул следующую? (сдаёт)
cut_highest_box|Кто вытянул старшую карту? (в трудном положении)
cut_second|Кто вытянул вторую? (действующий партнёр, сдаёт)
cut_highest_deals|Кто вытянул старшую карту? (сдаёт)
role_idle|Свободный
role_dealer|Сдаёт
role_box|Один
role_captain|Действ. партнёр
set_preset|Правила
set_target|Партия до (1, 2)
set_m3_target|Партия до (все трое)
set_m1_extra|Доплата (1)
set_m3_formula|Очки за сдачу (3)
set_m3_penalty_on|Штраф за равенство (3)
set_lang|Язык
set_sleep_s|Сон через
n_min|%d мин
opt_seed|исходные
opt_classic|классические
opt_idle|платит свободный
opt_shutout|платит не взявший сдач
opt_literal|сумма других − своё
opt_pairwise|попарные разницы
opt_tie|при равенстве
opt_tie_or_undercut|равенство или подрезка
hint_settings|▲▼: выбор · A/B: менять · C: готово
erase_n|Партий на устройстве: %d
hint_erase|держать A: стереть · C: оставить
hold_a|Держите A, чтобы стереть
erase_failed|Стереть не удалось: %s
new_game|Новая партия
next_game|Следующая партия
game_over|Партия окончена
x_wins|Победа: %s
x_win|Победа: %s и %s
x_wins_pays|Победа: %s, платит %d
x_win_pay|Победа: %s и %s, платят по %d
x_pays_y|%s → %s: %d
net|Расчёт
settings|Настройки
lang_en|English
lang_ru|Русский
erase_all|Стереть все партии?
syncing|Синхронизация
saved|Сохранено

evening|Вечер
new_evening|Новый вечер
ev_title|Вечер · партий: %d
ev_none|Оконченных партий нет
ev_gw|партий %d · побед %d
ev_pts|очки: %d
ev_settle|Расчёт
ev_pays|%s → %s
ev_square|Никто никому не платит
ev_so_far|Партия идёт
ev_hint|▲▼: страницы · A/B/C: назад
ev_new_q|Начать новый вечер?
ev_new_1|Следующие партии — новый расчёт
ev_new_2|Ничего не стирается
about|Knockbox, версия %s
set_stake|Ставка за очко
ev_off|нет
"""
