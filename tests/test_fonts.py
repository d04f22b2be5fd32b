"""The generated fonts (firmware/knockfw/fonts.py) and their generator (tools/fonts/).

- The committed module is exactly what tools/fonts/gen_fonts.py makes now (regenerated into a
  temporary folder and compared byte for byte), so they cannot drift from fonts.json.
- Each face holds exactly its configured characters, each one DejaVu's own glyph as Pillow's
  FreeType draws it, with the configured cell height; the layout (knockfw/text.py) keeps
  font_to_py's cells exactly, less their blank side columns.
- Compiled with mpy-cross -O3 they stay inside the size budget and load under micropython.
"""

import os
import shutil

import budgets
import gen_fonts  # tools/fonts/gen_fonts.py (on sys.path: bench/_paths.py)
from PIL import Image, ImageDraw, ImageFont

from kit import mp
from kit.textref import large, medium, small

ROOT = mp.ROOT

MODULES = {"large": large, "medium": medium, "small": small}
CONFIG = gen_fonts.load_config()
FONTS_PY = os.path.join(ROOT, "firmware", "knockfw", "fonts.py")
MPY_BUDGET = budgets.FONTS_KB * 1024  # all fonts together, bytes of .mpy
HEAP_BUDGET = budgets.FONTS_HEAP_KB * 1024  # heap the three fonts hold once imported (unix port)


def ink(pixels):
    """Pixels shifted so the ink's bounding box starts at (0, 0)."""
    if not pixels:
        return frozenset()
    x0 = min(p[0] for p in pixels)
    y0 = min(p[1] for p in pixels)
    return frozenset((x - x0, y - y0) for x, y in pixels)


def module_glyph(font, ch):
    buf, h, w = font.get_ch(ch)
    pages = (h + 7) // 8  # vertical mapping: column by column, bit 0 on top
    return w, [
        (x, y) for y in range(h) for x in range(w) if buf[x * pages + y // 8] & (1 << (y % 8))
    ]


def is_placeholder(font, ch):
    return module_glyph(font, ch) == module_glyph(font, "\x00")


def header(name):
    """The comment line above face `name` in fonts.py."""
    with open(FONTS_PY, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# %s: " % name):
                return line
    raise AssertionError("no face %r in fonts.py" % name)


def test_committed_fonts_are_exactly_what_the_generator_makes():
    assert gen_fonts.stale() == []


def test_stale_check_notices_a_changed_or_missing_file(tmp_path):
    out = tmp_path / "knockfw"
    out.mkdir()
    p = out / "fonts.py"
    shutil.copy(FONTS_PY, p)
    assert gen_fonts.stale(str(out)) == []
    p.write_text(p.read_text(encoding="utf-8").replace("\\x00", "\\x01", 1), encoding="utf-8")
    assert gen_fonts.stale(str(out)) == ["fonts.py"]
    p.unlink()
    assert gen_fonts.stale(str(out)) == ["fonts.py"]


def test_layout_round_trip_keeps_cells_and_drops_only_blank_side_columns():
    # a 12-row face (2 bytes a column): a blank glyph, ink far from the left edge (more blank
    # columns than the lead can say), a glyph with a blank column inside, code points in runs
    col = b"\x81\x08"
    cells = {
        0x20: (5, bytes(10)),
        0x21: (9, bytes(12) + col + bytes(4)),
        0x22: (4, col + bytes(2) + col + bytes(2)),
        0x410: (3, col * 3),
    }
    data = gen_fonts.encode(cells, 12, 10, 0x22)
    assert gen_fonts.decode(data) == (12, 10, cells, 0x22)
    assert data[:4] == bytes((12, 10, 0, 2))  # height, baseline, no "…", placeholder glyph 2
    assert data[6:15] == b"\x20\x00\x03\x10\x04\x01\x00\x00\x00"  # runs: 3 from " ", 1 from "А"
    stored = len(data) - 15 - 2 * 5 - 4  # less the header, runs, table, a byte a glyph
    assert stored == 2 * (0 + 4 + 3 + 3)  # blank: none; "!": 3 blank columns + its ink
    try:
        gen_fonts.encode({0x20: (64, bytes(128))}, 12, 10, 0x20)
    except gen_fonts.FontError:
        pass
    else:
        raise AssertionError("a glyph wider than 63 px was encoded")


def test_each_face_has_exactly_its_characters_and_height():
    for face in CONFIG["faces"]:
        font = MODULES[face["module"]]
        chars = set(gen_fonts.charset(CONFIG, face)) | {face["errchar"]}
        assert font.height() == face["height"], face["module"]
        assert 0 < font.baseline() < font.height()
        assert not hasattr(font, "hmap")  # the part of font_to_py's interface the firmware uses
        assert font.codes == sorted(ord(c) for c in chars), face["module"]
        assert font.data[2] == ("\u2026" in chars)  # fit()'s mark: "…" where the face has it
        missing = [c for c in chars if c != face["errchar"] and is_placeholder(font, c)]
        assert missing == [], (face["module"], missing)
        assert "%d glyphs" % len(chars) in header(face["module"])


def test_medium_and_small_cover_ascii_and_russian():
    want = [chr(c) for c in range(33, 127)] + [chr(c) for c in range(0x410, 0x450)] + ["Ё", "ё"]
    for font in (medium, small):
        assert [c for c in want if is_placeholder(font, c)] == []
    assert [c for c in "0123456789+-/" if is_placeholder(large, c)] == []


def test_glyphs_are_dejavu_as_pillow_draws_them():
    """Every glyph's ink equals Pillow's rendering of the same character at the same ppem (up to a
    pixel or two where Pillow's FreeType release rasterises differently). Proves the converter
    maps each code point to the right glyph at the right size."""
    for face in CONFIG["faces"]:
        font = MODULES[face["module"]]
        ppem = int(header(face["module"]).split(" ppem")[0].split()[-1])
        pil = ImageFont.truetype(gen_fonts.find_font(face["file"]), size=ppem)
        worst = 0
        for ch in gen_fonts.charset(CONFIG, face):
            if ch == " ":
                continue
            mine = ink(module_glyph(font, ch)[1])
            im = Image.new("1", (ppem * 3, ppem * 3), 0)
            draw = ImageDraw.Draw(im)
            draw.fontmode = "1"
            draw.text((ppem, ppem // 2), ch, font=pil, fill=1)
            theirs = ink(
                [(x, y) for y in range(im.height) for x in range(im.width) if im.getpixel((x, y))]
            )
            diff = len(mine ^ theirs)
            assert diff <= 2 + len(theirs) // 50, (face["module"], ch, diff, len(theirs))
            worst = max(worst, diff)
        if face["module"] != "large":
            assert worst == 0, face["module"]  # at these sizes the two FreeTypes agree exactly


FONT_HEAP = """
import gc
from knockfw import text    # the glyph code: not the fonts' heap
gc.collect()
a = gc.mem_alloc()
from knockfw.fonts import large, medium, small
gc.collect()
b = gc.mem_alloc()
w = 0
for ch in "Ёжик Иван 0123":
    w += text.width(ch, medium)
print(b - a, w, large[0], medium[0], small[0])
"""


def test_fonts_fit_the_mpy_budget_and_load_from_mpy(tmp_path):
    lib = mp.build(str(tmp_path), modules=["knockfw.fonts", "knockfw.text"])
    total = (tmp_path / "knockfw" / "fonts.mpy").stat().st_size
    assert total <= MPY_BUDGET, total
    r = mp.run(FONT_HEAP, paths=[lib])
    assert r.returncode == 0, r.stdout + r.stderr
    heap, w, hl, hm, hs = map(int, r.stdout.split())
    assert heap <= HEAP_BUDGET, heap
    assert w == sum(medium.get_ch(ch)[2] for ch in "Ёжик Иван 0123") > 0
    assert (hl, hm, hs) == (large.height(), medium.height(), small.height())
