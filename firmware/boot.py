# Knockbox: MicroPython runs /boot.py, then /main.py. Before the app is imported (the longest
# part of a boot), the board's first actions: the button held at power-up, which the app acts on
# (Board.wake_button()), and on the Badger 2040 the power latch (on battery the board runs only
# as long as the waking button is held, until the latch is taken). A Badger gets its own
# /boot.py (boot_badger.py: `knockbox deploy` puts it there), which takes the latch in its first
# statements, before any file is read, then does what this file does; this one is the Pico
# build's (and a fallback: it still takes the Badger's latch, through early(), if it finds
# itself on one). The pins are named in the board file alone; this file loads nothing but
# knockfw.board and that file (and its shared base, rp2board).
#
# Budget: latch high <= 100 ms after reset (bench/bench_pico.py measures it: docs/EMULATOR.md).
# MicroPython itself takes part of that before it gets here, and on its littlefs every path
# lookup costs milliseconds (RP2040 at 125 MHz), so:
# - "Extensible" built-in modules (time, machine, os, json...) are registered in sys.modules
#   first: MicroPython v1.28 searches every sys.path entry of the filesystem for time.py etc.
#   before it takes the built-in, a few lookups each time, and does not remember the result
#   (py/builtinimport.c); the u-names (utime...) are the built-ins directly. Every later
#   `import time` of the app is then a dictionary lookup.
# - The board is the one knockfw.board chooses (the app then finds that module loaded).
# - The packages are at the root (/knockfw, /knockcore), the first sys.path entry ('', the
#   working folder /): an import finds them with the first lookup.
import sys


def _boot():
    for name in ("time", "machine", "os", "json", "binascii", "array", "select"):
        if name not in sys.modules:
            try:
                sys.modules[name] = __import__("u" + name)
            except ImportError:
                pass
    from knockfw.board import chosen, module

    module(chosen()).early()  # the Badger's board file takes the latch as it loads


try:
    _boot()
except Exception as e:  # never keep the app from starting
    print("boot.py:", repr(e))
