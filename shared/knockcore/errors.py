# The one error of the rules core, in English and in parts for other languages.


class GameError(ValueError):
    """Bad input to the rules core: a short message naming the hand and the field, e.g.
    "hand 4: knock: Ann's count 11 is above the knock limit 10" (str() of the error).

    It is kept in parts too, so that the device and the laptop can say it in the player's
    language: .template, the English text with %s/%d holes (also the key of its translation),
    .params, what fills the holes, and .hand, the hand's number or None. See say()."""

    def __init__(self, template, *params, hand=None):
        self.template = template
        self.params = params
        self.hand = hand
        super().__init__(say(self))


HAND = "hand %d: "  # the prefix of a message about one hand (a template, translated too)


def say(err, lookup=None):
    """err's message through lookup(english template) -> template in another language (e.g.
    knockfw.strings.t, which gives unknown keys back as they are); English without lookup."""
    t = err.template if lookup is None else lookup(err.template)
    msg = t % err.params if err.params else t
    if err.hand is not None:
        msg = (HAND if lookup is None else lookup(HAND)) % err.hand + msg
    return msg
