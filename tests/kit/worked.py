"""The worked games of docs/RULES.md, read from examples/ (the files the doc's tables and the
README replay): a test or tool that plays one reads it here, never types its hands again.

    start, hands = worked.game(3)      # examples/method3.json: the roles at the start, the hands
    rec = worked.record("knock-at-0")  # any example's whole game record
"""

import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


def record(name):
    """The game record of examples/NAME.json."""
    with open(os.path.join(EXAMPLES, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def game(method):
    """(start, hands) of the worked example of a method (examples/methodN.json), for the players
    Ann, Bob and Cy under the seed preset."""
    rec = record("method%d" % method)
    assert rec["method"] == method and rec["rules"] == {"preset": "seed"}, rec
    assert rec["players"] == ["Ann", "Bob", "Cy"], rec["players"]
    return rec["start"], rec["hands"]
