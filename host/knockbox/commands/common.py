"""What the commands share: options (--db, --port/--timeout), reading typed values (game ids,
dates), opening the device's port and the history, and plain-text tables. A mistake the user
can fix is a knockbox.usererror.UserError: `knockbox: message` and exit code 1 (knockbox.cli)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING, TextIO

import datetime
import json
import os

from knockbox.usererror import UserError
from knockbox.history import MAX_INT
from knockfw.settings import LANGS

if TYPE_CHECKING:
    from argparse import Namespace
    from collections.abc import Callable
    from collections.abc import Collection, Sequence
    from knockbox.cli import Parser
    from knockbox.history import History
    from knockbox.link.serialio import Connection
    from knockbox.records import Row


def add_db_option(p: Parser) -> None:
    p.add_argument(
        "--db",
        metavar="FILE",
        help="history file (default: $KNOCKBOX_HOME or the user's data folder)",
    )


def default_lang() -> str:
    """ "ru" when the locale's language is Russian (the first of LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG that is set, as gettext looks), else "en"."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        v = os.environ.get(var)
        if v:
            return "ru" if v.lower().startswith("ru") else "en"
    return "en"


def add_lang_option(p: Parser, what: str = "the rules core's messages") -> None:
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of %s (default: from the locale)" % what,
    )


def lang_of(args: Namespace) -> str:
    return getattr(args, "lang", None) or default_lang()


def add_port_options(p: Parser) -> None:
    from knockbox.link import serialio

    p.add_argument(
        "--port",
        metavar="P",
        help="serial port, as the OS names it: /dev/ttyACM0, "
        "COM3 (default: the board found by USB id, else a running simulator)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=serialio.TIMEOUT,
        metavar="S",
        help="seconds to wait for each reply (default %g)" % serialio.TIMEOUT,
    )


MAX_TIMEOUT = 3600.0  # seconds: --timeout at most


def open_port(args: Namespace, err: TextIO, command: str) -> Connection:
    """The device's serial connection (knockbox.link.serialio) on --port, else on the board or the
    simulator knockbox.link.ports finds (said on err), held for this command alone. UserError for a
    --timeout that is no time to wait, before any port is looked for."""
    from knockbox.link import ports
    from knockbox.link import serialio

    if not 0 < args.timeout <= MAX_TIMEOUT:  # (NaN too)
        raise UserError(
            "--timeout: %s is not a number of seconds above 0 and at most %d"
            % (_number(args.timeout), MAX_TIMEOUT)
        )
    found = ports.find(args.port)
    if found.description:
        err.write("%s: %s\n" % (found.device, found.description))
    return serialio.open_device(found.device, args.timeout, "knockbox " + command)


def _number(v: float) -> str:
    """A float as typed: 5 for 5.0, -1 for -1.0."""
    return (
        "%d" % v if v == v and v not in (float("inf"), float("-inf")) and v == int(v) else "%g" % v
    )


def open_history(args: Namespace, create: bool = False) -> History:
    """The history named by --db (or the default one); create=False: UserError if none yet."""
    from knockbox.history import History

    return History(getattr(args, "db", None), create=create)


EVENINGS_HELP = (
    "Evenings are numbered 1, 2, ... as they reach the history, as `knockbox history` "
    "shows them, and keep their numbers: older games imported later get new numbers; a new "
    'evening starts when "New evening" is chosen on the device.'
)


def add_selection(p: Parser, default: str) -> None:
    """GAME... | --evening [N] | --since DATE; default: what no selection means (help text)."""
    p.add_argument("games", nargs="*", metavar="GAME", help="game ids (default: %s)" % default)
    p.add_argument(
        "--evening",
        nargs="?",
        const="latest",
        metavar="N",
        help="the games of evening N (without N: the latest evening)",
    )
    p.add_argument(
        "--since", metavar="DATE", help="games first synced on or after DATE (YYYY-MM-DD)"
    )


def select(
    h: History, args: Namespace, default: Callable[..., tuple[list[Row], int | None]], **parts: Any
) -> tuple[list[Row], int | None]:
    """(game rows, evening number or None) chosen by add_selection's options; default(h,
    **parts) gives them when none is given. parts: what History.games() adds to each row
    (seats=True, detail=True)."""
    ids = [game_id(g) for g in args.games]
    if sum(1 for x in (ids, args.evening, args.since) if x) > 1:
        raise UserError("give game ids, --evening or --since: only one of them")
    if ids:
        return h.games(ids, **parts), None
    if args.evening:
        n, rows = h.evening(
            None if args.evening == "latest" else evening_number(args.evening), **parts
        )
        return rows, n
    if args.since:
        return h.games(since=date_arg(args.since), **parts), None
    return default(h, **parts)


def evening_number(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        v = 0
    if v < 1:
        raise UserError(
            "%r is not an evening number: use the numbers `knockbox history` lists" % (s,)
        )
    return v


def game_id(s: str) -> int:
    """A game id typed by the user (a number from `knockbox history`)."""
    try:
        v = int(s)
    except ValueError:
        v = 0
    if v < 1 or v > MAX_INT:
        raise UserError("%r is not a game id: use the numbers `knockbox history` lists" % (s,))
    return v


def date_arg(s: str | None) -> str | None:
    """A DATE option (YYYY-MM-DD) as an ISO string, None if not given; UserError if bad."""
    if s is None:
        return None
    try:
        return datetime.date.fromisoformat(s).isoformat()
    except ValueError:
        raise UserError("%r is not a date like 2025-01-31" % (s,)) from None


def winner_names(row: Row) -> str:
    return ", ".join(row["players"][s] for s in row["winners"]) if row["winners"] else ""


def status_text(row: Row, lang: str = "en") -> str:
    """A stored game's status for people: "over", "invalid: record 4: ...", "(replaced ...)";
    in lang (the rules core's message too)."""
    from knockbox import messages
    from knockbox.cliwords import LANGS
    from knockbox.textsafe import visible

    w = LANGS[lang]
    s = str(w.get(row["status"], row["status"]))
    s += ": " + visible(messages.translate(row["error"], lang)) if row["error"] else ""
    return s + (w["replaced"] if row["replaced"] else "")


def open_in_browser(path: str, err: TextIO) -> bool:
    """Open the page at path in the web browser; when none starts, say so on err with where
    the page is (the page is written all the same: not an error)."""
    import pathlib
    import webbrowser

    from knockbox.textsafe import visible

    try:
        opened = webbrowser.open(pathlib.Path(os.path.abspath(path)).as_uri())
    except webbrowser.Error:
        opened = False
    if not opened:
        err.write("note: no web browser started here: open %s in one\n" % visible(str(path)))
    return opened


def write_json(out: TextIO, obj: object, **options: Any) -> None:
    """obj as JSON (its unsafe characters as JSON escapes: knockbox.textsafe.json_safe)."""
    from knockbox.textsafe import json_safe

    out.write(json_safe(json.dumps(obj, ensure_ascii=False, indent=1, **options)) + "\n")


def write_table(out: TextIO, rows: Sequence[Sequence[str]], right: Collection[int] = ()) -> None:
    """Rows of strings as aligned columns (the first row is the header); columns in `right` are
    right-aligned. A cell's control characters are written as visible escapes (textsafe)."""
    from knockbox.textsafe import visible

    rows = [[visible(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r)]
        out.write("  ".join(cells).rstrip() + "\n")
