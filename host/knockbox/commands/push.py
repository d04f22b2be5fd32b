"""`knockbox push`: the player roster, language, sleep time, stake and rules settings to the
device; with no options, print the device's settings."""

from __future__ import annotations

import json
from typing import Any, TYPE_CHECKING, TextIO

from knockbox.usererror import UserError
from knockcore.rules import PRESETS
from knockfw.settings import LANGS, SLEEP_MAX, SLEEP_MIN

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.cli import Parser
    from knockbox.records import Record

HELP = "send settings to the device: roster, rules, language, sleep time, stake"
SLEEP_RANGE = (SLEEP_MIN, SLEEP_MAX)  # seconds, what the device accepts
DESCRIPTION = "Change the device's settings; with no options, print them."


def arguments(p: Parser) -> None:
    from knockbox.commands.common import add_port_options

    add_port_options(p)
    p.add_argument("--roster", nargs="+", metavar="NAME", help="player names to choose from")
    p.add_argument("--preset", choices=PRESETS, help="rules preset for new games")
    p.add_argument(
        "--rules",
        metavar="JSON",
        help='rules spec, e.g. \'{"preset": "classic", "knock_limit": 7}\'',
    )
    p.add_argument("--lang", choices=LANGS, help="language of the device's screens")
    p.add_argument(
        "--sleep", type=int, metavar="S", help="idle seconds before power-off, %d..%d" % SLEEP_RANGE
    )
    from knockbox.settle import STAKE_HELP

    p.add_argument(
        "--stake", metavar="MONEY", help="the Evening screen's " + STAKE_HELP + "; 0: off"
    )


def rules_spec(text: str) -> Record:
    """A --rules JSON text checked by the rules core: the spec dict, or UserError."""
    from knockcore.errors import GameError
    from knockcore.rules import resolve

    try:
        spec: Record = json.loads(text)
    except ValueError as e:
        raise UserError("--rules: not JSON (%s)" % e) from None
    except RecursionError:
        raise UserError("--rules: nested too deeply to be rules") from None
    try:
        resolve(spec)
    except GameError as e:
        from knockbox import messages
        from knockbox.commands.common import default_lang

        raise UserError("--rules: %s" % messages.error_text(e, default_lang())) from None
    return spec


def roster(names: list[str]) -> list[str]:
    """--roster's names as the history will keep them (knockbox.players.check: one Unicode form,
    trimmed, what the device draws, not too long), or UserError; one name given twice (once
    cleaned: "Ann" and "Ann ") is refused."""
    from knockbox import players

    try:
        names = [players.check(n, "--roster: the name") for n in names]
    except ValueError as e:
        raise UserError(str(e)) from None
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise UserError("--roster: %r is there twice: the names must differ" % twice)
    return names


def notes(names: list[Any]) -> list[Any]:
    """The lines that point out names of the roster that differ only in case or look alike."""
    from knockbox import players

    return players.twin_lines(
        players.twins(names, names), lambda a, b: "keep one of them in --roster"
    )


def settings(args: Namespace) -> Record:
    """The settings to send: {"roster", "rules", "lang", "sleep_s", "stake"} as given, checked
    as the device checks them (knockfw.settings.check), or UserError."""
    new: Record = {}
    if args.roster is not None:
        new["roster"] = roster(args.roster)
    if args.preset is not None or args.rules is not None:
        spec = rules_spec(args.rules) if args.rules is not None else {}
        if args.preset is not None:
            spec["preset"] = args.preset
        new["rules"] = rules_spec(json.dumps(spec))
    if args.lang is not None:
        new["lang"] = args.lang
    if args.sleep is not None:
        if not SLEEP_RANGE[0] <= args.sleep <= SLEEP_RANGE[1]:
            raise UserError("--sleep: %d is not in %d..%d seconds" % ((args.sleep,) + SLEEP_RANGE))
        new["sleep_s"] = args.sleep
    if args.stake is not None:
        from knockbox.settle import parse_stake

        new["stake"] = parse_stake(args.stake, "--stake", off=True)
    from knockfw.settings import check

    try:
        check(new)
    except ValueError as e:  # what the device would refuse, refused before the port is opened
        raise UserError(str(e)) from None
    return new


def run(args: Namespace, out: TextIO, err: TextIO) -> int:
    from knockbox.commands.common import open_port

    new = settings(args)
    for line in notes(new.get("roster", [])):
        err.write("note: %s\n" % line)
    with open_port(args, err, "push") as conn:
        try:
            conn.hello()
            r = conn.settings(new)
        finally:
            conn.bye()
    from knockbox.textsafe import json_safe

    out.write(json_safe(json.dumps(r.get("settings"), ensure_ascii=False, sort_keys=True)) + "\n")
    return 0
