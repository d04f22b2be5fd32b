# The Badger 2040's /boot.py: `knockbox deploy` puts this file on a Badger as /boot.py in place of
# boot.py (firmware/manifest.py: board="badger2040"). On battery the Badger runs only while the
# button that woke it is held, until GPIO 10 (the 3V3 enable, the power latch) is driven high:
# Pimoroni's firmware does it in C before MicroPython starts. Here it is the first statements,
# before any file is read and before any path is looked up on the flash: with sys.path empty for
# a moment, `import machine` takes the firmware's built-in module at once (MicroPython v1.28
# looks for machine.py on every sys.path entry first, a littlefs lookup each). GPIO 10 is
# knockfw/board_badger2040.py's PINS["en_3v3"] (a test keeps the two equal): this file is that
# board's, the one other place that names a pin.
#
# Then what boot.py does for every board (see its header): the built-in modules put in
# sys.modules (an import does not: each later `import time` would search the flash), the
# board file's early(), which notes the button held at power-up and latches every press.
import sys

_path = sys.path[:]
sys.path.clear()
try:
    import machine  # after the path is emptied: the built-in at once

    machine.Pin(10, machine.Pin.OUT, value=1)
    sys.modules["machine"] = machine
    for _name in ("time", "os", "json", "binascii", "array", "select"):
        try:
            sys.modules[_name] = __import__(_name)
        except ImportError:
            pass
finally:
    sys.path.extend(_path)  # whatever happened: the app is imported through it
try:
    from knockfw import board_badger2040

    board_badger2040.early()
except Exception as e:  # noqa: BLE001 - never keep the app from starting
    print("boot.py:", repr(e))
