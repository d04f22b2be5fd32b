"""`knockbox replay GAME.json`: the standings of a game record, under CPython or the MicroPython
unix port (the same rules core the device runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

import json
import os
import subprocess

from knockbox import messages
from knockbox.commands.common import add_lang_option, lang_of
from knockbox.usererror import UserError
from knockbox.files import read_json
from knockbox.textsafe import json_safe

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser
    from knockbox.records import Record

HELP = "print the standings of a game record as JSON"
DESCRIPTION = "Replay a game record (knockbox-game/1) and print standings JSON."


def arguments(p: Parser) -> None:
    p.add_argument(
        "game",
        metavar="GAME.json",
        help="game record file, - for standard input, or a worked example that comes "
        "with knockbox: %s" % ", ".join(examples()),
    )
    p.add_argument(
        "--engine",
        choices=("cpython", "micropython"),
        default="cpython",
        help="run the rules core under CPython (default) or the MicroPython unix port",
    )
    add_lang_option(p)


def standings_cpython(rec: Record) -> Record:
    from knockcore.errors import GameError
    from knockcore.game import from_record

    try:
        return from_record(rec).standings()
    except GameError as e:
        raise UserError(str(e)) from None


def standings_micropython(rec: Record) -> Record:
    from knockbox.build import engines

    exe = engines.tool("micropython")
    script = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mp_replay.py"
    )
    # The device never builds the per-hand list; on the laptop give the port room for long games.
    p = subprocess.run(
        [exe, "-X", "heapsize=8M", script],
        input=json.dumps(rec),
        capture_output=True,
        text=True,
        timeout=120,
        env=engines.micropython_env([engines.core_root()]),
    )
    if p.returncode != 0:
        raise UserError((p.stderr.strip().splitlines() or ["micropython failed"])[-1])
    return json.loads(p.stdout)


ENGINES = {"cpython": standings_cpython, "micropython": standings_micropython}


def format_standings(s: Record) -> str:
    """Stable, readable JSON: sorted keys, one line per top-level key and per hand."""
    lines = []
    keys = sorted(s)
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        v = s[k]
        if k == "hands" and v:
            inner = ",\n".join(
                "    " + json.dumps(h, sort_keys=True, ensure_ascii=False) for h in v
            )
            lines.append('  "hands": [\n%s\n  ]%s' % (inner, comma))
        else:
            lines.append(
                "  %s: %s%s"
                % (json.dumps(k), json.dumps(v, sort_keys=True, ensure_ascii=False), comma)
            )
    return "{\n" + "\n".join(lines) + "\n}"


def examples() -> list[str]:
    """The names of the worked examples that come with knockbox (examples/*.json)."""
    from knockbox.build.engines import examples_root

    root = examples_root()
    return sorted(n[:-5] for n in os.listdir(root) if n.endswith(".json")) if root else []


def example(name: str) -> str:
    """The file of game record `name`: itself when it is there, else the worked example of that
    name (method3, method3.json, examples/method3.json) that comes with knockbox, else itself
    (to be refused by read_json)."""
    from knockbox.build.engines import examples_root

    if name == "-" or os.path.exists(name):
        return name
    base = os.path.basename(name)
    base = base[:-5] if base.endswith(".json") else base
    root = examples_root()
    return os.path.join(root, base + ".json") if root and base in examples() else name


def run(args: Namespace, out: TextIO, err: TextIO, stdin: TextIO | None = None) -> int:
    import sys

    rec = read_json(example(args.game), stdin or sys.stdin)
    try:
        st = ENGINES[args.engine](rec)
    except UserError as e:  # the rules core refused the record: say why in the language
        raise UserError(messages.translate(str(e), lang_of(args))) from None
    out.write(json_safe(format_standings(st)) + "\n")
    return 0
