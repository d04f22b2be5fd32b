"""The names the laptop tool's annotations give its JSON-shaped values: plain dicts at run time,
one name each for a reader and for mypy.

  Record  a game record (knockbox-game/1, knockcore.game.from_record), or any JSON object read
          from a file, the device or the history (an event, the standings, a device's settings)
  Row     a game as the history gives it (knockbox.history.read: id, record, status, standings,
          players, winners... and, asked for, its seats and detail)
"""

from typing import Any

Record = dict[str, Any]
Row = dict[str, Any]
