"""The report's words in English and Russian. The Russian speaks as the rules do (RULES.md
section 7): сдача (hand), партия (game), сдаёт (deals), стучит / нокер (knocks / knocker),
джин, подрезка (undercut), ничья (a void hand), премия (bonus), свободный игрок (sits out),
"в трудном положении" (the box player of method 2), расчёт (settlement), платит (pays)."""

from __future__ import annotations
from typing import Any, TYPE_CHECKING

if TYPE_CHECKING:
    from markupsafe import Markup
    from collections.abc import Callable

EN = {
    "evening": "Evening %d",
    "games_title": "Games %s",
    "since_title": "Games since %s",
    "made": "Knockbox report, made %s",
    "n_game": "%d game",
    "n_games": "%d games",
    "summary": "The evening",
    "summary_games": "All these games",
    "net_chart": "Net points per player",
    "settlement": "Settlement",
    "pays": "pays",
    "payer": "pays",
    "payee": "receives",
    "points": "points",
    "money": "money",
    "stake": "%s per point",
    "all_square": "All square: nobody pays.",
    "left_out": "Not settled: %s",
    "player": "player",
    "games": "games",
    "wins": "wins",
    "net": "net",
    "ledger": "Per player",
    "stats": "Statistics",
    "hands": "hands",
    "hands_won": "hands won",
    "gins": "gins",
    "undercuts": "undercuts",
    "avg_points": "points per hand",
    "game": "Game %d",
    "method1": "Method 1: cutthroat (the loser sits out)",
    "method2": "Method 2: in the box (one against two)",
    "method3": "Method 3: all three play",
    "in_box": "in the box",
    "partners": "partners",
    "status_over": "finished",
    "status_playing": "still being played",
    "status_abandoned": "ended unfinished",
    "status_invalid": "refused by the rules core",
    "hand": "hand",
    "dealer": "deals",
    "result": "result",
    "knock": "%s knocks",
    "gin": "%s: gin",
    "undercut": "%s knocks, undercut: %s",
    "tie": "%s knocks, a tie: %s",
    "void": "void",
    "sat_out": "sat out",
    "advises": "advises",
    "and": " and ",
    "boxes": "hands won",
    "final": "final, with bonuses",
    "game_net": "settlement",
    "winner": "Winner: %s",
    "winners": "Winners: %s",
    "target": "target %d",
    "so_far": "The totals so far: the game is not over.",
    "axis_hand": "hand",
    "axis_points": "points",
    "synced": "synced %s",
    "rules": "rules: %s",
}

RU = {
    "evening": "Вечер %d",
    "games_title": "Партии %s",
    "since_title": "Партии с %s",
    "made": "Отчёт Knockbox, составлен %s",
    "n_game": "партий: %d",
    "n_games": "партий: %d",
    "summary": "Итог вечера",
    "summary_games": "Итог этих партий",
    "net_chart": "Выигрыш и проигрыш по игрокам, очки",
    "settlement": "Расчёт",
    "pays": "платит",
    "payer": "платит",
    "payee": "получает",
    "points": "очки",
    "money": "деньги",
    "stake": "%s за очко",
    "all_square": "Все в расчёте: никто не платит.",
    "left_out": "Не вошли в расчёт: %s",
    "player": "игрок",
    "games": "партии",
    "wins": "победы",
    "net": "расчёт",
    "ledger": "По игрокам",
    "stats": "Статистика",
    "hands": "сдачи",
    "hands_won": "выигранные сдачи",
    "gins": "джин",
    "undercuts": "подрезки",
    "avg_points": "очков за сдачу",
    "game": "Партия %d",
    "method1": "Первый способ: на вылет (проигравший выходит)",
    "method2": "Второй способ: один против двух",
    "method3": "Третий способ: играют все трое",
    "in_box": "в трудном положении",
    "partners": "партнёры",
    "status_over": "партия окончена",
    "status_playing": "партия идёт",
    "status_abandoned": "партия прервана",
    "status_invalid": "отвергнута правилами",
    "hand": "сдача",
    "dealer": "сдаёт",
    "result": "розыгрыш",
    "knock": "%s стучит",
    "gin": "%s: джин",
    "undercut": "%s стучит, подрезка: %s",
    "tie": "%s стучит, равенство: %s",
    "void": "ничья",
    "sat_out": "свободный",
    "advises": "советует",
    "and": " и ",
    "boxes": "выигранные сдачи",
    "final": "итог с премиями",
    "game_net": "расчёт",
    "winner": "Победитель: %s",
    "winners": "Победители: %s",
    "target": "партия до %d",
    "so_far": "Счёт на сейчас: партия не окончена.",
    "axis_hand": "сдача",
    "axis_points": "очки",
    "synced": "получена %s",
    "rules": "правила: %s",
}

LANGS = {"en": EN, "ru": RU}


def hand_result(
    h: dict[str, Any],
    x: dict[str, Any],
    names: list[str | Markup],
    words: dict[str, str],
    word: type[str] | Callable = str,
    join: Callable | None = None,
) -> str | Markup:
    """What happened in a hand, in words: h the record's hand, x the standings' hand, names the
    players' names as the output shows them; word(text) makes one of the words ready for the
    output (the page: escape), join(names) joins two winners (default: the words' "and").

    Who knocked is the record's knocker, whoever won; in method 3 an opponent who ties the
    knocker's count wins, and the words call it a tie (the rules' word: "равенство"; "ничья" is a
    void hand), in methods 1 and 2 a tie is an undercut like any lower count."""
    if x["kind"] == "void":
        return word(words["void"])
    if x["kind"] == "gin":
        return word(words["gin"]) % names[h["gin"]]
    knocker = names[h["knock"]]
    if x["kind"] == "undercut":
        cs = h["counts"]
        tie = None not in cs and cs[x["winners"][0]] == cs[h["knock"]]
        won = [names[s] for s in x["winners"]]
        both = join(won) if join else words["and"].join(won)
        return word(words["tie" if tie else "undercut"]) % (knocker, both)
    return word(words["knock"]) % knocker
