# The Badger's /boot.py: knockfw/board_badger2040.py's header says what and why (read at boot,
# kept short).
import sys

_path = sys.path[:]
sys.path.clear()
try:
    import machine  # after the path is emptied: the built-in at once

    machine.Pin(10, machine.Pin.OUT, value=1)
    machine.Pin(25, machine.Pin.OUT, value=1)
    # the buttons' pads as reset leaves them (PADS_BANK0 GPIOx = 0x56: input enabled, pulled
    # down, Schmitt): a soft reset keeps the last firmware's set-up, and another board's pull-up,
    # a pin driven as an output or given to another function than the SIO (GPIOx_CTRL's FUNCSEL
    # 5, or 31 as reset leaves it) is no press
    for _g in range(11, 16):
        machine.mem32[0x4001C004 + 4 * _g] = 0x56
    _seen = machine.mem32[0xD0000004] & ~machine.mem32[0xD0000020]
    for _g in range(11, 16):
        if machine.mem32[0x40014004 + 8 * _g] & 31 not in (5, 31):
            _seen &= ~(1 << _g)
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
