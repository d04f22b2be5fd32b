# The settings on the device (knockfw.ui activity "settings", from the menu): Up/Down move, A/B
# step the value forwards/backwards, C back to the scoreboard. Each change is an effect
# ("settings", partial settings) that the app checks and saves at once. Under the settings, the
# about line: the firmware's version (knockfw.version), which A/B do not change.
from knockcore.rules import CHOICES, PRESETS, resolve
from knockfw import screens as S
from knockfw import text
from knockfw.buttons import STEPS
from knockfw.fonts import medium
from knockfw.settings import LANGS, M3_TARGETS, SLEEPS, STAKES, TARGETS
from knockfw.strings import t

# (key, values in the order A steps through them): the game options of knockcore.rules (the
# targets offered are the device's choice, knockfw.settings), then the app's own settings.
ITEMS = (
    ("preset", PRESETS),
    ("target", TARGETS),
    ("m3_target", M3_TARGETS),
    ("m1_extra", CHOICES["m1_extra"]),
    ("m3_formula", CHOICES["m3_formula"]),
    ("m3_penalty_on", CHOICES["m3_penalty_on"]),
    ("lang", LANGS),
    ("sleep_s", SLEEPS),
    ("stake", STAKES),  # money per point on the Evening screen, in hundredths
)
_APP = ("lang", "sleep_s", "stake")  # the keys that are settings of their own, not game options


def value(settings, key):
    """The setting's value now: the app's, or the game option's under the rules chosen."""
    if key in _APP:
        return settings[key]
    return resolve(settings["rules"])[key]


class Activity:
    mode = "settings"

    def start(self, ui, game, settings, arg):
        self.sel = 0
        return None

    def handle(self, ui, name, how, game, settings):
        if name in STEPS:
            self.sel = (self.sel + (1 if name == "down" else -1)) % (len(ITEMS) + 1)
            return None
        if how != "press":
            return None
        if name == "c":
            return ui.home()
        if self.sel == len(ITEMS):  # the about line
            return None
        key, values = ITEMS[self.sel]
        cur = value(settings, key)
        i = values.index(cur) if cur in values else 0
        v = values[(i + (1 if name == "a" else -1)) % len(values)]
        if key in _APP:
            return [("settings", {key: v})]
        rules = dict(settings["rules"])
        rules[key] = v
        return [("settings", {"rules": rules})]

    def draw(self, fb, game, settings, sync):
        S.listing(fb, t("settings"), len(ITEMS) + 1, self.sel, lambda i: _row(settings, i))
        return t("hint_settings")


def _row(settings, i):
    if i == len(ITEMS):
        from knockfw.version import VERSION  # only when the line is on the screen

        return t("about") % VERSION
    key = ITEMS[i][0]
    v = value(settings, key)
    if key == "sleep_s":
        v = t("n_min") % (v // 60) if v % 60 == 0 else t("n_sec") % v
    elif key == "stake":
        v = "%d.%02d" % (v // 100, v % 100) if v else t("ev_off")
    elif key == "lang":
        v = t("lang_" + v)
    elif isinstance(v, str):
        v = t("opt_" + v)
    v = ": " + v if isinstance(v, str) else ": %d" % v
    return text.fit(t("set_" + key), medium, S.W - 12 - text.width(v, medium)) + v
