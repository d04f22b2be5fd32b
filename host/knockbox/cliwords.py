"""The words of the laptop's text commands `show` and `history` in English and Russian (`--lang`,
default from the locale, as `replay`). What happened in a hand, and a game's status, are said as
the report says them (knockbox.report.words: one wording of each thing, the rules' words of
RULES.md section 7); the rules core's messages are knockbox.messages'."""

EN: dict[str, str] = {
    # show
    "show_head": "game %d: method %d, %s; %s; %ssynced %s from device %s (epoch %d, %s)",
    "show_evening": "evening %d; ",
    "show_gid": "game %d",
    "show_replaced": "its game number since given to another game",
    "refused_at": "refused by the rules core at %s",
    "rules": "rules: %s",
    "hand": "hand",
    "dealer": "dealer",
    "result": "result",
    "totals": "totals",
    "boxes": "boxes",
    "final": "final",
    "net": "net",
    "winner": "winner: %s",
    "winners": "winners: %s",
    "pays": "%s pays %s %d",
    "next": "next: %s deals",
    "sits_out": ", %s sits out",
    "advises": ", %s advises",
    # history
    "no_games": "no games yet: `knockbox sync` pulls them from the device",
    # a game's status (history's column, show's first line)
    "over": "over",
    "playing": "playing",
    "abandoned": "abandoned",
    "invalid": "invalid",
    "replaced": " (replaced on the device by another game)",
}

RU: dict[str, str] = {
    "show_head": "партия %d: способ %d, %s; %s; %sполучена %s с устройства %s (эпоха %d, %s)",
    "show_evening": "вечер %d; ",
    "show_gid": "партия %d",
    "show_replaced": "её номер потом получила другая партия",
    "refused_at": "отвергнута правилами: %s",
    "rules": "правила: %s",
    "hand": "сдача",
    "dealer": "сдаёт",
    "result": "розыгрыш",
    "totals": "очки",
    "boxes": "взято",
    "final": "с премиями",
    "net": "расчёт",
    "winner": "победа: %s",
    "winners": "победа: %s",
    "pays": "%s → %s: %d",
    "next": "дальше: сдаёт %s",
    "sits_out": ", свободный: %s",
    "advises": ", советует %s",
    "no_games": "партий пока нет: `knockbox sync` получит их с устройства",
    "over": "окончена",
    "playing": "идёт",
    "abandoned": "прервана",
    "invalid": "отвергнута",
    "replaced": " (на устройстве заменена другой партией)",
}

LANGS = {"en": EN, "ru": RU}

# history's column heads
HEADS = {
    "en": (
        "id",
        "synced",
        "device",
        "evening",
        "method",
        "players",
        "hands",
        "winner",
        "status",
    ),
    "ru": (
        "№",
        "получена",
        "устройство",
        "вечер",
        "способ",
        "игроки",
        "сдачи",
        "победа",
        "состояние",
    ),
}
