"""How much of anything from outside the laptop tool takes (a file, a device, a command line), in
one place: each bound is far above what a real group or a real device makes, and low enough that
no file or device can make a command run for ever, fill the disk or the memory, or flood the
terminal. What happens at a bound is said where it is met (a record refused, a device game kept
as refused, a sync that stops and resumes next time, a list cut short).

  HANDS_MAX        hands of one game (a game to 500 points is a few dozen; the device's 300-hand
                   session is the firmware's budget): a record with more is refused by import; a
                   device game with more is kept as refused ("invalid") with its first HANDS_MAX
  GAME_EVENTS_MAX  a device game's journal records (its hands, undos and edits): more, refused
  SYNC_MAX         journal records one `sync` pulls: a device's whole journal is far fewer (its
                   flash holds some tens of thousands); a device that has more (or never ends)
                   is read SYNC_MAX at a time, one sync after the other, each one transaction
  DEVICE_ID_MAX    characters of a device id (the device makes 16 hex digits)
  INFO_MAX         characters of the board's name and the firmware's version a device says
  LABEL_MAX        characters of an imported game's evening label (export writes DEVICE/EPOCH/SEQ)
  ERROR_MAX        characters of an imported refused game's error (the rules core's message)
  LIST_MAX         items of a list (game ids, files, names) said in one message; the rest counted
"""

from __future__ import annotations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

HANDS_MAX = 1000
GAME_EVENTS_MAX = 5000
SYNC_MAX = 100_000
DEVICE_ID_MAX = 64
INFO_MAX = 64
LABEL_MAX = 128
ERROR_MAX = 1000
LIST_MAX = 10


def listed(items: Iterable[str], most: int = LIST_MAX) -> str:
    """The strings items joined by ", ", at most `most` of them: "1, 2, 3 and 32,997 more"."""
    items = list(items)
    if len(items) <= most:
        return ", ".join(items)
    return "%s and %s more" % (", ".join(items[:most]), "{:,}".format(len(items) - most))


def short_text(v: str, most: int) -> bool:
    """Whether v is a text of 1..most characters (what they are is not looked at here: a text
    from outside is shown on the terminal through knockbox.textsafe)."""
    return isinstance(v, str) and 0 < len(v) <= most
