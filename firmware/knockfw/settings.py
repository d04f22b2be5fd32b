# The settings (lang, rules, roster, sleep_s, stake), in one place for the device and the laptop:
# their defaults, the limits of their values, the choices the device's settings screen steps
# through, and the check of a value. The device: knockfw.app (the defaults; the check before
# /data/settings.json is written, and of the file read at boot), knockfw.ui_settings (the
# choices), knockfw.strings (the languages). The laptop: knockbox push (its options' choices and
# limits, and this check before anything is sent), and the limits where the laptop reads names and
# stakes (knockbox.players, settle, fromevents). docs/PROTOCOL.md's `settings` op sets them.
# The options of a game's rules, their presets and words, are knockcore.rules' (the rules core).
# Pure data and one check: no I/O, nothing at import time but these constants (the app imports
# this module at boot).
from micropython import const

LANGS = ("en", "ru")  # the languages of the device's screens and of the laptop's words

NAME_MAX = const(24)  # a player's name: 1..NAME_MAX characters
ROSTER_MIN = const(3)  # the roster lists ROSTER_MIN..ROSTER_MAX names
ROSTER_MAX = const(16)
SLEEP_MIN = const(30)  # sleep_s: the idle seconds before the device switches off
SLEEP_MAX = const(86400)
STAKE_MAX = const(100000)  # stake: money per point in hundredths, 0 (off)..STAKE_MAX

DEFAULTS: dict = {
    "lang": LANGS[0],
    "rules": {"preset": "seed"},
    "sleep_s": 30,  # the auto-off: measured by bench/bench_battery.py (hardware/POWER.md)
    "roster": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
    "stake": 0,  # money per point on the Evening screen, in hundredths (0: off)
}

# The values the device's settings screen offers, in the order A steps through them: the targets
# of the rules (the device's choice; knockcore.rules has the options' words), the sleep times (the
# default first: hardware/POWER.md) and the stakes (hundredths).
TARGETS = (100, 150, 200, 250, 300, 50)
M3_TARGETS = (200, 250, 300, 400, 500, 100, 150)
SLEEPS = (30, 60, 120, 300, 600, 1800)
STAKES = (0, 1, 10, 100)


def check(d):
    """Validate a partial settings dict; raise ValueError naming the bad field (a rules spec the
    rules core refuses: its knockcore.errors.GameError, a ValueError too)."""
    if not isinstance(d, dict):
        raise ValueError("settings: must be an object")
    for k in d:
        v = d[k]
        if k == "lang":
            if v not in LANGS:
                raise ValueError("settings: lang must be " + " or ".join(LANGS))
        elif k == "rules":
            from knockcore.rules import resolve

            resolve(v)
        elif k == "sleep_s":
            if type(v) is not int or v < SLEEP_MIN or v > SLEEP_MAX:
                raise ValueError(
                    "settings: sleep_s must be %d..%d seconds" % (SLEEP_MIN, SLEEP_MAX)
                )
        elif k == "stake":
            if type(v) is not int or v < 0 or v > STAKE_MAX:
                raise ValueError("settings: stake must be 0..%d hundredths" % STAKE_MAX)
        elif k == "roster":
            if not isinstance(v, list) or len(v) < ROSTER_MIN or len(v) > ROSTER_MAX:
                raise ValueError(
                    "settings: roster must list %d to %d names" % (ROSTER_MIN, ROSTER_MAX)
                )
            for n in v:
                if not isinstance(n, str) or not n.strip() or len(n) > NAME_MAX:
                    raise ValueError(
                        "settings: each roster name must be 1..%d characters" % NAME_MAX
                    )
            if len(set(v)) != len(v):
                raise ValueError("settings: roster names must differ")
        else:
            raise ValueError("settings: unknown field %r" % (k,))
