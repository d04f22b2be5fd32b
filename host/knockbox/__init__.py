"""Knockbox laptop tool. The rules core (knockcore) is shared with the device."""

import sys as _sys

if "micropython" not in _sys.modules:
    try:
        import micropython as _mp  # noqa: F401  (only exists under MicroPython)
    except ImportError:
        import types as _types

        _stub = _types.ModuleType("micropython")
        _stub.const = lambda x: x  # type: ignore[attr-defined]
        _sys.modules["micropython"] = _stub
