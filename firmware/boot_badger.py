# The Badger's /boot.py: knockfw/board_badger2040.py's header says what and why (read at boot,
# kept short).
import sys

_path = sys.path[:]
sys.path.clear()
try:
    import machine  # after the path is emptied: the built-in at once

    machine.Pin(10, machine.Pin.OUT, value=1)
    machine.Pin(25, machine.Pin.OUT, value=1)
    for _g in range(11, 16):
        machine.mem32[0x4001E004 + 4 * _g] = 0x40
    _seen = machine.mem32[0xD0000004]
    import time

    _at = time.ticks_ms()
    sys.modules["machine"] = machine
    for _name in ("time", "os", "json", "binascii", "array", "select"):
        try:
            sys.modules[_name] = __import__(_name)
        except ImportError:
            pass
finally:
    sys.path.extend(_path)
try:
    from knockfw import board_badger2040

    board_badger2040.early(_seen, _at)
except Exception as e:  # noqa: BLE001 - never keep the app from starting
    print("boot.py:", repr(e))
