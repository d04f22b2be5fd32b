# The rules core's messages (knockcore.errors.GameError) and the journal's notes in Russian, one
# line per message: `English template|Russian template` (the same %s/%d/%r holes, in the same
# order). The English template is the key: knockfw.strings.t()
# finds a message here when the string tables do not know it, and only while the device speaks
# Russian (this module is loaded then, on the first such message). The laptop reads the same
# table for `knockbox --lang ru` (knockbox.commands.common). Words as the rules say them
# (RULES.md section 7). tests/test_text.py checks that every message of the core has a line.
TABLE = """
hand %d: |сдача %d: 
must be an object|должна быть объектом
unknown field %r|лишнее поле %r
needs exactly one of knock, gin, void|нужно одно из: knock (стук), gin (джин), void (ничья)
void must be true|void (ничья) должно быть true
a void hand has no counts|у ничьей нет очков
%s: seat must be 0, 1 or 2|%s: место должно быть 0, 1 или 2
%s: %s is sitting out|%s: %s — свободный игрок
counts: need one entry per seat (3)|очки: нужно по одному числу на место (3)
counts[%d]: %s is sitting out, use null|очки[%d]: %s — свободный игрок, нужно null
counts[%d]: missing count for %s|очки[%d]: нет очков игрока %s
counts[%d]: %r is not a count 0..98|очки[%d]: %r — не очки 0..98
gin: %s's count must be 0, not %d|джин: у %s должно быть 0 очков, а не %d
knock: %s's count %d is above the knock limit %d|стук: у %s %d очков, больше предела стука %d
the game is over|партия окончена
no hand %r to edit|нет сдачи %r, чтобы её изменить
nothing to undo|отменять нечего
the game starts twice|партия начата дважды
the game is closed|партия закрыта
%s before the game started|%s до начала партии
unknown event %r|неизвестное событие %r
%s: missing %s|%s: нет поля %s
event: must be an object|событие: должно быть объектом
game: a new game has a start record and no hands|партия: у новой партии есть начало и нет сдач
game record: must be an object|запись партии: должна быть объектом
game record: unknown field %r|запись партии: лишнее поле %r
game record: format must be %r|запись партии: формат должен быть %r
game record: missing %r|запись партии: нет поля %r
game record: hands must be a list|запись партии: сдачи должны быть списком
players: need exactly three|игроки: нужно ровно трое
players: each name must be a non-empty string|игроки: у каждого должно быть имя
players: names must differ|игроки: имена должны различаться
unknown method %r (use 1, 2 or 3)|неизвестный способ %r (1, 2 или 3)
start: must be an object|начало: должно быть объектом
start: %s must be a seat 0, 1 or 2|начало: %s — место 0, 1 или 2
start: the idle player cannot deal|начало: свободный игрок не сдаёт
start: method 1 takes idle and dealer|начало: первому способу нужны свободный и сдающий
start: the box player cannot be captain|начало: играющий в трудном положении не может быть капитаном
start: method 2 takes box and captain|начало: второму способу нужны играющий один и капитан
start: method 3 takes dealer only|начало: третьему способу нужен только сдающий
rules: must be an object|правила: должны быть объектом
rules: unknown preset %r (use seed or classic)|правила: неизвестный набор %r (seed или classic)
rules: %s must be one of %s|правила: %s — одно из: %s
rules: %s must be a whole number 0..100000|правила: %s — целое число 0..100000
rules: %s must be above 0|правила: %s — больше 0
rules: knock_limit must be 0..98|правила: knock_limit (предел стука) — 0..98
rules: unknown option %r|правила: неизвестная настройка %r
dropped a half-written last record|недописанная последняя запись отброшена
journal damaged after record %d: kept %d records, rest in %s.bad|журнал повреждён после записи %d: сохранено %d, остальное в %s.bad
finished an interrupted erase|прерванное стирание завершено
skipped %d journal records (record %d: %s)|пропущено записей журнала: %d (запись %d: %s)
not a game event|не событие партии
game %d twice|партия %d дважды
no game %d|нет партии %d
"""
