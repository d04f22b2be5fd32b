#!/usr/bin/env python3
"""Generate the firmware's bitmap fonts (firmware/knockfw/fonts.py) from DejaVu Sans.

    .venv/bin/python tools/fonts/gen_fonts.py [--out DIR] [--font-dir DIR] [--check]

The faces, sizes and character sets are in tools/fonts/fonts.json beside this script. The
glyphs are font_to_py's (PyPI `font-to-py`, Peter Hinch; FreeType via freetype-py): vertical
mapping (column by column, each column's bytes top to bottom, least significant bit on top: the
e-ink framebuffer's own MONO_VLSB layout, so knockfw.text ORs whole bytes into it), variable
pitch. Each glyph cell is then stored without its blank columns at the sides, in the layout
knockfw/text.py describes, one `bytes` literal a face so it lives in the .mpy's constant area
(font_to_py's own layout held the same glyphs in half as much again: 8-byte aligned glyphs, a
16-bit width each, a 4-byte index entry a glyph). The faces go into one module (not one a
face: each import costs a Pico littlefs lookups at boot). The output is
deterministic: the header names the source font and its version, never a path or a date, so a
test can regenerate into a temporary folder and demand byte-identical files (--check does the
same here).

The TTF files come from Debian's fonts-dejavu-core (scripts/setup --system installs it);
--font-dir or $KNOCKBOX_FONT_DIR points elsewhere (matplotlib's mpl-data/fonts/ttf works too).
"""

import argparse
import contextlib
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONFIG = os.path.join(HERE, "fonts.json")
OUT = os.path.join(ROOT, "firmware", "knockfw")
MODULE = "fonts.py"
FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",  # Debian, Ubuntu: fonts-dejavu-core
    "/usr/share/fonts/dejavu",  # Fedora
    "/usr/share/fonts/TTF",  # Arch
    "/usr/local/share/fonts/dejavu",  # FreeBSD
)

HEAD = '''"""Bitmap fonts for the e-ink screens: generated, do not edit (tools/fonts/gen_fonts.py).

`from knockfw.fonts import medium`: each face is one bytes object in the layout of
knockfw/text.py (a header, the code points it has, its glyphs without their blank side
columns), made from font_to_py's conversion of a DejaVu Sans face; knockfw.text draws them.
"""

%s
'''
BYTES_A_LINE = 32  # (a wide data line keeps the generated module under ~400 lines)
ELLIPSIS = 0x2026  # "…": fit() marks a cut with it in a face that has it, else with "."
MAX_LEAD = 3  # blank columns before the ink a glyph's first byte can say (2 bits)


class FontError(Exception):
    pass


def load_config(path=CONFIG):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def find_font(name, font_dir=None):
    dirs = [font_dir] if font_dir else []
    if os.environ.get("KNOCKBOX_FONT_DIR"):
        dirs.append(os.environ["KNOCKBOX_FONT_DIR"])
    dirs.extend(FONT_DIRS)
    for d in dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    raise FontError(
        "%s not found in %s: install Debian's fonts-dejavu-core (scripts/setup --system does) "
        "or pass --font-dir" % (name, ", ".join(dirs))
    )


def charset(config, face):
    chars = set(face.get("extra", ""))
    for name in face.get("sets", ()):
        for lo, hi in config["sets"][name]:
            chars.update(chr(c) for c in range(lo, hi + 1))
    return "".join(sorted(chars))


def font_version(path):
    import freetype

    ft = freetype.Face(path)
    for i in range(ft.sfnt_name_count):
        n = ft.get_sfnt_name(i)
        if n.name_id == 5 and n.platform_id == 3:  # version string, Windows Unicode record
            return n.string.decode("utf-16-be")
    return "unknown"


def render_face(config, face, font_dir=None):
    """One face as `NAME = Face(...)` source with its comment line (a str)."""
    from font_to_py import font_to_py as ftp

    path = find_font(face["file"], font_dir)
    version = font_version(path)
    want = config.get("font_version")
    if want and version != want:
        raise FontError("%s is %r, the committed fonts were made from %r" % (path, version, want))
    _check_tools(config)
    chars = charset(config, face)
    errchar = ord(face["errchar"])
    missing = [c for c in chars if not _has_glyph(path, c)]
    if missing:
        raise FontError("%s lacks %r" % (face["file"], "".join(missing)))
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet):
        # Font(path, height, minchar, maxchar, monospaced, defchar, charset, bitmapped)
        fnt = ftp.Font(path, face["height"], 32, 126, False, errchar, chars, False)
        out = io.StringIO()
        ftp.write_data(out, fnt, path, False, False, False, chars)  # hmap=False
    mod = {}
    exec(out.getvalue(), mod)  # font_to_py's module: its data and metrics
    if mod["hmap"]() or mod["monospaced"]() or mod["reverse"]():
        raise FontError("font_to_py made a horizontal, monospaced or reversed face")
    cells, none = ftp_cells(mod["_font"], mod["_sparse"], mod["height"]())
    if cells.get(errchar) != none:
        raise FontError("font_to_py's placeholder is not the glyph of %r" % face["errchar"])
    data = encode(cells, mod["height"](), mod["baseline"](), errchar)
    head = (
        "# %s: DejaVu Sans %s (%s), %d px cell, %d ppem, %d glyphs, placeholder %r\n"
        "# (font_to_py -e %d -c <charset> %s %d)\n"
        % (
            face["module"],
            version,
            face["file"],
            fnt.height,
            fnt._face.size.y_ppem,
            len(fnt),
            face["errchar"],
            errchar,
            face["file"],
            face["height"],
        )
    )
    return head + "%s = (\n%s)\n" % (face["module"], _literal(data))


def ftp_cells(font, sparse, height):
    """font_to_py's sparse vertical face as ({code point: (advance, columns)}, the placeholder's
    (advance, columns)): its _font holds each glyph at a multiple of 8 as a 16-bit
    little-endian width then the columns, (height + 7) // 8 bytes each, the placeholder at 0;
    its _sparse 4 bytes a glyph: the code point and the offset // 8, 16-bit little-endian each."""
    pages = (height + 7) // 8

    def cell(off):
        w = font[off] | (font[off + 1] << 8)
        return w, bytes(font[off + 2 : off + 2 + pages * w])

    cells = {}
    for i in range(0, len(sparse), 4):
        cells[sparse[i] | (sparse[i + 1] << 8)] = cell((sparse[i + 2] | (sparse[i + 3] << 8)) << 3)
    return cells, cell(0)


def encode(cells, height, baseline, errchar):
    """{code point: (advance, columns)} as one face in knockfw/text.py's layout (bytes)."""
    pages = (height + 7) // 8
    codes = sorted(cells)
    if len(codes) > 255 or max(w for w, _c in cells.values()) > 63:
        raise FontError("a face holds at most 255 glyphs, each at most 63 px wide")
    runs = []  # [first code point, count]
    for c in codes:
        if runs and runs[-1][0] + runs[-1][1] == c and runs[-1][1] < 255:
            runs[-1][1] += 1
        else:
            runs.append([c, 1])
    table = 6 + 3 * (len(runs) + 1)
    head = bytes(
        (height, baseline, ELLIPSIS in cells, codes.index(errchar), table & 255, table >> 8)
    )
    head += b"".join(bytes((c & 255, c >> 8, n)) for c, n in runs) + bytes(3)
    records = []
    for c in codes:
        w, cols = cells[c]
        ink = [i for i in range(w) if any(cols[i * pages : (i + 1) * pages])]
        lead = min(ink[0], MAX_LEAD) if ink else 0
        end = ink[-1] + 1 if ink else 0
        records.append(bytes((w | (lead << 6),)) + cols[lead * pages : end * pages])
    offsets = []
    at = table + 2 * (len(codes) + 1)
    for r in records + [b""]:
        offsets += [at & 255, at >> 8]
        at += len(r)
    data = head + bytes(offsets) + b"".join(records)
    if len(data) > 0xFFFF or decode(data) != (height, baseline, cells, errchar):
        raise FontError("face of %d bytes does not decode to its glyphs" % len(data))
    return data


def decode(data):
    """(height, baseline, {code point: (advance, columns)}, placeholder code point) of a face:
    encode() checks itself with it."""
    height, baseline, _ell, none, table = (
        data[0],
        data[1],
        data[2],
        data[3],
        data[4] | (data[5] << 8),
    )
    pages = (height + 7) // 8
    codes = []
    i = 6
    while data[i + 2]:
        first = data[i] | (data[i + 1] << 8)
        codes += range(first, first + data[i + 2])
        i += 3
    cells = {}
    for k, c in enumerate(codes):
        t = table + 2 * k
        at, end = data[t] | (data[t + 1] << 8), data[t + 2] | (data[t + 3] << 8)
        w, lead = data[at] & 63, data[at] >> 6
        cols = bytes(pages * lead) + data[at + 1 : end]
        cells[c] = (w, cols + bytes(pages * w - len(cols)))
    return height, baseline, cells, codes[none]


def _literal(data):
    """bytes as adjacent literals, BYTES_A_LINE a line (one constant in the .mpy)."""
    lines = []
    for i in range(0, len(data), BYTES_A_LINE):
        lines.append("    b'" + "".join("\\x%02x" % c for c in data[i : i + BYTES_A_LINE]) + "'")
    return "\n".join(lines)


def render(config, font_dir=None):
    """The whole generated module (a str)."""
    faces = [render_face(config, face, font_dir) for face in config["faces"]]
    from importlib.metadata import version

    made = "# font_to_py %s, the faces of tools/fonts/fonts.json:" % (version("font_to_py"),)
    return HEAD % made + "\n" + "\n".join(faces)


def _check_tools(config):
    # The bitmaps depend on FreeType's rasteriser (freetype-py bundles its own) and on
    # font_to_py's layout: refuse to make files that would differ from the committed ones
    # for a reason other than a change of fonts.json. Bump the versions there on purpose.
    import freetype
    from importlib.metadata import version

    have = {"freetype": "%d.%d.%d" % freetype.version(), "font_to_py": version("font_to_py")}
    for name, want in sorted(config.get("tools", {}).items()):
        if have[name] != want:
            raise FontError(
                "%s is %s, fonts.json wants %s: install that version or update "
                "fonts.json, regenerate and commit the fonts" % (name, have[name], want)
            )


def _has_glyph(path, ch, _faces={}):
    import freetype

    if path not in _faces:
        _faces[path] = freetype.Face(path)
    return _faces[path].get_char_index(ch) != 0


def generate(out_dir=OUT, font_dir=None, config_path=CONFIG):
    """Write fonts.py into out_dir; return the list of files written."""
    config = load_config(config_path)
    os.makedirs(out_dir, exist_ok=True)
    return [_write(os.path.join(out_dir, MODULE), render(config, font_dir))]


def _write(path, text):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return path


def stale(out_dir=OUT, font_dir=None):
    """Names of the committed files that differ from what the generator makes now."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        bad = []
        for path in generate(tmp, font_dir):
            name = os.path.basename(path)
            mine = os.path.join(out_dir, name)
            with open(path, "rb") as a:
                new = a.read()
            old = None
            if os.path.exists(mine):
                with open(mine, "rb") as b:
                    old = b.read()
            if new != old:
                bad.append(name)
        return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="output folder (default: the firmware's knockfw/)")
    ap.add_argument("--font-dir", help="folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf")
    ap.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if the files in --out are not what we generate",
    )
    args = ap.parse_args(argv)
    try:
        if args.check:
            bad = stale(args.out, args.font_dir)
            if bad:
                print("stale: " + " ".join(bad) + " (run tools/fonts/gen_fonts.py)")
                return 1
            print("fonts up to date")
            return 0
        for p in generate(args.out, args.font_dir):
            print("wrote", os.path.relpath(p))
    except FontError as e:
        print("gen_fonts: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
