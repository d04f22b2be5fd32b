"""Journal and Store on the MicroPython unix port: littlefs on a RAM block device (the Pico's
filesystem, 4096-byte blocks) from source and from .mpy (mpy-cross -O3), and plain files.
The cases are in tests/mp_scripts/journal_cases.py and store_cases.py: each is its own test here
(-k picks one)."""

import os

import pytest

from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = [os.path.join(HERE, "mp_scripts", n) for n in ("journal_cases.py", "store_cases.py")]
CASES = [pytest.param(s, c, id=c) for s in SCRIPTS for c in mp.cases(s)]
MP_SCRIPTS = os.path.join(HERE, "mp_scripts")


@pytest.fixture(scope="module")
def journal_mpy(tmp_path_factory):
    return mp.build(
        str(tmp_path_factory.mktemp("mpy")),
        modules=mp.STORE_MODULES,
    )


@pytest.mark.parametrize("script, case", CASES)
def test_littlefs_source(script, case):
    mp.run_case(script, case, ["lfs"], paths=mp.SOURCE_PATHS, heap="1M")


@pytest.mark.parametrize("script, case", CASES)
def test_littlefs_mpy(script, case, journal_mpy):
    mp.run_case(script, case, ["lfs"], paths=[journal_mpy], heap="1M")


@pytest.mark.parametrize("script, case", [c for c in CASES if "flash_full" not in c.id])
def test_plain_files(script, case, tmp_path):
    mp.run_case(script, case, ["posix", str(tmp_path)], paths=mp.SOURCE_PATHS)


def test_store_keeps_only_the_newest_games_in_ram(tmp_path):
    """A season of games fits the heap: older games stay in the journal, not in RAM. A boot
    without a checkpoint replays only the game on the table (the first screen waits for it)."""
    from kit import mp

    script = r"""
import os, gc
from knockfw.journal import Journal
from knockfw.store import Store
from storekit import events_of, note
P = %r
def open_store():
    return Store(Journal(P + "/j.txt"), P + "/meta.json").load()
st = open_store()
rec = {"method": 3, "players": ["A", "B", "C"], "start": {"dealer": 0}, "rules": {"preset": "seed"}}
for i in range(12):
    st.record({"t": "game", "rec": rec})
    st.record({"t": "hand", "h": {"knock": 0, "counts": [1, 30, 40]}})
kept = [g for g in st.gids() if st.game(g) is not None]
st2 = open_store()
kept2 = [g for g in st2.gids() if st2.game(g) is not None]
print(st.gids() == list(range(1, 13)), kept, st2.gids() == st.gids(), kept2,
      st2.game(12).totals, len(list(events_of(st2, 0, 1000))))
""" % str(tmp_path)
    p = mp.run(script, paths=mp.SOURCE_PATHS + [MP_SCRIPTS])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [
        "True",
        "[11,",
        "12]",
        "True",
        "[12]",
        "[69,",
        "0,",
        "0]",
        "25",
    ]


def test_a_game_number_is_never_reused_after_the_journal_loses_its_tail(tmp_path):
    """Damage that costs the journal its last records must not make the device hand out a game
    number the laptop may already hold for another game."""
    from kit import mp

    script = r"""
from knockfw.journal import Journal
from knockfw.store import Store
from storekit import events_of, note
P = %r
def open_store():
    return Store(Journal(P + "/j.txt"), P + "/meta.json").load()
rec = {"method": 3, "players": ["A", "B", "C"], "start": {"dealer": 0}, "rules": {"preset": "seed"}}
st = open_store()
for i in range(2):
    st.record({"t": "game", "rec": rec})
    st.record({"t": "hand", "h": {"knock": 0, "counts": [1, 30, 40]}})
lines = open(P + "/j.txt").read().split("\n")
lines[3] = lines[3].replace("game", "gxme")   # game 2's record is damaged: it and what follows go
open(P + "/j.txt", "w").write("\n".join(lines))
st = open_store()
print(st.gids(), st.record({"t": "game", "rec": rec})["g"], bool(note(st)))
""" % str(tmp_path)
    p = mp.run(script, paths=mp.SOURCE_PATHS + [MP_SCRIPTS])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["[1]", "3", "True"]
