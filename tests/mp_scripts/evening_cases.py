# The evening on the device's store (knockfw.store) and the Evening screen's sums
# (knockfw.ui_evening.tally), on a fresh littlefs RAM disk at /data, one case at a time under the
# MicroPython unix port (tests/test_evening_device.py through tests/mp_scripts/run_case.py).
import gc

from knockcore import evening as ledger
from knockcore.game import from_record
from simflash import RAMBlockDevice, mount
from knockfw.journal import Journal
from knockfw.store import Store
from knockfw.ui_evening import tally
from storekit import events_of, note

PATH = "/data/journal"
META = "/data/meta.json"
M3 = {
    "method": 3,
    "players": ["Ann", "Bob", "Cy"],
    "start": {"dealer": 2},
    "rules": {"preset": "seed", "m3_target": 40},
}
WIN = {"knock": 0, "counts": [1, 30, 40]}  # Ann +69: the game is over after one such hand


def fresh():
    gc.collect()
    mount(RAMBlockDevice(64), "/data", fresh=True)


def store():
    return Store(Journal(PATH), META).load()


def check(got, want):
    if got != want:
        raise AssertionError("got %r\nwant %r" % (got, want))


def game(st, players=None, hands=(WIN,)):
    rec = dict(M3)
    if players:
        rec["players"] = players
    g = st.record({"t": "game", "rec": rec})["g"]
    for h in hands:
        st.record({"t": "hand", "h": h})
    return g


def want(recs):
    """The ledger of game records, worked out by the core alone."""
    led = {}
    for r in recs:
        g = from_record(dict(r, format="knockbox-game/1"))
        ledger.add(led, g.standings(False))
    return led


def case_new_evening_is_journaled_and_found_at_boot():
    fresh()
    st = store()
    check((st.evening_gid, st.evening_seq), (0, 0))
    game(st)
    game(st)
    check(st.record({"t": "evening"}), {"t": "evening", "next": 3})
    seq = st.last_seq
    check(events_of(st, seq - 1), [(seq, {"t": "evening", "next": 3})])
    check((st.evening_gid, st.evening_seq), (3, seq))
    check(st.record({"t": "evening"}), None)  # no game in it yet: nothing written
    check(st.last_seq, seq)
    st2 = store()
    check((st2.evening_gid, st2.evening_seq, note(st2)), (3, seq, ""))
    g = game(st2)
    check(g, 3)
    check(st2.record({"t": "evening"}), {"t": "evening", "next": 4})
    st3 = store()
    check(
        (st3.evening_gid, st3.evening_seq, st3.gids(), st3.current()),
        (4, st2.last_seq, [1, 2, 3], 3),
    )


def case_junk_without_a_game_is_still_skipped():
    fresh()
    st = store()
    game(st)
    j = st.journal
    j.append({"t": "what"})  # older than the evening: not read
    st.record({"t": "evening"})
    seq = st.last_seq
    j.append([1, 2])
    j.append({"t": "evening", "next": "x"})
    st2 = store()
    check((st2.evening_gid, st2.evening_seq), (2, seq))
    check(note(st2), "skipped 2 journal records (record %d: not a game event)" % (seq + 1))
    j = st2.journal
    j.append({"t": "evening"})
    st3 = store()
    check((st3.evening_gid, st3.evening_seq), (2, seq))
    check(note(st3), "skipped 3 journal records (record %d: not a game event)" % (seq + 1))


def case_erase_ends_the_evening():
    fresh()
    st = store()
    game(st)
    st.record({"t": "evening"})
    game(st)
    st.erase()
    check((st.evening_gid, st.evening_seq), (0, 0))
    check((store().evening_gid, store().evening_seq), (0, 0))


def case_tally_replays_the_evenings_older_games_from_the_journal():
    fresh()
    st = store()
    names = (
        ["Ann", "Bob", "Cy"],
        ["Bob", "Cy", "Dee"],
        ["Dee", "Ann", "Bob"],
        ["Cy", "Dee", "Ann"],
        ["Ann", "Bob", "Dee"],
    )
    game(st, names[0])  # evening 1
    st.record({"t": "evening"})
    recs = []
    for i, n in enumerate(names):
        g = game(
            st,
            n,
            ({"void": True}, {"knock": 1, "counts": [30, 2, 20]})
            if i % 2
            else ({"knock": 0, "counts": [3, 30, 20]},),
        )
        recs.append(dict(M3, players=n, hands=st.game(g).record()["hands"]))
    gid = game(st, ["Ann", "Cy", "Dee"], ({"knock": 2, "counts": [10, 12, 5]},))  # playing
    for s, ram in ((st, [gid - 1, gid]), (store(), [gid])):  # as played, and after a reboot
        check([g for g in s.gids() if s.game(g) is not None], ram)
        led, n, run = tally(s)
        check((n, led), (5, want(recs)))
        check((run.players, run.totals), (["Ann", "Cy", "Dee"], s.game(gid).totals))
        check(ledger.payments(led), ledger.payments(want(recs)))


def case_tally_of_an_unbroken_first_evening_and_an_empty_new_one():
    fresh()
    st = store()
    recs = []
    for n in (["Ann", "Bob", "Cy"], ["Bob", "Cy", "Ann"], ["Cy", "Ann", "Bob"]):
        game(st, n)
        recs.append(dict(M3, players=n, hands=[WIN]))
    st.record({"t": "game", "rec": M3})
    st.record({"t": "hand", "h": {"void": True}})  # a game left unfinished
    game(st)  # and one over, in RAM
    recs.append(dict(M3, hands=[WIN]))
    led, n, run = tally(store())
    check((n, led, run), (4, want(recs), None))
    st.record({"t": "evening"})
    led, n, run = tally(st)
    check((n, led, run), (0, {}, None))
