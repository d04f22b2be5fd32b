"""Bitmap fonts for the e-ink screens: generated, do not edit (tools/fonts/gen_fonts.py).

Import a face as a module: `from knockfw.fonts import medium`. Each module has the part of
font_to_py's interface the firmware uses: height(), baseline(), max_width(),
get_ch(ch) -> (bitmap, height, width), and the data (_font, _sparse). knockfw.text draws them.
"""
