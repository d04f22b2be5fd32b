"""knockfw.strings and the string catalogue: both languages, every key asked for, placeholders,
glyphs and width budgets, the Russian words and messages; and the glyph lookup of
knockfw.text for any code point, under the MicroPython unix port where the device code runs.
Drawing and fit(): test_text_render.py.
"""

import json
import os
import re
import zlib

from kit import catalog
from kit import mp
from kit.textref import FONTS, ROOT, filled, has_glyph, large, medium, ref_width, small


# ---- glyphs -------------------------------------------------------------------------------------


def test_each_glyph_of_a_string_is_its_own_not_the_placeholder():
    for s, font in (("Ёжик Иван", medium), ("Ёжик Иван", small), ("0123456789+-/", large)):
        for ch in s:
            assert ch == " " or has_glyph(font, ch), (ch, font.__name__)


# ---- the glyph lookup in native code agrees with the reference everywhere ------------------------

FIND = r"""
import binascii, framebuf
from knockfw import text
from knockfw.fonts import large, medium, small

class Panel(framebuf.FrameBuffer):      # 64 x 32, MONO_VLSB as the e-ink drivers
    def __init__(self):
        self.buf, self.width, self.height = bytearray(256), 64, 32
        super().__init__(self.buf, 64, 32, framebuf.MONO_VLSB)

fb = Panel()
out = []
for f in (large, medium, small):
    # (chr() interns each new character as a qstr that is never freed: keep the set modest)
    for codes in (range(0, 0xD800, 101), range(0x20, 0x480), range(0x2010, 0x2030),
                  range(0x2190, 0x21A0), range(0x2200, 0x2220), range(0x25A0, 0x25D0),
                  range(0x2700, 0x2720), (0xFFFD, 0xFFFF, 0x10000, 0x1F600)):
        for c in codes:
            ch = chr(c)
            text.clear(fb)
            w = text.draw(fb, ch, 0, 0, f)
            out.append("%d %d %d" % (c, w, binascii.crc32(fb.buf)))
print(";".join(out))
"""


def _ref_panel(font, c):
    """The 64 x 32 MONO_VLSB panel with code point c's cell drawn at (0, 0), from the reference."""
    cols, h, w = font.get_ch(chr(c))
    pages = (h + 7) // 8
    panel = bytearray(256)
    for x in range(w):
        for q in range(pages):
            panel[q * 64 + x] = cols[x * pages + q]
    return w, zlib.crc32(panel)


def test_native_lookup_and_draw_agree_with_the_reference_for_any_code_point():
    # Not a heap test: each chr() interns a qstr for good, and at 192 KB whether ~7,000 of them
    # fit depended on the length of the checkout's path (it failed in one worktree, not another).
    r = mp.run(FIND, heap="1M")
    assert r.returncode == 0, r.stderr
    got = [tuple(map(int, e.split())) for e in r.stdout.strip().split(";")]
    assert len(got) > 5000
    n = len(got) // 3
    bad = []
    for i, (c, w, crc) in enumerate(got):
        font = (large, medium, small)[i // n]
        if (w, crc) != _ref_panel(font, c):
            bad.append((font.__name__, hex(c)))
    assert bad == []
    # most of those code points are in no face: they drew the placeholder
    assert (
        sum(1 for i, e in enumerate(got) if e[0] not in (large, medium, small)[i // n].cells) > 5000
    )


# ---- strings ------------------------------------------------------------------------------------


def test_every_key_has_both_languages_with_the_same_placeholders():
    keys = catalog.keys()
    assert len(keys) >= 45 and len(set(keys)) == len(keys)
    assert [k for k in keys if not re.fullmatch(r"[a-z][a-z0-9_]*", k)] == []
    for code in catalog.LANGS:  # a line per key, in the keys' order: none missing or extra
        assert len(catalog.lines(code)) == len(keys), code
    for key in catalog.keys():
        en, ru = catalog.text(key, "en"), catalog.text(key, "ru")
        assert en.strip() and ru.strip(), key
        assert re.findall(r"%[sd]", en) == re.findall(r"%[sd]", ru), key
        assert "%" not in re.sub(r"%[sd]", "", en + ru), key


def test_brief_strings_present():
    want = [
        "Cutthroat",
        "In the box",
        "All three",
        "Target",
        "Deals",
        "Sits out",
        "Partners",
        "Knock",
        "Gin",
        "Count",
        "Confirm",
        "Undo last hand",
        "Edit hand",
        "New game",
        "Next game",
        "Settings",
        "Game over",
        "Net",
        "Hand %d",
        "Boxes",
        "Language",
        "English",
        "Русский",
        "Erase all games?",
        "Hold A to erase them",
        "Syncing",
        "Saved",
    ]
    english = set(catalog.table("en").values())
    assert [w for w in want if w not in english] == []


def calls(src, name):
    """The argument text of every call name(...) in src."""
    out = []
    for m in re.finditer(r"\b%s\(" % name, src):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(src[i], 0)
            i += 1
        out.append(src[m.end() : i - 1])
    return out


def asked_for():
    """The string keys the firmware asks for: the literals in its t() and say() calls, the keys
    it builds ("method%d", "opt_" + value...) from the tables they come from, and the keys in
    its tables of string keys (the menu's entries, the role questions)."""
    from knockcore.rules import CHOICES, PRESETS
    from knockfw import strings, ui_menu, ui_newgame, ui_settings

    src = ""
    for name in sorted(os.listdir(os.path.join(ROOT, "firmware", "knockfw"))):
        if name.endswith(".py") and not name.startswith("strings_"):
            with open(os.path.join(ROOT, "firmware", "knockfw", name), encoding="utf-8") as f:
                src += f.read()
    built = {
        "method%d": ["method%d" % m for m in (1, 2, 3)],
        "opt_": [
            "opt_" + v
            for k, vs in ui_settings.ITEMS
            for v in vs
            if isinstance(v, str) and k != "lang"
        ],
        "set_": ["set_" + k for k, _vs in ui_settings.ITEMS],
        "lang_": ["lang_" + c for c in strings.LANGS],
        "role_": ["role_" + k for q in ui_newgame.ROLES.values() for k, _q in q],
    }
    assert set(built["opt_"]) == {"opt_" + v for v in PRESETS + sum(CHOICES.values(), ())}
    keys = set()
    for arg in calls(src, "t") + calls(src, "say"):
        arg = re.sub(r'\[\s*"[^"]*"\s*\]', "", arg)  # an index (e["t"]) is not a key
        for lit in re.findall(r'"([^"]*)"', arg):
            keys.update(built.get(lit, [lit]))
    keys.update(e[0] for e in ui_menu.ENTRIES)
    keys.update(q for qs in ui_newgame.ROLES.values() for _k, q in qs)
    return keys, src


def test_every_key_is_asked_for_by_the_firmware_and_every_key_it_asks_for_exists():
    keys, src = asked_for()
    assert "syncing" in keys and "cut_second" in keys and "opt_tie_or_undercut" in keys
    assert sorted(set(catalog.keys()) - keys) == []  # strings nothing draws
    assert sorted(keys - set(catalog.keys())) == []  # keys with no string


def test_no_stale_button_help():
    # Erasing takes a long press of A (knockfw.ui_erase): no text may offer a short one.
    for code in catalog.LANGS:
        for key, s in catalog.table(code).items():
            if "erase" in key:
                assert not re.search(r"(^|· )A: ", s), (code, key, s)


def test_every_string_fits_its_budget_and_has_no_missing_glyph():
    budgets = catalog.BUDGETS
    assert set(budgets) <= set(catalog.keys())
    for key in catalog.keys():
        fname, px = budgets.get(key, catalog.FULL)
        for code in catalog.LANGS:
            s = filled(catalog.text(key, code))
            for font in (FONTS[fname], medium, small):
                missing = [ch for ch in s if ch != " " and not has_glyph(font, ch)]
                assert not missing, (key, code, missing)
            assert ref_width(s, FONTS[fname]) <= px, (key, code, s, ref_width(s, FONTS[fname]))


T = r"""
from knockfw import strings as S
import gc, sys
r = [S.lang(), S.t("deals")]
S.set_lang("ru")
r += [S.lang(), S.t("deals"), S.t("deals"), S.t("hand_n") % 12, S.t("no such key")]
r += [str("knockfw.strings_ru" in sys.modules or hasattr(sys.modules["knockfw"], "strings_ru"))]
S.set_lang("xx")
r += [S.lang(), S.t("lang_ru"), S.t("hand: count 99 is above 98"), S.t("deals")]
print("|".join(r))
"""


def test_t_under_micropython():
    r = mp.run(T)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().split("|") == [
        "en",
        "Deals",
        "ru",
        "Сдаёт",
        "Сдаёт",
        "Сдача 12",
        "no such key",
        "False",
        "en",
        "Русский",
        "hand: count 99 is above 98",
        "Deals",
    ]


EVERY = r"""
import sys, json
from knockfw import strings as S
out = {}
messages = json.loads(sys.stdin.read())
for code in S.LANGS:
    S.set_lang(code)
    out[code] = [S.t(k) for k in S.KEYS.strip("\n").split("\n")]
    out[code + " messages"] = [S.t(m) for m in messages]
print(json.dumps(out))
"""


def test_every_string_and_message_as_the_device_build_has_them(tmp_path):
    # The device's build: the Russian tables packed (firmware/manifest.py's table(), a letter a
    # byte) and unpacked by knockfw.strings' native code. Every string of both languages and
    # every message comes out as the tables' text says.
    import importlib

    lines = importlib.import_module("knockfw.messages_ru").TABLE.strip("\n").split("\n")
    messages = dict(line.split("|", 1) for line in lines)
    lib = mp.build(
        str(tmp_path),
        modules=[
            "knockfw.strings",
            "knockfw.settings",
            "knockfw.strings_en",
            "knockfw.strings_ru",
            "knockfw.messages_ru",
        ],
    )
    packed = (tmp_path / "knockfw" / "strings_ru.mpy").stat().st_size
    assert packed < len(importlib.import_module("knockfw.strings_ru").TABLE.encode())
    r = mp.run(EVERY, paths=[lib], stdin=json.dumps(sorted(messages)))
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(r.stdout)
    for code in catalog.LANGS:
        assert got[code] == [catalog.text(k, code) for k in catalog.keys()], code
    assert got["ru messages"] == [messages[m] for m in sorted(messages)]
    assert got["en messages"] == sorted(messages)  # English: the template itself


# ---- Russian as the rules speak it (RULES.md section 7) ------------------------------------------

GLOSSARY = [
    "сдача",
    "партия",
    "сдаёт",
    "нокер",
    "стуч",
    "джин",
    "подрезка",
    "ничья",
    "доплата",
    "равенств",
    "свободный",
    "в трудном положении",
    "действующий партнёр",
    "вытянул",
    "взято",
    "партия до",
    "расчёт",
    "платит",
]
OLD_WORDS = [r"раздач", r"андеркат", r"\bпуст", r"\bбокс", r"\bигр(а|ы|у|е|ой|ам)?\b"]


def test_russian_screens_speak_the_rules_words():
    ru = " ".join(catalog.table("ru").values()).lower()
    missing = [w for w in GLOSSARY if w not in ru]
    assert missing == [], missing
    old = [
        (w, k) for k, v in catalog.table("ru").items() for w in OLD_WORDS if re.search(w, v.lower())
    ]
    assert old == [], old


def _ru_all():
    """Every Russian text the device and the laptop show: {key or English template: text}."""
    import importlib

    from knockbox import messages

    out = dict(catalog.table("ru"))
    out.update(messages.table("ru"))
    assert importlib.import_module("knockfw.messages_ru").TABLE  # (read by messages.table)
    return out


def test_russian_as_the_rules_audit_asks():
    # the rules audit of the Russian words (docs/RULES.md, "In Russian"), point by point.
    ru = catalog.table("ru")
    everything = _ru_all()
    # "ничья" is the drawn (void) hand only; the tie with the knocker is "равенство"
    assert sorted(k for k, v in everything.items() if re.search("нич(ь|ей)", v.lower())) == sorted(
        [
            "void_hand",
            "void_result",
            "hint_pick",
            "needs exactly one of knock, gin, void",
            "void must be true",
            "a void hand has no counts",
        ]
    )
    assert ru["set_m3_penalty_on"].startswith("Штраф за равенство")
    assert "равенств" in ru["opt_tie"] and "равенство" in ru["opt_tie_or_undercut"]
    # method 1's extra 100 is an additional payment, not a bonus
    assert ru["set_m1_extra"].startswith("Доплата") and "преми" not in ru["set_m1_extra"].lower()
    # no captain: the playing partner
    assert [k for k, v in everything.items() if "капитан" in v.lower()] == []
    assert "действующий партнёр" in ru["cut_second"] and "партнёр" in ru["role_captain"]
    # the cut: who drew ("вытянул") which card, never "снял" (cutting the deck), never "старший"
    # alone (the elder hand)
    cuts = [k for k in ru if k.startswith("cut_")]
    assert len(cuts) == 5
    for k in cuts:
        assert ru[k].startswith("Кто вытянул ") and "снял" not in ru[k], (k, ru[k])
    assert [v for v in everything.values() if re.search(r"\bснял|\bснимал|Кто старший", v)] == []
    assert ru["cut_highest_box"].startswith("Кто вытянул старшую карту?")
    # the hands-won counter; the target
    assert ru["boxes"] == "Взято"
    assert ru["target"] == "Партия до" and ru["set_target"].startswith("Партия до")
    assert ru["set_m3_target"].startswith("Партия до")
    assert [k for k, v in everything.items() if "цель" in v.lower()] == []
    # the presets in Russian words (the settings show them; push --preset keeps seed/classic)
    for k in ("opt_seed", "opt_classic"):
        assert not re.search("[A-Za-z]", ru[k]), (k, ru[k])
    # two winners joined by the language's "and", never " & "
    assert re.fullmatch(r"Победа: %s и %s", ru["x_win"]), ru["x_win"]
    assert [k for k, v in everything.items() if "&" in v] == []
    src = open(os.path.join(ROOT, "firmware", "knockfw", "ui_score.py"), encoding="utf-8").read()
    assert "&" not in src
    # method 2's partner who sits out advises: not method 1's "свободный"
    assert "свобод" not in ru["advises"].lower() and "свобод" not in ru["sits_out_x"].lower()
    for en in ("%s: %s is sitting out", "counts[%d]: %s is sitting out, use null"):
        assert "свобод" not in everything[en]  # the core's messages serve both methods


def test_the_reports_russian_as_the_rules_audit_asks():
    # knockbox report speaks the same words: a tie with the knocker is "равенство", two winners
    # are joined by "и", method 2's partner out of a hand advises (test_report.py renders it)
    from knockbox.report import _result, _series
    from knockbox.report.words import EN, RU

    p = ["Аня", "Борис", "Вика"]

    def said(hand, x):  # the hand in words, without the names' <bdi> (writing direction)
        return re.sub("</?bdi>", "", str(_result(hand, x, p, RU)))

    assert (
        said({"knock": 1, "counts": [12, 4, 4]}, {"kind": "undercut", "winners": [2]})
        == "Борис стучит, равенство: Вика"
    )
    assert (
        said({"knock": 0, "counts": [8, 5, 5]}, {"kind": "undercut", "winners": [1, 2]})
        == "Аня стучит, подрезка: Борис и Вика"
    )
    # methods 1 and 2: a tie is an undercut
    assert (
        said({"knock": 0, "counts": [3, 3, None]}, {"kind": "undercut", "winners": [1]})
        == "Аня стучит, подрезка: Борис"
    )
    colours = dict((n, "#000") for n in p)
    assert _series(p, 0, [[0, 0, 0]], RU, colours)[1][0] == "Борис и Вика (партнёры)"
    assert _series(p, 0, [[0, 0, 0]], EN, colours)[1][0] == "Борис and Вика (partners)"
    assert RU["advises"] == "советует" and "свобод" not in RU["advises"]
    src = open(
        os.path.join(ROOT, "host", "knockbox", "report", "__init__.py"), encoding="utf-8"
    ).read()
    assert "&" not in src


# ---- the rules core's messages and the journal's notes, in Russian -------------------------------


def _core_templates():
    import ast
    import glob

    out = {"hand %d: "}
    for path in glob.glob(os.path.join(ROOT, "shared", "knockcore", "*.py")):
        for n in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if (
                isinstance(n, ast.Call)
                and getattr(n.func, "id", None) == "GameError"
                and n.args
                and isinstance(n.args[0], ast.Constant)
            ):
                out.add(n.args[0].value)
    return out


NOTE_TEMPLATES = {
    "dropped a half-written last record",
    "finished an interrupted erase",
    "journal damaged after record %d: kept %d records, rest in %s.bad",
    "skipped %d journal records (record %d: %s)",
    "not a game event",
    "game %d twice",
    "no game %d",
}


def test_every_core_message_and_journal_note_has_its_russian():
    import importlib

    from knockbox import messages

    ru = (importlib.import_module("knockfw.messages_ru").TABLE + messages.RU).strip("\n")
    ru = [line for line in ru.split("\n") if line]
    table = dict(line.split("|", 1) for line in ru)
    assert len(table) == len(ru)  # no key twice (device and laptop)
    want = _core_templates() | NOTE_TEMPLATES | {"record %d: "}
    assert len(want) > 45
    assert sorted(want - set(table)) == []  # every message has its Russian
    assert sorted(set(table) - want) == []  # and nothing else is in the table
    for en, tr in table.items():
        assert re.findall(r"%[sdr]", en) == re.findall(r"%[sdr]", tr), en
        assert tr.strip() and not re.search(
            "[a-z]{4,}",
            re.sub(
                r"%r|knock_limit|knock|gin|"
                r"void|null|true|seed|classic|"
                r"\.bad",
                "",
                tr,
            ),
        ), tr
    # the device has the Russian of every message it can show: a hand refused (by a correction),
    # the game's state, what boot repaired or skipped
    device = importlib.import_module("knockfw.messages_ru").TABLE.strip("\n").split("\n")
    device = set(line.split("|", 1)[0] for line in device)
    hand_py = os.path.join(ROOT, "shared", "knockcore", "hand.py")
    shown = set(re.findall(r'GameError\("([^"]+)"', open(hand_py, encoding="utf-8").read()))
    shown |= NOTE_TEMPLATES | {
        "hand %d: ",
        "the game is over",
        "nothing to undo",
        "the game is closed",
        "no hand %r to edit",
    }
    assert sorted(shown - device) == []
    for path in (
        os.path.join(ROOT, "firmware", "knockfw", "journal.py"),
        os.path.join(ROOT, "firmware", "knockfw", "store.py"),
    ):
        src = open(path, encoding="utf-8").read()
        for tmpl in re.findall(r'\(\s*"([^"]+)",\s*\(', src):  # the notes made there
            assert tmpl in NOTE_TEMPLATES or tmpl == "%s", tmpl  # ("%s": a message as it is)


SAY = r"""
from knockfw import strings
from knockfw.strings import say_notes
from knockcore.errors import GameError, say
from knockcore.game import from_record
try:
    from_record({"method": 3, "players": ["Ann", "Bob", "Cy"], "start": {"dealer": 0},
                 "hands": [{"void": True}, {"knock": 0, "counts": [11, 5, 6]}]})
except GameError as e:
    err = e
note = [("skipped %d journal records (record %d: %s)", (2, 7, err)),
        ("dropped a half-written last record", ())]
print(say(err, strings.t))
print(say_notes(note, strings.t))
strings.set_lang("ru")
print(say(err, strings.t))
print(say_notes(note, strings.t))
"""


def test_core_messages_and_notes_in_the_players_language_under_micropython():
    r = mp.run(SAY)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "hand 2: knock: Ann's count 11 is above the knock limit 10",
        "skipped 2 journal records (record 7: hand 2: knock: Ann's count 11 is above the knock "
        "limit 10); dropped a half-written last record",
        "сдача 2: стук: у Ann 11 очков, больше предела стука 10",
        "пропущено записей журнала: 2 (запись 7: сдача 2: стук: у Ann 11 очков, больше предела "
        "стука 10); недописанная последняя запись отброшена",
    ]
