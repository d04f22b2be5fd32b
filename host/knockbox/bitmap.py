"""The device's screen on the laptop as a Bitmap: a P4 PBM frame (296x128, 1 = black) drawn as
terminal text with Unicode block characters, or saved as PNG (the firmware draws its screens
with knockfw.screens; this only shows what it drew).

Terminal modes (each character cell shows a block of pixels; full resolution unless noted):
  "half"     1x2 pixels per cell, half blocks  ▀▄█    296 cols x 64 rows
  "quad"     2x2 pixels per cell, quadrants    ▘▝▖▗  148 cols x 64 rows
  "braille"  2x4 pixels per cell, braille dots ⣿     148 cols x 32 rows
  "small"    quadrants of a half-size image (a cell is 4x4 pixels, ink if any is black)
             74 cols x 32 rows
pick_mode() chooses the sharpest that fits the terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image
    from collections.abc import Callable

    Pixel = Callable[[int, int], int]  # a cell's pixel reader: (dx, dy) -> 0 or 1

# Quadrant characters indexed by bits: 1 = top-left, 2 = top-right, 4 = bottom-left,
# 8 = bottom-right.
_QUAD = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
_HALF = " ▀▄█"  # 1 = top, 2 = bottom
# Braille dot bits for (dx, dy) in a 2x4 cell (Unicode: U+2800 + bits).
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))

MODES = {  # name: (pixels per cell across, down)
    "half": (1, 2),
    "quad": (2, 2),
    "braille": (2, 4),
    "small": (4, 4),
}


class BitmapError(ValueError):
    pass


class Bitmap:
    """A 1-bit image: `data` holds rows of ceil(width / 8) bytes, most significant bit first,
    1 = black (the PBM P4 layout)."""

    def __init__(self, width: int, height: int, data: bytes) -> None:
        self.width = width
        self.height = height
        self.stride = (width + 7) // 8
        if len(data) < self.stride * height:
            raise BitmapError(
                "frame data too short: %d bytes for %dx%d" % (len(data), width, height)
            )
        self.data = bytes(data[: self.stride * height])

    def pixel(self, x: int, y: int) -> int:
        if x < 0 or y < 0 or x >= self.width or y >= self.height:
            return 0
        return (self.data[y * self.stride + (x >> 3)] >> (7 - (x & 7))) & 1

    def ink(self) -> int:
        """Number of black pixels (tests use it to tell a drawn screen from a blank one)."""
        return sum(bin(b).count("1") for b in self.data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bitmap) and (self.width, self.height, self.data) == (
            other.width,
            other.height,
            other.data,
        )


def _pbm_tokens(blob: bytes, count: int) -> tuple[list[int], int]:
    """The first `count` header tokens of a PBM and the offset just after the last one."""
    tokens: list = []
    i = 0
    n = len(blob)
    while len(tokens) < count:
        while i < n and blob[i : i + 1].isspace():
            i += 1
        if i < n and blob[i : i + 1] == b"#":
            while i < n and blob[i : i + 1] not in (b"\n", b"\r"):
                i += 1
            continue
        start = i
        while i < n and not blob[i : i + 1].isspace() and blob[i : i + 1] != b"#":
            i += 1
        if start == i:
            raise BitmapError("truncated PBM header")
        tokens.append(blob[start:i])
    return tokens, i + 1  # exactly one whitespace byte ends the header


def parse_pbm(blob: bytes) -> Bitmap:
    """A Bitmap from the bytes of a binary PBM (P4)."""
    tokens, offset = _pbm_tokens(blob, 3)
    if tokens[0] != b"P4":
        raise BitmapError("not a binary PBM (P4) image")
    try:
        width, height = int(tokens[1]), int(tokens[2])
    except ValueError:
        raise BitmapError("bad PBM size") from None
    return Bitmap(width, height, blob[offset:])


def read_pbm(path: str) -> Bitmap:
    with open(path, "rb") as f:
        return parse_pbm(f.read())


def to_pbm(frame: Bitmap) -> bytes:
    return b"P4\n%d %d\n" % (frame.width, frame.height) + frame.data


def cells(mode: str, width: int = 296, height: int = 128) -> tuple[int, int]:
    """(columns, rows) of character cells that a frame takes in a mode."""
    cw, ch = MODES[mode]
    return (width + cw - 1) // cw, (height + ch - 1) // ch


def pick_mode(
    cols: int,
    rows: int,
    width: int = 296,
    height: int = 128,
    extra_cols: int = 0,
    extra_rows: int = 0,
) -> str:
    """The sharpest mode whose picture (plus extra_cols/extra_rows of border and help) fits."""
    for mode in ("quad", "braille", "small"):
        c, r = cells(mode, width, height)
        if c + extra_cols <= cols and r + extra_rows <= rows:
            return mode
    return "small"


def to_text(frame: Bitmap, mode: str = "quad") -> list[str]:
    """The frame as a list of strings, one per character row ("█" = black ink)."""
    if mode == "half":
        return _blocks(frame, 1, 2, lambda px: _HALF[px(0, 0) | px(0, 1) << 1])
    if mode == "quad":
        return _blocks(
            frame, 2, 2, lambda px: _QUAD[px(0, 0) | px(1, 0) << 1 | px(0, 1) << 2 | px(1, 1) << 3]
        )
    if mode == "braille":

        def braille(px: Pixel) -> str:
            bits = 0
            for dy in range(4):
                for dx in range(2):
                    if px(dx, dy):
                        bits |= _BRAILLE_BITS[dy][dx]
            return chr(0x2800 + bits)

        return _blocks(frame, 2, 4, braille)
    if mode == "small":

        def any_ink(px: Pixel, x0: int, y0: int) -> int:
            return px(x0, y0) | px(x0 + 1, y0) | px(x0, y0 + 1) | px(x0 + 1, y0 + 1)

        return _blocks(
            frame,
            4,
            4,
            lambda px: _QUAD[
                any_ink(px, 0, 0)
                | any_ink(px, 2, 0) << 1
                | any_ink(px, 0, 2) << 2
                | any_ink(px, 2, 2) << 3
            ],
        )
    raise ValueError("unknown screen mode %r" % mode)


def _blocks(frame: Bitmap, cw: int, ch: int, char: Callable[[Pixel], str]) -> list[str]:
    lines = []
    get = frame.pixel
    for y0 in range(0, frame.height, ch):
        row = []
        for x0 in range(0, frame.width, cw):
            row.append(char(lambda dx, dy, x0=x0, y0=y0: get(x0 + dx, y0 + dy)))  # type: ignore[misc]
        lines.append("".join(row))
    return lines


def to_image(frame: Bitmap, scale: int = 1) -> Image.Image:
    """A Pillow image (mode "1": white paper, black ink), scaled up by a whole factor."""
    from PIL import Image

    # PBM bit 1 = black; Pillow's "1" mode has 1 = white: the "1;I" raw decoder inverts.
    img = Image.frombytes("1", (frame.width, frame.height), frame.data, "raw", "1;I")
    if scale > 1:
        img = img.resize((frame.width * scale, frame.height * scale), Image.Resampling.NEAREST)
    return img


def save_png(frame: Bitmap, path: str, scale: int = 1) -> str:
    to_image(frame, scale).save(path, "PNG")
    return path
