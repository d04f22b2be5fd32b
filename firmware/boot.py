# Knockbox: MicroPython runs /boot.py, then /main.py. Before the app is imported, the board
# file's early(): the button held at power-up (Board.wake_button()), the buttons sampled from
# then on, and on a Badger the latch (its own /boot.py, boot_badger.py, takes it first of all).
# This file is the Pico build's, and read as source at every boot: kept short. The "extensible"
# built-ins (time, os, json...) go into sys.modules first: MicroPython v1.28 searches the flash
# for time.py etc. before it takes the built-in, a few ms each time (py/builtinimport.c).
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
