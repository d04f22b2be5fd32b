"""The rules core's messages in the user's language on the laptop: knockbox.messages says a
GameError through the firmware's own Russian table, and translates a message already written out
in English (as the history keeps it) to the same words; `--lang` and the locale choose."""

import json
import os
import subprocess

import pytest

from knockbox import messages
from knockcore.errors import GameError
from knockcore.game import from_record

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = json.load(open(os.path.join(HERE, "vectors", "games.json"), encoding="utf-8"))
REFUSED = [v for v in VECTORS if "error" in v]


@pytest.mark.parametrize("case", REFUSED, ids=[v["name"] for v in REFUSED])
def test_a_written_out_message_translates_to_what_the_error_says(case):
    with pytest.raises(GameError) as e:
        from_record(case["game"])
    english = str(e.value)
    assert case["error"] in english
    ru = messages.error_text(e.value, "ru")
    assert ru != english  # it is said in Russian...
    assert messages.translate(english, "ru") == ru  # ...and the same from the text
    assert messages.translate("record 7: " + english, "ru") == "запись 7: " + ru
    assert messages.error_text(e.value, "en") == messages.translate(english, "en") == english


def test_text_that_is_no_core_message_stays_as_it_is():
    assert messages.translate("malformed (KeyError('h'))", "ru") == "malformed (KeyError('h'))"
    assert messages.translate("", "ru") == ""


BAD = {
    "method": 3,
    "players": ["Ann", "Bob", "Cy"],
    "start": {"dealer": 0},
    "hands": [{"knock": 0, "counts": [11, 5, 6]}],
}


@pytest.mark.parametrize(
    "how, want",
    [
        (["--lang", "ru"], "knockbox: сдача 1: стук: у Ann 11 очков, больше предела стука 10"),
        (["--lang", "en"], "knockbox: hand 1: knock: Ann's count 11 is above the knock limit 10"),
        ([], "knockbox: сдача 1: стук: у Ann 11 очков, больше предела стука 10"),  # LANG=ru_RU
        (
            ["--engine", "micropython"],
            "knockbox: сдача 1: стук: у Ann 11 очков, больше предела стука 10",
        ),
    ],
)
def test_replay_says_a_refused_record_in_the_users_language(tmp_path, how, want):
    game = tmp_path / "g.json"
    game.write_text(json.dumps(BAD))
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "ru_RU.UTF-8"
    p = subprocess.run(
        [
            os.path.join(os.path.dirname(__import__("sys").executable), "knockbox"),
            "replay",
            str(game),
        ]
        + how,
        capture_output=True,
        text=True,
        env=env,
    )
    assert p.returncode == 1 and p.stderr.strip() == want, p.stderr
