"""knockcore.errors: one English message, kept in parts so the device and the laptop can say it
in the player's language (say() with a table of templates keyed by the English ones)."""

import pytest

from kit import mp
from knockcore.errors import GameError, say
from knockcore.game import from_record

REC = {"method": 3, "players": ["Ann", "Bob", "Cy"], "start": {"dealer": 0}}
RU = {
    "knock: %s's count %d is above the knock limit %d": "стук: у %s %d очков, предел %d",
    "hand %d: ": "сдача %d: ",
    "rules: unknown option %r": "правила: нет опции %r",
}


def refused(rec):
    with pytest.raises(GameError) as e:
        from_record(rec)
    return e.value


def test_a_refused_hand_in_parts_and_in_another_language():
    e = refused(dict(REC, hands=[{"void": True}, {"knock": 0, "counts": [11, 5, 6]}]))
    assert str(e) == "hand 2: knock: Ann's count 11 is above the knock limit 10"
    assert (e.template, e.params, e.hand) == (
        "knock: %s's count %d is above the knock limit %d",
        ("Ann", 11, 10),
        2,
    )
    assert say(e) == str(e)
    assert say(e, lambda s: RU.get(s, s)) == "сдача 2: стук: у Ann 11 очков, предел 10"


def test_a_message_without_a_translation_stays_english():
    e = refused(dict(REC, rules={"colour": 1}))
    assert str(e) == "rules: unknown option 'colour'" and e.hand is None
    assert say(e, lambda s: RU.get(s, s)) == "правила: нет опции 'colour'"
    e = refused(dict(REC, players=["Ann", "Ann", "Cy"]))
    assert say(e, lambda s: RU.get(s, s)) == str(e) == "players: names must differ"


def test_the_same_under_micropython():
    r = mp.run(r"""
from knockcore.errors import GameError, say
from knockcore.game import from_record
RU = {"knock: %s's count %d is above the knock limit %d": "стук: у %s %d очков, предел %d",
      "hand %d: ": "сдача %d: "}
try:
    from_record({"method": 3, "players": ["Ann", "Bob", "Cy"], "start": {"dealer": 0},
                 "hands": [{"knock": 0, "counts": [11, 5, 6]}]})
except GameError as e:
    print(str(e))
    print(say(e, lambda s: RU.get(s, s)))
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "hand 1: knock: Ann's count 11 is above the knock limit 10",
        "сдача 1: стук: у Ann 11 очков, предел 10",
    ]
