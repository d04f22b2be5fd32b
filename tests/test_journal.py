"""Journal and Store on the MicroPython unix port: littlefs on a RAM block device (the Pico's
filesystem, 4096-byte blocks) from source and from .mpy (mpy-cross -O3), and plain files.
The cases are in tests/mp_scripts/journal_cases.py (each prints "ok <case>")."""
import os
import re

import mp

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mp_scripts", "journal_cases.py")
with open(SCRIPT, encoding="utf-8") as _f:
    CASES = sorted(re.findall(r"^def (case_\w+)\(", _f.read(), re.M))
SHARED = os.path.join(mp.ROOT, "shared")
FIRMWARE = os.path.join(mp.ROOT, "firmware")


def _check(r, skip=()):
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")
    assert lines[-2:] == ["done", ""], r.stdout + r.stderr
    assert sorted(line[3:] for line in lines[:-2]) == [c for c in CASES if c not in skip]


def test_littlefs_source():
    _check(mp.run_file(SCRIPT, ["lfs"], paths=[FIRMWARE, SHARED], heap="1M", cwd=HERE))


def test_littlefs_mpy(tmp_path):
    lib = mp.build(str(tmp_path), modules=["knockfw.journal", "knockfw.store", "knockfw.flash"])
    _check(mp.run_file(SCRIPT, ["lfs"], paths=[lib, SHARED], heap="1M", cwd=HERE))


def test_plain_files(tmp_path):
    _check(mp.run_file(SCRIPT, ["posix", str(tmp_path)], paths=[FIRMWARE, SHARED], cwd=HERE),
           skip=("case_store_flash_full",))


def test_store_keeps_only_the_newest_games_in_ram(tmp_path):
    """A season of games fits the heap: older games stay in the journal, not in RAM."""
    import mp

    script = r"""
import os, gc
from knockfw.journal import Journal
from knockfw.store import Store
P = %r
def open_store():
    return Store(Journal(P + "/j.txt"), P + "/meta.json").load()
st = open_store()
rec = {"method": 3, "players": ["A", "B", "C"], "start": {"dealer": 0}, "rules": {"preset": "seed"}}
for i in range(12):
    g = st.new_game(rec)
    st.add_hand(g, {"knock": 0, "counts": [1, 30, 40]})
kept = [g for g in st.gids() if st.game(g) is not None]
st2 = open_store()
kept2 = [g for g in st2.gids() if st2.game(g) is not None]
print(st.gids() == list(range(1, 13)), kept, st2.gids() == st.gids(), kept2,
      st2.game(12).totals, len(list(st2.events(0, 1000))))
""" % str(tmp_path)
    p = mp.run(script)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "[11,", "12]", "True", "[11,", "12]", "[69,", "0,", "0]", "25"]


def test_a_game_number_is_never_reused_after_the_journal_loses_its_tail(tmp_path):
    """Damage that costs the journal its last records must not make the device hand out a game
    number the laptop may already hold for another game."""
    import mp

    script = r"""
from knockfw.journal import Journal
from knockfw.store import Store
P = %r
def open_store():
    return Store(Journal(P + "/j.txt"), P + "/meta.json").load()
rec = {"method": 3, "players": ["A", "B", "C"], "start": {"dealer": 0}, "rules": {"preset": "seed"}}
st = open_store()
for i in range(2):
    g = st.new_game(rec)
    st.add_hand(g, {"knock": 0, "counts": [1, 30, 40]})
lines = open(P + "/j.txt").read().split("\n")
lines[3] = lines[3].replace("game", "gxme")   # game 2's record is damaged: it and what follows go
open(P + "/j.txt", "w").write("\n".join(lines))
st = open_store()
print(st.gids(), st.new_game(rec), bool(st.note))
""" % str(tmp_path)
    p = mp.run(script)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["[1]", "3", "True"]
