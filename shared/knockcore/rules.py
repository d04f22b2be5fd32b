# Options of RULES.md and the two presets. A game's rules are a preset name plus overrides.
from knockcore.errors import GameError

# name: (seed, classic) for the options whose presets differ; the rest share one default.
_PRESET_NUMBERS = {
    "gin_bonus": (25, 20),
    "undercut_bonus": (25, 10),
    "box_bonus": (25, 20),
}
_NUMBERS = {
    "knock_limit": 10,
    "game_bonus": 100,
    "target": 100,  # methods 1 and 2
    "shutout_extra": 100,
    "m3_tie_penalty": 20,
    "m3_gin_bonus": 40,
    "m3_target": 200,
}
# Options that take one of a few words; the first is the default.
CHOICES = {
    "m1_extra": ("idle", "shutout"),
    "m3_formula": ("literal", "pairwise"),
    "m3_penalty_on": ("tie", "tie_or_undercut"),
}
PRESETS = ("seed", "classic")


def defaults(preset: str) -> dict:
    if preset not in PRESETS:
        raise GameError("rules: unknown preset %r (use seed or classic)", preset)
    col = PRESETS.index(preset)
    r: dict = {"preset": preset}
    for k in _NUMBERS:
        r[k] = _NUMBERS[k]
    for k in _PRESET_NUMBERS:
        r[k] = _PRESET_NUMBERS[k][col]
    for k in CHOICES:
        r[k] = CHOICES[k][0]
    return r


_last: list = [None, None]  # the last spec resolved and its result: games of one evening share it


def resolve(spec: "dict | None") -> dict:
    """Validate a rules spec ({"preset": ..., option: value}) and return every option's value.
    The result is shared between games with equal specs: treat it as read-only."""
    if spec is not None and spec == _last[0]:
        return _last[1]  # type: ignore[no-any-return]
    r = _resolve(spec)
    _last[0] = dict(spec) if spec is not None else None
    _last[1] = r
    return r


def _resolve(spec: object) -> dict:
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        raise GameError("rules: must be an object")
    r = defaults(spec.get("preset", "seed"))
    for k in spec:
        v = spec[k]
        if k == "preset":
            continue
        if k in CHOICES:
            if v not in CHOICES[k]:
                raise GameError("rules: %s must be one of %s", k, ", ".join(CHOICES[k]))
        elif k in r:
            if type(v) is not int or v < 0 or v > 100000:
                raise GameError("rules: %s must be a whole number 0..100000", k)
            if v == 0 and k in ("target", "m3_target"):
                raise GameError("rules: %s must be above 0", k)
            if k == "knock_limit" and v > 98:
                raise GameError("rules: knock_limit must be 0..98")
        else:
            raise GameError("rules: unknown option %r", k)
        r[k] = v
    return r


def overrides(resolved: dict) -> dict:
    """The smallest spec that gives these rules: the preset plus the options that differ from it."""
    base = defaults(resolved["preset"])
    spec = {"preset": resolved["preset"]}
    for k in resolved:
        if resolved[k] != base[k]:
            spec[k] = resolved[k]
    return spec
