"""The rules core's messages in the user's language on the laptop (`--lang`, default from the
locale): the same Russian the device shows, from the firmware's table knockfw/messages_ru.py
(English template -> Russian template), so there is one translation of each message.

    say(err, lang)          a knockcore.errors.GameError
    translate(text, lang)   a message already written out in English (e.g. kept in the history:
                            "record 4: hand 2: knock: Ann's count 11 is above the knock limit
                            10"), matched against the templates and said again
"""
import importlib
import re

from knockcore.errors import say as _say

# The laptop's own framing of a core message (history.replay_events) and its Russian.
_HOST = {"record %d: ": "запись %d: "}
_tables = {}


def table(lang):
    """{English template: template in lang}; empty for English."""
    if lang not in _tables:
        t = {}
        if lang != "en":
            mod = importlib.import_module("knockfw.messages_" + lang)
            for line in mod.TABLE.strip("\n").split("\n"):
                en, _, tr = line.partition("|")
                t[en] = tr
            if lang == "ru":
                t.update(_HOST)
        _tables[lang] = t
    return _tables[lang]


def say(err, lang="en"):
    """A GameError's message in lang."""
    t = table(lang)
    return _say(err, lambda s: t.get(s, s)) if t else str(err)


def translate(text, lang="en"):
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
            rest = rest[m.end():]
    for en in sorted(t, key=len, reverse=True):     # the most specific template first
        if en in _HOST or en.startswith("hand %d"):
            continue
        m = re.fullmatch(_pattern(en), rest)
        if m:
            args = tuple(int(g) if f == "d" else g for g, f in zip(m.groups(),
                                                                     re.findall(r"%([sdr])", en)))
            return out + _fill(t[en], args)
    return out + rest


def _pattern(template):
    parts = re.split(r"(%[sdr])", template)
    return "".join({"%s": "(.+?)", "%r": "(.+?)", "%d": r"(-?\d+)"}.get(p, re.escape(p))
                   for p in parts)


def _fill(template, args):
    # %r holes keep the text matched as it was (already a repr)
    i = iter(args)
    return re.sub(r"%([sdr])", lambda m: str(next(i)), template)
