"""Knockbox laptop tool. The rules core (knockcore) is shared with the device."""

import sys as _sys

if "micropython" not in _sys.modules:
    try:
        import micropython as _mp  # noqa: F401  (only exists under MicroPython)
    except ImportError:
        from knockbox import mpstub as _mpstub

        _sys.modules["micropython"] = _mpstub
