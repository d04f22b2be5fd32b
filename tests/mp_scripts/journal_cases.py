# Journal cases, run one at a time under the MicroPython unix port by tests/test_journal.py
# (through tests/mp_scripts/run_case.py), with the setup arguments (tests/mp_scripts/lfs_kit.py):
#   lfs            the case on a fresh littlefs RAM disk at /data
#   posix DIR      the case in a fresh directory under DIR (the unix root VfsPosix; a VfsPosix
#                  mounted at /data cannot rename on the unix port)
# The Store's cases are in store_cases.py, run the same ways.
import binascii
import json
import os

import lfs_kit as kit
from knockfw import journal as jmod
from knockfw.journal import Journal, load_json, save_json
from lfs_kit import check, exists, read, write
from storekit import note

kit.install(globals())  # MODE, DIR, PATH, META (where the case's files go), setup, fresh


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
    check((j.last_seq, note(j)), (10, ""))
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
        check(note(j), "dropped a half-written last record")
        check(read(PATH), good)
        check(j.append({"again": cut}), 21)
        check(note(Journal(PATH).open()), "")
        check(list(Journal(PATH).open().records(20)), [(21, {"again": cut})])
        write(PATH, good)
        check(exists(PATH + ".tmp") or exists(PATH + ".bad"), False)


def case_bad_crc_last_line():
    fresh()
    filled(5)
    good = read(PATH)
    line = bytearray(jmod._line(6, {"v": 1}))
    line[3] = ord("9")  # flips the JSON after the crc was computed
    write(PATH, good + line)
    j = Journal(PATH).open()
    check((j.last_seq, note(j)), (5, "dropped a half-written last record"))


def case_damage_in_the_middle():
    fresh()
    filled(30)
    data = read(PATH)
    lines = data.split(b"\n")
    pos = sum(len(x) + 1 for x in lines[:9]) + 4  # inside line 10
    bad = bytearray(data)
    bad[pos] = bad[pos] ^ 0x01
    write(PATH, bad)
    j = Journal(PATH).open()
    check(j.last_seq, 9)
    if "after record 9" not in note(j):
        raise AssertionError(note(j))
    check(read(PATH + ".bad"), bytes(bad))  # nothing thrown away
    check(read(PATH), b"\n".join(lines[:9]) + b"\n")
    check(j.append({"new": 1}), 10)
    j2 = Journal(PATH).open()
    check((j2.last_seq, note(j2)), (10, ""))


def case_wrong_seq_and_garbage():
    fresh()
    filled(3)
    good = read(PATH)
    write(PATH, good + jmod._line(3, {"dup": 1}) + jmod._line(4, {"z": 1}))
    j = Journal(PATH).open()
    check(j.last_seq, 3)
    write(PATH, good + b"\x00\xff" * 3000)  # no newline, longer than a line
    check(Journal(PATH).open().last_seq, 3)
    write(PATH, b"hello\n" + good)
    j = Journal(PATH).open()
    check((j.last_seq, list(j.records())), (0, []))
    check(read(PATH), b"")


def case_missing_and_empty():
    fresh()
    j = Journal(PATH).open()
    check((j.last_seq, list(j.records()), note(j)), (0, [], ""))
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


def case_quick_appends_erase_nothing_and_read_back():
    dev = fresh()
    j = filled(40)
    j = Journal(PATH).open()
    recs = list(j.records())
    if dev is not None:
        e0 = dev.erases
        j.append({"plain": 1})
        check(dev.erases > e0, True)  # littlefs copies the journal's last block to a new one
        e0 = dev.erases
    else:
        j.append({"plain": 1})
    recs.append((41, {"plain": 1}))
    for i in range(3):
        check(j.append({"quick": i, "pad": "x" * 40}, quick=True), 42 + i)
        recs.append((42 + i, {"quick": i, "pad": "x" * 40}))
    if dev is not None:
        check(dev.erases, e0)  # into <path>.new, inline in the directory: no erase
    check((j.last_seq, exists(PATH + ".new")), (44, True))
    check(list(Journal(PATH).open().records()), recs)  # a cut now: open() merges them
    check(exists(PATH + ".new"), False)
    j = Journal(PATH).open()
    for i in range(12):  # more than <path>.new holds: merged on the way, nothing lost
        j.append({"more": i, "pad": "y" * 40}, quick=True)
        recs.append((45 + i, {"more": i, "pad": "y" * 40}))
    check(len(read(PATH + ".new")) <= 440, True)  # journal._NEW_MAX: inline in littlefs
    check(list(j.records()), recs)  # records() merges first
    check(exists(PATH + ".new"), False)
    j.append({"last": 1}, quick=True)
    j.close()
    recs.append((57, {"last": 1}))
    check((exists(PATH + ".new"), list(Journal(PATH).open().records())), (False, recs))


def case_quick_append_merge_cut_before_the_file_went():
    fresh()
    j = filled(5)
    j = Journal(PATH).open()
    j.append({"q": 1}, quick=True)
    j.append({"q": 2}, quick=True)
    new = read(PATH + ".new")
    j.merge()
    write(PATH + ".new", new)  # the cut came after the merge's append, before the remove
    want = [(6, {"q": 1}), (7, {"q": 2})]
    check(list(Journal(PATH).open().records())[5:], want)  # not twice
    check(exists(PATH + ".new"), False)
    # a <path>.new of another journal (its header names another record) is not taken
    write(PATH + ".new", b"3 0badc0de\n" + jmod._line(4, {"x": 1}))
    check(list(Journal(PATH).open().records())[5:], want)
    check(exists(PATH + ".new"), False)
    # nor torn or bad lines after a good header: the good ones are taken
    j = Journal(PATH).open()
    j.append({"q": 3}, quick=True)
    good = read(PATH + ".new")
    write(PATH + ".new", good + jmod._line(9, {"q": 4})[:-4])
    check(list(Journal(PATH).open().records())[5:], want + [(8, {"q": 3})])


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


def case_save_load_json_with_its_crc():
    # crc=True: the JSON after its CRC-32; a changed byte (a digit that still parses) is refused
    fresh()
    p = META[:-9] + "c.json"
    obj = [1, {"n": "Аня", "t": [12, 345]}]
    save_json(p, obj, True)
    data = read(p)
    check((data[8:9], load_json(p, None, crc=True)), (b" ", obj))
    bad = bytearray(data)
    bad[data.index(b"345")] ^= 1  # "245": still JSON
    write(p, bytes(bad))
    check(load_json(p, "none", crc=True), "none")
    # a cut before the rename: the complete temp file, its CRC right, wins
    write(p + ".tmp", data)
    check((load_json(p, None, crc=True), exists(p + ".tmp")), (obj, False))
