"""The `micropython` module on CPython: what the rules core (knockcore) and the device's code
(knockfw) import from it, doing nothing. knockbox's __init__ puts it in sys.modules as
`micropython` when no real one exists, so the installed laptop tool, the benches and the tests
all run the core with this one stand-in.

The viper code's type names (ptr8, ptr16, ptr32, uint), which CPython evaluates as annotations
when it defines a function, are not here: only the benches and tests load viper code on CPython,
and bench/_paths.py names them there.
"""

from typing import Callable, TypeVar

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., object])


def const(x: T) -> T:
    return x


def native(f: F) -> F:
    return f


viper = native
