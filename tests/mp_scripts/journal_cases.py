# Journal and Store cases, run one at a time under the MicroPython unix port by
# tests/test_journal.py (through tests/mp_scripts/run_case.py), with the setup arguments:
#   lfs            the case on a fresh littlefs RAM disk at /data
#   posix DIR      the case in a fresh directory under DIR (the unix root VfsPosix; a VfsPosix
#                  mounted at /data cannot rename on the unix port)
import binascii
import gc
import json
import os

from knockfw import journal as jmod
from knockfw.flash import RAMBlockDevice, mount
from knockfw.journal import Journal, load_json, save_json
from knockfw.store import Store, StoreError

MODE = "lfs"
DIR = None
PATH = "/data/journal"
META = "/data/meta.json"
_n = [0]


def setup(args):
    global MODE, DIR
    MODE = args[0] if args else "lfs"
    DIR = args[1] if len(args) > 1 else None


def fresh(blocks=64):
    global PATH, META
    if MODE == "lfs":
        gc.collect()
        dev = RAMBlockDevice(blocks)
        mount(dev, "/data", fresh=True)
        return dev
    _n[0] += 1
    d = "%s/c%d" % (DIR, _n[0])
    os.mkdir(d)
    PATH = d + "/journal"
    META = d + "/meta.json"
    return None


def check(got, want):
    if got != want:
        raise AssertionError("got %r\nwant %r" % (got, want))


def expect_raise(exc, f, *args):
    try:
        f(*args)
    except exc as e:
        return e
    raise AssertionError("%r did not raise %r" % (f, exc))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def filled(n):
    j = Journal(PATH).open()
    for i in range(n):
        j.append({"i": i, "name": "Zo\u00eb" if i % 2 else "Ann", "l": [i, None]})
    j.close()
    return j


def case_roundtrip_and_format():
    fresh()
    j = filled(100)
    check(j.last_seq, 100)
    got = list(Journal(PATH).open().records())
    check([s for s, _ in got], list(range(1, 101)))
    check(got[7][1], {"i": 7, "name": "Zo\u00eb", "l": [7, None]})
    lines = read(PATH).split(b"\n")
    check(lines[-1], b"")
    for k, line in enumerate(lines[:-1]):
        seq, rest = line.split(b" ", 1)
        body, crc = line[:-9], line[-8:]
        check(int(seq), k + 1)
        check(crc, b"%08x" % (binascii.crc32(body) & 0xFFFFFFFF))
        check(json.loads(rest[:-9])["i"], k)


def case_records_after():
    fresh()
    filled(100)
    j = Journal(PATH).open()
    for after in (0, 1, 31, 32, 33, 64, 65, 99, 100, 150):
        got = [s for s, _ in j.records(after)]
        check(got, list(range(after + 1, 101)))
        check([o["i"] for _, o in j.records(after)], list(range(after, 100)))


def case_reopen_and_append():
    fresh()
    filled(10)
    j = Journal(PATH).open()
    check((j.last_seq, j.note), (10, ""))
    check(j.append({"x": 1}), 11)
    j2 = Journal(PATH).open()
    check(j2.last_seq, 11)
    check(list(j2.records(10)), [(11, {"x": 1})])


def case_records_while_appending():
    fresh()
    j = Journal(PATH).open()
    j.append([1])
    check(list(j.records()), [(1, [1])])
    j.append([2])
    check(list(j.records()), [(1, [1]), (2, [2])])


def case_torn_last_line():
    fresh()
    filled(20)
    good = read(PATH)
    extra = jmod._line(21, {"i": 20, "pad": "x" * 40})
    for cut in (1, 5, len(extra) // 2, len(extra) - 2, len(extra) - 1):
        write(PATH, good + extra[:cut])
        j = Journal(PATH).open()
        check(j.last_seq, 20)
        check(j.note, "dropped a half-written last record")
        check(read(PATH), good)
        check(j.append({"again": cut}), 21)
        check(Journal(PATH).open().note, "")
        check(list(Journal(PATH).open().records(20)), [(21, {"again": cut})])
        write(PATH, good)
        check(exists(PATH + ".tmp") or exists(PATH + ".bad"), False)


def case_bad_crc_last_line():
    fresh()
    filled(5)
    good = read(PATH)
    line = bytearray(jmod._line(6, {"v": 1}))
    line[3] = ord("9")      # flips the JSON after the crc was computed
    write(PATH, good + line)
    j = Journal(PATH).open()
    check((j.last_seq, j.note), (5, "dropped a half-written last record"))


def case_damage_in_the_middle():
    fresh()
    filled(30)
    data = read(PATH)
    lines = data.split(b"\n")
    pos = sum(len(x) + 1 for x in lines[:9]) + 4     # inside line 10
    bad = bytearray(data)
    bad[pos] = bad[pos] ^ 0x01
    write(PATH, bad)
    j = Journal(PATH).open()
    check(j.last_seq, 9)
    if "after record 9" not in j.note:
        raise AssertionError(j.note)
    check(read(PATH + ".bad"), bytes(bad))              # nothing thrown away
    check(read(PATH), b"\n".join(lines[:9]) + b"\n")
    check(j.append({"new": 1}), 10)
    j2 = Journal(PATH).open()
    check((j2.last_seq, j2.note), (10, ""))


def case_wrong_seq_and_garbage():
    fresh()
    filled(3)
    good = read(PATH)
    write(PATH, good + jmod._line(3, {"dup": 1}) + jmod._line(4, {"z": 1}))
    j = Journal(PATH).open()
    check(j.last_seq, 3)
    write(PATH, good + b"\x00\xff" * 3000)                # no newline, longer than a line
    check(Journal(PATH).open().last_seq, 3)
    write(PATH, b"hello\n" + good)
    j = Journal(PATH).open()
    check((j.last_seq, list(j.records())), (0, []))
    check(read(PATH), b"")


def case_missing_and_empty():
    fresh()
    j = Journal(PATH).open()
    check((j.last_seq, list(j.records()), j.note), (0, [], ""))
    check(j.append("first"), 1)


def case_rewrite_cut_between_renames():
    # _cut renamed the journal to .bad but not yet .tmp to the journal: .tmp is complete
    fresh()
    filled(4)
    os.rename(PATH, PATH + ".tmp")
    j = Journal(PATH).open()
    check(j.last_seq, 4)
    check(exists(PATH + ".tmp"), False)


def case_reset():
    fresh()
    j = filled(40)
    j = Journal(PATH).open()
    j.reset()
    check((j.last_seq, list(j.records()), read(PATH)), (0, [], b""))
    j.append({"a": 1})
    j.reset({"head": 1})
    check(list(j.records()), [(1, {"head": 1})])
    check(j.append({"b": 2}), 2)
    check(list(Journal(PATH).open().records()), [(1, {"head": 1}), (2, {"b": 2})])
    check(exists(PATH + ".tmp"), False)


def case_save_load_json():
    fresh()
    p = META[:-9] + "s.json"
    check(load_json(p, {"d": 1}), {"d": 1})
    save_json(p, {"a": [1, 2], "n": "Zo\u00eb"})
    check(load_json(p), {"a": [1, 2], "n": "Zo\u00eb"})
    save_json(p, {"a": 3})
    check((load_json(p), exists(p + ".tmp")), ({"a": 3}, False))
    # cut after the temp file was written, before the rename: the complete new one wins
    write(p, b'{"a": 3')
    write(p + ".tmp", b'{"a": 4}')
    check(load_json(p), {"a": 4})
    check((read(p), exists(p + ".tmp")), (b'{"a": 4}', False))
    # cut while writing the temp file: the old one stays, the torn temp goes
    write(p + ".tmp", b'{"a": ')
    check((load_json(p), exists(p + ".tmp")), ({"a": 4}, False))
    # only a torn temp file, or garbage everywhere: the default
    os.remove(p)
    write(p + ".tmp", b'{"a"')
    check(load_json(p, "dflt"), "dflt")
    write(p, b"\xff\xfe")
    check(load_json(p, "dflt"), "dflt")


# --- Store

REC = {"method": 3, "players": ["Ann", "Bob", "Cy"], "start": {"dealer": 2},
       "rules": {"preset": "seed"}}


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
    check((st.epoch, st.current(), st.gids(), st.last_seq, st.note), (0, None, [], 1, ""))
    check(st.events(), [(1, {"t": "epoch", "e": 0, "dev": st.device_id, "next": 1})])
    check(load_json(META), {"device_id": st.device_id, "epoch": 0, "next_gid": 1})
    check(store().device_id, st.device_id)


def case_store_game_survives_reboot():
    fresh()
    st = store()
    gid = st.new_game(REC)
    g = st.game(gid)
    for i in range(5):
        st.add_hand(gid, knock(g, i % 3))
    st.add_hand(gid, {"void": True})
    st.undo(gid)
    st.edit(gid, 1, knock(g, 0, 2, 25))
    want = hands_of(st, gid)
    check(len(want), 5)
    st2 = store()
    check((st2.gids(), st2.current(), hands_of(st2, gid)), ([gid], gid, want))
    check(st2.game(gid).totals, g.totals)
    check([e["t"] for _, e in st2.events()],
          ["epoch", "game", "hand", "hand", "hand", "hand", "hand", "hand", "undo", "edit"])


def case_store_refusals_leave_flash_alone():
    fresh()
    st = store()
    expect_raise(ValueError, st.new_game, {"method": 9, "players": ["a", "b", "c"],
                                           "start": {}})
    expect_raise(StoreError, st.new_game, dict(REC, hands=[{"void": True}]))
    gid = st.new_game(REC)
    before = read(PATH)
    seq = st.last_seq
    expect_raise(ValueError, st.undo, gid)                 # nothing to undo (GameError)
    expect_raise(ValueError, st.add_hand, gid, {"knock": 0, "counts": [50, 1, 2]})
    expect_raise(ValueError, st.add_hand, gid, {"bogus": 1})
    expect_raise(ValueError, st.edit, gid, 0, {"void": True})   # no hand 0 yet
    expect_raise(StoreError, st.add_hand, gid + 1, {"void": True})
    check((read(PATH), st.last_seq, hands_of(st, gid)), (before, seq, []))
    st.add_hand(gid, {"void": True})
    expect_raise(ValueError, st.edit, gid, 0, {"knock": 1, "counts": [1, 99, 1]})
    check(hands_of(store(), gid), [{"void": True}])


def case_store_end_and_current():
    fresh()
    st = store()
    a = st.new_game(REC)
    st.end(a)
    check((st.current(), st.ended(a)), (None, True))
    expect_raise(StoreError, st.add_hand, a, {"void": True})
    b = st.new_game(REC)
    check((st.current(), st.gids()), (b, [a, b]))
    st2 = store()
    check((st2.current(), st2.ended(a), st2.ended(b)), (b, True, False))


def case_store_erase_keeps_id_and_gids():
    fresh()
    st = store()
    dev = st.device_id
    for _ in range(3):
        st.add_hand(st.new_game(REC), {"void": True})
    st.erase()
    check((st.gids(), st.current(), st.epoch, st.device_id, st.last_seq), ([], None, 1, dev, 1))
    st2 = store()
    check((st2.gids(), st2.epoch, st2.device_id), ([], 1, dev))
    check(st2.new_game(REC), 4)
    st2.erase()
    st3 = store()
    check((st3.epoch, st3.new_game(REC)), (2, 5))
    check(st3.events(0, 1), [(1, {"t": "epoch", "e": 2, "dev": dev, "next": 5})])


def case_store_interrupted_erase_finishes():
    fresh()
    st = store()
    st.add_hand(st.new_game(REC), {"void": True})
    # cut after meta.json was written, before the new journal replaced the old one
    save_json(META, {"device_id": st.device_id, "epoch": 1, "next_gid": 2})
    st2 = store()
    check((st2.gids(), st2.epoch, st2.note), ([], 1, "finished an interrupted erase"))
    check(st2.new_game(REC), 2)


def case_store_lost_meta_rebuilt():
    fresh()
    st = store()
    st.new_game(REC)
    st.erase()
    gid = st.new_game(REC)
    os.remove(META)
    st2 = store()
    check((st2.device_id, st2.epoch, st2.gids()), (st.device_id, 1, [gid]))
    check(load_json(META)["device_id"], st.device_id)


def case_store_odd_meta():
    fresh()
    st = store()
    dev = st.device_id
    for bad in ('{"device_id": 5, "epoch": "x", "next_gid": null}', '[1, 2]', '"str"', '{}'):
        write(META, bad.encode())
        st2 = store()
        check((st2.device_id, st2.epoch, st2.note), (dev, 0, ""))
        check(load_json(META), {"device_id": dev, "epoch": 0, "next_gid": 1})


def case_store_events_paging():
    fresh()
    st = store()
    gid = st.new_game(REC)
    for _ in range(70):
        st.add_hand(gid, {"void": True})
    allev = st.events(0, 1000)
    check(len(allev), 72)
    got, after = [], 0
    while True:
        page = st.events(after, 25)
        if not page:
            break
        got += page
        after = page[-1][0]
    check(got, allev)
    check(st.events(72, 10), [])
    check(st.events(0, 0), [])


def case_store_skips_bad_events():
    fresh()
    st = store()
    gid = st.new_game(REC)
    st.add_hand(gid, {"void": True})
    j = st.journal
    j.append({"t": "hand", "g": gid, "h": {"knock": 0, "counts": [99, 0, 0]}})
    j.append({"t": "hand", "g": 77, "h": {"void": True}})
    j.append({"t": "what"})
    j.append([1, 2])
    j.append({"t": "undo", "g": gid})
    st2 = store()
    check(hands_of(st2, gid), [])
    if not st2.note.startswith("skipped 4 journal records (record 4: "):
        raise AssertionError(st2.note)


def case_store_flash_full():
    # a full filesystem refuses the append: RAM must still match flash, and boot still works
    dev = fresh(16)
    st = store()
    gid = st.new_game(REC)
    k = 0
    for size in (4096, 512, 64):
        try:
            k += 1
            with open(META[:-9] + "filler%d" % k, "wb") as f:
                while True:
                    f.write(b"x" * size)
                    f.flush()
        except OSError:
            pass
    os.remove(META[:-9] + "filler3")    # room for some hands, not for many
    os.remove(META[:-9] + "filler2")
    n = 0
    err = None
    while n < 400:
        try:
            st.add_hand(gid, {"void": True})
        except OSError as e:
            err = e
            break
        n += 1
    if err is None or n < 5:
        raise AssertionError("filled after %d hands (%r)" % (n, dev))
    check(len(hands_of(st, gid)), n)
    check(len(hands_of(store(), gid)), n)

