"""`knockbox push`: the player roster, language, sleep time, stake and rules settings to the
device; with no options, print the device's settings."""
import json

from knockbox.errors import UserError

HELP = "send the player roster and rules settings to the device"
DESCRIPTION = "Change the device's settings; with no options, print them."


def arguments(p):
    from knockbox.commands.common import add_port_options

    add_port_options(p)
    p.add_argument("--roster", nargs="+", metavar="NAME", help="player names to choose from")
    p.add_argument("--preset", choices=("seed", "classic"), help="rules preset for new games")
    p.add_argument("--rules", metavar="JSON", help='rules spec, e.g. \'{"preset": "classic", '
                                                  '"knock_limit": 7}\'')
    p.add_argument("--lang", choices=("en", "ru"), help="language of the device's screens")
    p.add_argument("--sleep", type=int, metavar="S", help="idle seconds before power-off")
    p.add_argument("--stake", metavar="MONEY", help="money per point on the Evening screen, "
                                                   "e.g. 0.1 or 0.01; 0: off")


def rules_spec(text):
    """A --rules JSON text checked by the rules core: the spec dict, or UserError."""
    from knockcore.errors import GameError
    from knockcore.rules import resolve

    try:
        spec = json.loads(text)
    except ValueError as e:
        raise UserError("--rules: not JSON (%s)" % e)
    try:
        resolve(spec)
    except GameError as e:
        from knockbox import messages
        from knockbox.commands.common import default_lang

        raise UserError("--rules: %s" % messages.say(e, default_lang()))
    return spec


def stake_hundredths(text):
    """--stake MONEY as the device keeps it: hundredths of the money unit (0: off), or UserError."""
    from decimal import Decimal, InvalidOperation

    try:
        d = Decimal(text.strip())
    except InvalidOperation:
        raise UserError("--stake: %r is not an amount (e.g. 0.1)" % text)
    h = d * 100
    if not d.is_finite() or d < 0 or h > 100000 or h != h.to_integral_value():
        raise UserError("--stake: money per point from 0 (off) to 1000, in hundredths at the "
                        "finest (e.g. 1, 0.1, 0.05), not %s" % text)
    return int(h)


def settings(args):
    """The settings to send: {"roster", "rules", "lang", "sleep_s", "stake"} as given."""
    new = {}
    if args.roster is not None:
        new["roster"] = args.roster
    if args.preset is not None or args.rules is not None:
        spec = rules_spec(args.rules) if args.rules is not None else {}
        if args.preset is not None:
            spec["preset"] = args.preset
        new["rules"] = rules_spec(json.dumps(spec))
    if args.lang is not None:
        new["lang"] = args.lang
    if args.sleep is not None:
        new["sleep_s"] = args.sleep
    if args.stake is not None:
        new["stake"] = stake_hundredths(args.stake)
    return new


def run(args, out, err):
    from knockbox import serialio

    new = settings(args)
    with serialio.open_device(args.port, args.timeout) as conn:
        try:
            conn.hello()
            r = conn.request("settings", set=new) if new else conn.request("settings")
        finally:
            conn.bye()
    out.write(json.dumps(r.get("settings"), ensure_ascii=False, sort_keys=True) + "\n")
    return 0
