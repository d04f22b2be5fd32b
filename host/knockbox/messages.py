"""The rules core's messages in the user's language on the laptop (`--lang`, default from the
locale): the same Russian the device shows, from the firmware's table knockfw/messages_ru.py
(English template -> Russian template), so there is one translation of each message.

    error_text(err, lang)   a knockcore.errors.GameError
    translate(text, lang)   a message already written out in English (e.g. kept in the history:
                            "record 4: hand 2: knock: Ann's count 11 is above the knock limit
                            10"), matched against the templates and said again
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING

from knockcore.errors import say as _say

if TYPE_CHECKING:
    from collections.abc import Iterable
    from knockcore.errors import GameError

# The core's messages only the laptop shows (a malformed game record, rules, a start: the device
# makes none of these from its buttons), and the laptop's own framing of a core message
# (knockbox.fromevents.replay_events), in Russian; the rest are the device's lines (knockfw/messages_ru.py).
RU = """
record %d: |запись %d: 
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
start: the box player cannot be captain|начало: играющий в трудном положении не может быть действующим партнёром
start: method 2 takes box and captain|начало: второму способу нужны играющий в трудном положении и действующий партнёр
start: method 3 takes dealer only|начало: третьему способу нужен только сдающий
rules: must be an object|правила: должны быть объектом
rules: unknown preset %r (use seed or classic)|правила: неизвестный набор %r (seed или classic)
rules: %s must be one of %s|правила: %s — одно из: %s
rules: %s must be a whole number 0..100000|правила: %s — целое число 0..100000
rules: %s must be above 0|правила: %s — больше 0
rules: knock_limit must be 0..98|правила: knock_limit (предел стука) — 0..98
rules: unknown option %r|правила: неизвестная настройка %r
"""
_HOST = {"record %d: "}
_tables: dict = {}


def table(lang: str) -> dict[str, str]:
    """{English template: template in lang}; empty for English."""
    if lang not in _tables:
        t = {}
        if lang != "en":
            mod = importlib.import_module("knockfw.messages_" + lang)
            for text in (mod.TABLE, RU if lang == "ru" else ""):
                for line in text.strip("\n").split("\n"):
                    en, _, tr = line.partition("|")
                    t[en] = tr
        _tables[lang] = t
    return _tables[lang]


def error_text(err: GameError, lang: str = "en") -> str:
    """A GameError's message in lang."""
    t = table(lang)
    return _say(err, lambda s: t.get(s, s)) if t else str(err)


def translate(text: str, lang: str = "en") -> str:
    """An English core message (with its "record N: " / "hand N: " prefixes) in lang; a text
    that matches no template comes back as it is."""
    t = table(lang)
    if not t or not text:
        return text
    out = ""
    rest = text
    for prefix in ("record %d: ", "hand %d: "):
        m = re.match(_pattern(prefix), rest)
        if m:
            out += t[prefix] % int(m.group(1))
            rest = rest[m.end() :]
    for en in sorted(t, key=len, reverse=True):  # the most specific template first
        if en in _HOST or en.startswith("hand %d"):
            continue
        m = re.fullmatch(_pattern(en), rest)
        if m:
            args = tuple(
                int(g) if f == "d" else g for g, f in zip(m.groups(), re.findall(r"%([sdr])", en))
            )
            return out + _fill(t[en], args)
    return out + rest


def _pattern(template: str) -> str:
    parts = re.split(r"(%[sdr])", template)
    return "".join(
        {"%s": "(.+?)", "%r": "(.+?)", "%d": r"(-?\d+)"}.get(p, re.escape(p)) for p in parts
    )


def _fill(template: str, args: Iterable[object]) -> str:
    # %r holes keep the text matched as it was (already a repr)
    i = iter(args)
    return re.sub(r"%([sdr])", lambda m: str(next(i)), template)
