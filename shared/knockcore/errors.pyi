# The types of errors.py for mypy (the device never gets this file). A stub, not annotations in
# place: naming Callable there would take an import, 16 bytes of the core's budget on the device.
from typing import Callable

class GameError(ValueError):
    template: str
    params: tuple[object, ...]
    hand: int | None
    def __init__(self, template: str, *params: object, hand: int | None = None) -> None: ...

HAND: str

def say(err: GameError, lookup: Callable[[str], str] | None = None) -> str: ...
