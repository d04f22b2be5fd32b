"""Bitmap fonts for the e-ink screens: generated, do not edit (tools/fonts/gen_fonts.py).

Import a face as a module: `from knockfw.fonts import medium`. Each module has font_to_py's
interface: height(), baseline(), max_width(), hmap(), get_ch(ch) -> (bitmap, height, width).
knockfw.text draws them.
"""
