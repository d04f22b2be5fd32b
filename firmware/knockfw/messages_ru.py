# The rules core's messages that the device can show, and the journal's notes, in Russian: a
# refused hand or correction (a hand's seats and counts, the game over, nothing to undo) and what
# boot repaired or skipped (with the core's words for a record that does not fit its game). One line per message: `English template|Russian template` (the same %s/%d/%r
# holes, in the same order). The English template is the key: knockfw.strings.t() finds a message
# here when the string tables do not know it, and only while the device speaks Russian (this
# module is loaded then, on the first such message). The laptop says them with the same lines
# (knockbox.messages, which adds the core's messages about malformed records and rules, which
# only the laptop shows). Words as the rules say them (RULES.md section 7).
# tests/test_text_strings.py checks that every message of the core has its Russian here or on the
# laptop.
TABLE = """
hand %d: |сдача %d: 
must be an object|должна быть объектом
unknown field %r|лишнее поле %r
needs exactly one of knock, gin, void|нужно одно из: knock (стук), gin (джин), void (ничья)
void must be true|void (ничья) должно быть true
a void hand has no counts|у ничьей нет очков
%s: seat must be 0, 1 or 2|%s: место должно быть 0, 1 или 2
%s: %s is sitting out|%s: %s не играет в этой сдаче
counts: need one entry per seat (3)|очки: нужно по одному числу на место (3)
counts[%d]: %s is sitting out, use null|очки[%d]: %s не играет в этой сдаче, нужно null
counts[%d]: missing count for %s|очки[%d]: нет очков игрока %s
counts[%d]: %r is not a count 0..98|очки[%d]: %r — не очки 0..98
gin: %s's count must be 0, not %d|джин: у %s должно быть 0 очков, а не %d
knock: %s's count %d is above the knock limit %d|стук: у %s %d очков, больше предела стука %d
the game is over|партия окончена
no hand %r to edit|нет сдачи %r, чтобы её изменить
nothing to undo|отменять нечего
the game is closed|партия закрыта
dropped a half-written last record|недописанная последняя запись отброшена
journal damaged after record %d: kept %d records, rest in %s.bad|журнал повреждён после записи %d: сохранено %d, остальное в %s.bad
finished an interrupted erase|прерванное стирание завершено
skipped %d journal records (record %d: %s)|пропущено записей журнала: %d (запись %d: %s)
not a game event|не событие партии
game %d twice|партия %d дважды
no game %d|нет партии %d
the game starts twice|партия начата дважды
%s before the game started|%s до начала партии
unknown event %r|неизвестное событие %r
%s: missing %s|%s: нет поля %s
event: must be an object|событие: должно быть объектом
"""
