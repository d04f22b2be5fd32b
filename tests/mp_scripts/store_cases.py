# Store cases (knockfw.store: games kept as events in the journal, rebuilt at boot, the boot
# checkpoint), run one at a time under the MicroPython unix port by tests/test_journal.py, with the
# setup arguments of journal_cases.py (lfs, or posix DIR: tests/mp_scripts/lfs_kit.py).
import binascii
import json
import os

import lfs_kit as kit
from knockfw import journal as jmod
from knockfw.journal import Journal, load_json, save_json
from knockfw.store import KEEP, Store, StoreError
from lfs_kit import check, exists, expect_raise, read, write
from storekit import end_game, ended, events_of, game_in, note

kit.install(globals())  # MODE, DIR, PATH, META (where the case's files go), setup, fresh


REC = {
    "method": 3,
    "players": ["Ann", "Bob", "Cy"],
    "start": {"dealer": 2},
    "rules": {"preset": "seed"},
}


def knock(g, k, lo=3, hi=20):
    c = [None, None, None]
    for s in g.active:
        c[s] = hi
    c[k] = lo
    return {"knock": k, "counts": c}


def store():
    return Store(Journal(PATH), META).load()


def hands_of(st, gid):
    return st.game(gid).record()["hands"]


def case_store_new_device():
    fresh()
    st = store()
    check(len(st.device_id), 16)
    int(st.device_id, 16)
    check((st.epoch, st.current(), st.gids(), st.last_seq, note(st)), (0, None, [], 1, ""))
    check(events_of(st), [(1, {"t": "epoch", "e": 0, "dev": st.device_id, "next": 1})])
    check(load_json(META), {"device_id": st.device_id, "epoch": 0, "next_gid": 1})
    check(store().device_id, st.device_id)


def case_store_game_survives_reboot():
    fresh()
    st = store()
    gid = st.record({"t": "game", "rec": REC})["g"]
    g = st.game(gid)
    for i in range(5):
        st.record({"t": "hand", "h": knock(g, i % 3)})
    st.record({"t": "hand", "h": {"void": True}})
    st.record({"t": "undo"})
    st.record({"t": "edit", "i": 1, "h": knock(g, 0, 2, 25)})
    want = hands_of(st, gid)
    check(len(want), 5)
    st2 = store()
    check((st2.gids(), st2.current(), hands_of(st2, gid)), ([gid], gid, want))
    check(st2.game(gid).totals, g.totals)
    check(
        [e["t"] for _, e in events_of(st2)],
        ["epoch", "game", "hand", "hand", "hand", "hand", "hand", "hand", "undo", "edit"],
    )


def case_store_refusals_leave_flash_alone():
    fresh()
    st = store()
    before = read(PATH)
    expect_raise(StoreError, st.record, {"t": "hand", "h": {"void": True}})  # no game yet
    bad = {"method": 9, "players": ["a", "b", "c"], "start": {}}
    expect_raise(ValueError, st.record, {"t": "game", "rec": bad})
    expect_raise(ValueError, st.record, {"t": "game", "rec": dict(REC, hands=[{"void": True}])})
    check((read(PATH), st.last_seq, st.gids()), (before, 1, []))
    gid = st.record({"t": "game", "rec": REC})["g"]
    before = read(PATH)
    seq = st.last_seq
    expect_raise(ValueError, st.record, {"t": "undo"})  # nothing to undo (GameError)
    expect_raise(ValueError, st.record, {"t": "hand", "h": {"knock": 0, "counts": [50, 1, 2]}})
    expect_raise(ValueError, st.record, {"t": "hand", "h": {"bogus": 1}})
    expect_raise(ValueError, st.record, {"t": "edit", "i": 0, "h": {"void": True}})  # no hand 0
    expect_raise(ValueError, st.record, {"t": "hand"})  # no hand (GameError)
    expect_raise(ValueError, st.record, {"t": "epoch"})  # not a change the player makes
    check((read(PATH), st.last_seq, hands_of(st, gid)), (before, seq, []))
    st.record({"t": "hand", "h": {"void": True}})
    expect_raise(
        ValueError, st.record, {"t": "edit", "i": 0, "h": {"knock": 1, "counts": [1, 99, 1]}}
    )
    check(hands_of(store(), gid), [{"void": True}])


def case_store_end_and_current():
    fresh()
    st = store()
    a = st.record({"t": "game", "rec": REC})["g"]
    end_game(st, a)
    check((st.current(), ended(st, a)), (None, True))
    expect_raise(StoreError, st.record, {"t": "hand", "h": {"void": True}})  # no game on the table
    b = st.record({"t": "game", "rec": REC})["g"]
    check((st.current(), st.gids()), (b, [a, b]))
    st2 = store()
    check((st2.current(), ended(st2, a), ended(st2, b)), (b, True, False))


def case_store_erase_keeps_id_and_gids():
    fresh()
    st = store()
    dev = st.device_id
    for _ in range(3):
        st.record({"t": "game", "rec": REC})
        st.record({"t": "hand", "h": {"void": True}})
    st.erase()
    check((st.gids(), st.current(), st.epoch, st.device_id, st.last_seq), ([], None, 1, dev, 1))
    st2 = store()
    check((st2.gids(), st2.epoch, st2.device_id), ([], 1, dev))
    check(st2.record({"t": "game", "rec": REC})["g"], 4)
    st2.erase()
    st3 = store()
    check((st3.epoch, st3.record({"t": "game", "rec": REC})["g"]), (2, 5))
    check(events_of(st3, 0, 1), [(1, {"t": "epoch", "e": 2, "dev": dev, "next": 5})])


def case_store_interrupted_erase_finishes():
    fresh()
    st = store()
    st.record({"t": "game", "rec": REC})
    st.record({"t": "hand", "h": {"void": True}})
    # cut after meta.json was written, before the new journal replaced the old one
    save_json(META, {"device_id": st.device_id, "epoch": 1, "next_gid": 2})
    st2 = store()
    check((st2.gids(), st2.epoch, note(st2)), ([], 1, "finished an interrupted erase"))
    check(st2.record({"t": "game", "rec": REC})["g"], 2)


def case_store_lost_meta_rebuilt():
    fresh()
    st = store()
    st.record({"t": "game", "rec": REC})
    st.erase()
    gid = st.record({"t": "game", "rec": REC})["g"]
    os.remove(META)
    st2 = store()
    check((st2.device_id, st2.epoch, st2.gids()), (st.device_id, 1, [gid]))
    check(load_json(META)["device_id"], st.device_id)


def case_store_odd_meta():
    fresh()
    st = store()
    dev = st.device_id
    for bad in ('{"device_id": 5, "epoch": "x", "next_gid": null}', "[1, 2]", '"str"', "{}"):
        write(META, bad.encode())
        st2 = store()
        check((st2.device_id, st2.epoch, note(st2)), (dev, 0, ""))
        check(load_json(META), {"device_id": dev, "epoch": 0, "next_gid": 1})


def case_store_events_paging():
    fresh()
    st = store()
    st.record({"t": "game", "rec": REC})
    for _ in range(70):
        st.record({"t": "hand", "h": {"void": True}})
    allev = events_of(st, 0, 1000)
    check(len(allev), 72)
    got, after = [], 0
    while True:
        page = events_of(st, after, 25)
        if not page:
            break
        got += page
        after = page[-1][0]
    check(got, allev)
    check(events_of(st, 72, 10), [])
    check(events_of(st, 0, 0), [])


def case_store_skips_bad_events():
    fresh()
    st = store()
    gid = st.record({"t": "game", "rec": REC})["g"]
    st.record({"t": "hand", "h": {"void": True}})
    j = st.journal
    j.append({"t": "hand", "g": gid, "h": {"knock": 0, "counts": [99, 0, 0]}})
    j.append({"t": "hand", "g": 77, "h": {"void": True}})
    j.append({"t": "what"})
    j.append([1, 2])
    j.append({"t": "undo", "g": gid})
    st2 = store()
    check(hands_of(st2, gid), [])
    if not note(st2).startswith("skipped 4 journal records (record 4: "):
        raise AssertionError(note(st2))


def fill(sizes):
    """Fill the filesystem: files filler1, filler2... beside META, each written in pieces of
    its size until the flash refuses."""
    for k in range(len(sizes)):
        try:
            with open(META[:-9] + "filler%d" % (k + 1), "wb") as f:
                while True:
                    f.write(b"x" * sizes[k])
                    f.flush()
        except OSError:
            pass


def case_store_flash_full():
    # a full filesystem refuses the append: RAM must still match flash, and boot still works
    dev = fresh(16)
    st = store()
    gid = st.record({"t": "game", "rec": REC})["g"]
    fill((4096, 512, 64))
    os.remove(META[:-9] + "filler3")  # room for some hands, not for many
    os.remove(META[:-9] + "filler2")
    n = 0
    err = None
    while n < 400:
        try:
            st.record({"t": "hand", "h": {"void": True}})
        except OSError as e:
            err = e
            break
        n += 1
    if err is None or n < 5:
        raise AssertionError("filled after %d hands (%r)" % (n, dev))
    check(len(hands_of(st, gid)), n)
    check(len(hands_of(store(), gid)), n)


# ---- the boot checkpoint (knockfw.store: /data/snap.json)

RECS = [
    {"method": 1, "players": ["Ann", "Bob", "Cy"], "start": {"idle": 2, "dealer": 0}},
    {"method": 2, "players": ["Ann", "Bob", "Cy"], "start": {"box": 0, "captain": 1}},
    REC,
]


def snap_path():
    return META[: -len("meta.json")] + "snap.json"


def snap_file(obj):
    """A checkpoint file of obj, with its CRC right (as Store.checkpoint writes one)."""
    body = json.dumps(obj).encode()
    return b"%08x " % (binascii.crc32(body) & 0xFFFFFFFF) + body


def snap_of(data):
    """The JSON of a checkpoint file, and whether its CRC is right."""
    return json.loads(data[9:]), int(data[:8].decode(), 16) == binascii.crc32(data[9:])


def snap_store():
    return Store(Journal(PATH), META, snap_path=snap_path()).load()


def state(st):
    """Everything a boot rebuilds, and what an undo of the game on the table would leave: the
    kept games (KEEP) whether in RAM (restored from the checkpoint) or not (a boot without one
    replays only the game on the table)."""
    out = [st.gids(), st.current(), st.last_seq, st.evening_gid, st.evening_seq]
    for gid in st.gids()[-KEEP:]:
        g = game_in(st, gid)
        if g is not None:
            c = g.copy()
            c.undo()
            out.append(
                (
                    gid,
                    g.record(),
                    g.standings(hands=False),
                    g.closed,
                    g.hands,
                    c.standings(hands=False),
                )
            )
    return out


def case_checkpoint_boot_equals_the_full_replay():
    # A random evening (three methods, undo, edits, new evenings); a checkpoint now and then;
    # every few changes, a boot from the checkpoint and a boot replaying the whole journal agree.
    fresh(128)
    st = snap_store()
    x = 7
    used = 0
    for step in range(150):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        r = x % 100
        gid = st.current()
        g = st.game(gid) if gid is not None else None
        try:
            if g is None or g.over or r < 3:
                st.record({"t": "game", "rec": RECS[(x >> 8) % 3]})
            elif r < 9 and g.hands:
                st.record({"t": "undo"})
            elif r < 13 and g.hands:
                k = g.active[(x >> 9) % len(g.active)]
                st.record({"t": "edit", "i": (x >> 4) % len(g.hands), "h": knock(g, k, 1, 9)})
            elif r < 15:
                st.record({"t": "evening"})
            else:
                act = g.active
                k = act[(x >> 9) % len(act)]
                if r < 25:
                    h = knock(g, k, 0, 15)
                    h = {"gin": k, "counts": h["counts"]}
                elif r < 30:
                    h = {"void": True}
                else:
                    h = knock(g, k, (x >> 12) % 10, 10 + (x >> 16) % 20)
                st.record({"t": "hand", "h": h})
        except (ValueError, StoreError):
            pass  # the rules refused it (an edit that breaks a later hand): nothing written
        if r % 4 == 0:
            st.checkpoint()
            check(st.snap_seq, st.last_seq)
        if step % 6 == 5:
            a, b = snap_store(), store()
            check(state(a), state(b))
            if a.snap_seq:
                used += 1
            a.journal.close()
            b.journal.close()
    if used < 10:
        raise AssertionError("the checkpoint was used only %d times" % used)


def case_boot_replays_only_the_game_on_the_table():
    # Without a checkpoint a boot rebuilds only the newest game (the first screen waits for it);
    # the one before it comes back from a checkpoint, or is replayed where it is needed.
    fresh()
    st = snap_store()
    a = st.record({"t": "game", "rec": REC})["g"]
    for i in range(4):
        st.record({"t": "hand", "h": knock(st.game(a), i % 3, 3, 20)})
    end_game(st, a)
    b = st.record({"t": "game", "rec": REC})["g"]
    st.record({"t": "hand", "h": knock(st.game(b), 1, 2, 30)})

    def ram(s):
        return [g for g in s.gids() if s.game(g) is not None]

    check((ram(st), ram(store())), ([a, b], [b]))
    check(game_in(store(), a).record(), st.game(a).record())
    st.checkpoint()
    check(ram(snap_store()), [a, b])
    os.remove(snap_path())
    check(ram(snap_store()), [b])


def case_a_checkpoint_of_other_records_is_not_used():
    fresh()
    st = snap_store()
    gid = st.record({"t": "game", "rec": REC})["g"]
    g = st.game(gid)
    for i in range(6):
        st.record({"t": "hand", "h": knock(g, i % 3, 3, 20)})
    st.checkpoint()
    good = read(snap_path())
    check(snap_store().snap_seq, st.last_seq)
    # the last record rewritten with other counts of the same length: same seq, same end
    want = snap_store().game(gid).totals
    st.journal.close()
    body = read(PATH)
    cut = body.rindex(b"\n", 0, len(body) - 1) + 1
    seq, obj = st.last_seq, {"t": "hand", "g": gid, "h": knock(g, 0, 4, 21)}
    write(PATH, body[:cut] + jmod._line(seq, obj))
    check(len(read(PATH)), len(body))
    b = snap_store()
    check((b.snap_seq, state(b)), (0, state(store())))
    if b.game(gid).totals == want:
        raise AssertionError("the changed hand was not replayed")
    check(exists(snap_path()), False)  # taken for other records: removed
    write(PATH, body)
    write(snap_path(), good)
    check(snap_store().snap_seq, st.last_seq)
    # not a checkpoint, or another device's or epoch's, or one flipped bit: a full replay, the
    # boot goes on, and the file is gone
    obj, whole = snap_of(good)
    check(whole, True)
    other = json.loads(json.dumps(obj))
    other[2] = "0123456789abcdef"
    older = json.loads(json.dumps(obj))
    older[1] = 5
    flip = bytearray(good)
    i = max(good.rfind(bytes((c,))) for c in b"0123456789")
    flip[i] ^= 1  # a digit still (0 <-> 1, 2 <-> 3...): the JSON parses, its CRC is wrong
    for junk in (
        b"",
        b"[1, 2",
        b"{}",
        b"[2]",
        b"null",
        good[:8] + good[9:],
        bytes(flip),
        good[: len(good) // 2],
        snap_file([1, 0, "x", 3, 4, "y", []]),
        snap_file([1, 0, "x", None, 0, "y", []]),
        snap_file([1, 0, "x", "3", 4, "y", []]),
        snap_file([2] + obj[1:]),
        snap_file(other),
        snap_file(older),
        snap_file(obj).replace(b"[", b"[[", 1),
    ):
        write(snap_path(), junk)
        b = snap_store()
        check((b.snap_seq, state(b), exists(snap_path())), (0, state(store()), False))
    write(snap_path(), snap_file(obj))
    check(snap_store().snap_seq, st.last_seq)  # (the same, written again: used)
    # a journal that lost its tail (the checkpoint's record is gone): not used
    write(snap_path(), good)
    write(PATH, body[:cut])
    b = snap_store()
    check((b.snap_seq, b.last_seq, state(b)), (0, seq - 1, state(store())))
    # an erase takes the checkpoint with the games
    b.checkpoint()
    check(exists(snap_path()), True)
    b.erase()
    check((exists(snap_path()), snap_store().snap_seq), (False, 0))


def case_store_checkpoint_flash_full():
    # a checkpoint that finds no room is skipped, once, quietly; boot takes the older one
    fresh(16)
    st = snap_store()
    gid = st.record({"t": "game", "rec": dict(REC, rules={"preset": "seed", "m3_target": 100000})})[
        "g"
    ]
    g = st.game(gid)
    for i in range(4):
        st.record({"t": "hand", "h": knock(g, i % 3)})
    st.checkpoint()
    old = st.snap_seq
    for i in range(80):  # a checkpoint too big to sit in littlefs's metadata
        st.record({"t": "hand", "h": knock(g, i % 3)})
    fill((4096, 512, 64, 8, 1))
    last = st.last_seq
    st.checkpoint()  # no room: not written, no exception, not tried again
    check(st.snap_seq, last)
    check(snap_of(read(snap_path()))[0][3], old)
    b = snap_store()
    check((b.snap_seq, state(b)), (old, state(store())))
