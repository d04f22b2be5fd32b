# The types of events.py for mypy (the device never gets this file). A stub, not annotations in
# place: naming Game there would take an import, 16 bytes of the core's budget on the device.
from typing import Any

from knockcore.game import Game

GAME: str
HAND: str
UNDO: str
EDIT: str
END: str
EVENING: str

def game_of(ev: object) -> int | None: ...
def evening(g: int) -> dict[str, Any]: ...
def evening_next(ev: object) -> int | None: ...
def apply(game: Game | None, ev: Any) -> Game: ...
