# Power-cut sweep, run under the MicroPython unix port by tests/test_powercut.py:
#   micropython powercut_run.py SCENARIO clean|torn
# prints one JSON line with the results.
#
# The session (a scripted use of the Store: games, hands, undo, edit, end, erase) runs once on a
# littlefs RAM block device (4096-byte blocks, like the Pico) that logs every flash operation
# (program or erase). Power cut at operation K = the image with operations 1..K-1 done and K
# not done ("clean") or half done ("torn": the first half of its bytes programmed, or the first
# half of the block erased): exactly what a cut at K during that run leaves. For EVERY K the image
# is "rebooted": a fresh VfsLfs2 (progsize=256, as rp2 mounts it) on a copy, the Store loads, and
# its state must be what the user was shown before the cut (every operation that returned) or
# that plus the one operation in flight; never anything else. Then the rebooted store must take
# one more change that survives another reboot. A few K are also cut for real (the device raises
# PowerCut at operation K, from inside littlefs) and those images rebooted the same way. (Images
# of two runs differ in littlefs' mtime attributes, so they are checked, not compared bytewise.)
import gc
import json
import sys

import vfs

import knockfw.store as store_mod
import simflash as flash
from simflash import RAMBlockDevice
from knockfw.journal import Journal
from knockfw.store import Store
from storekit import end_game, ended, game_in, note

BLOCKS = 64
JPATH = "/data/journal"
META = "/data/meta.json"
DEV_ID = "0001020304050607"


class FakeOs:
    @staticmethod
    def urandom(n):
        return bytes(range(n))  # a deterministic device id, so runs can be compared


store_mod.os = FakeOs


class PowerCut(Exception):
    pass


class LogDevice(RAMBlockDevice):
    """Logs each program/erase as (address, bytes or None for erase); can cut power at op K."""

    def __init__(self, data, cut_at=0, torn=False):
        RAMBlockDevice.__init__(self, BLOCKS, data=data)
        self.log = []
        self.cut_at = cut_at
        self.torn = torn
        self.snapshot = None
        self.unerased = 0  # programs over bytes that were not erased (should never happen)

    def _op(self, a, buf):
        self.log.append((a, buf))
        if len(self.log) == self.cut_at:
            img = bytearray(self.data)
            if self.torn:
                apply_half(img, a, buf)
            self.snapshot = img
            raise PowerCut()

    def _program(self, a, buf):
        buf = bytes(buf)
        if self.data[a : a + len(buf)] != b"\xff" * len(buf):
            self.unerased += 1
        self._op(a, buf)
        RAMBlockDevice._program(self, a, buf)

    def _erase(self, n):
        self._op(n * 4096, None)
        RAMBlockDevice._erase(self, n)


def apply_op(img, a, buf):
    if buf is None:
        img[a : a + 4096] = b"\xff" * 4096
    else:
        img[a : a + len(buf)] = buf


def apply_half(img, a, buf):
    if buf is None:
        img[a : a + 2048] = b"\xff" * 2048
    else:
        h = len(buf) // 2
        img[a : a + h] = buf[:h]


def mount(dev):
    # as the Pico boots: littlefs mounted at /data (a device that holds none would be formatted,
    # and the checks would see every game gone)
    flash.mount(dev, "/data")


def boot():
    return Store(Journal(JPATH), META).load()


def state(st):
    # every game, in RAM or replayed from the journal (a boot rebuilds only the newest)
    games = []
    for gid in st.gids():
        games.append((gid, game_in(st, gid).record()["hands"], ended(st, gid)))
    return (st.epoch, st.current(), games)


REC3 = {
    "method": 3,
    "players": ["Ann", "Bob", "Cy"],
    "start": {"dealer": 2},
    "rules": {"preset": "seed"},
}
REC1 = {
    "method": 1,
    "players": ["Di", "Ed", "Flo"],
    "start": {"idle": 0, "dealer": 1},
    "rules": {"preset": "seed"},
}


def knock(g, k, lo=3, hi=20):
    c = [None, None, None]
    for s in g.active:
        c[s] = hi
    c[g.active[k % len(g.active)]] = lo
    return {"knock": g.active[k % len(g.active)], "counts": c}


class Session:
    """Runs the scripted operations; after each one that returns, records the op count and the
    state the user now sees."""

    def __init__(self, dev):
        self.dev = dev
        self.rets = []  # op count when operation i returned
        self.models = []  # state after operation i
        self.st = None

    def done(self):
        self.rets.append(len(self.dev.log))
        self.models.append(state(self.st))

    def run(self, script):
        self.st = boot()
        self.done()
        script(self)


def game_script(s):
    st = s.st
    gid = st.record({"t": "game", "rec": REC3})["g"]
    s.done()
    g = st.game(gid)
    n = 0
    while not g.over:
        st.record({"t": "hand", "h": knock(g, n)})
        s.done()
        n += 1
        if n == 3:
            st.record({"t": "undo"})
            s.done()
        if n == 5:
            st.record({"t": "edit", "i": 1, "h": {"void": True}})
            s.done()
        try:
            st.record(
                {"t": "hand", "h": {"knock": 0, "counts": [99, 99, 99]}}
            )  # refused: not written
        except ValueError:
            pass
    g2 = st.record({"t": "game", "rec": REC1})["g"]
    s.done()
    for k in range(3):
        st.record({"t": "hand", "h": knock(st.game(g2), k, 9, 10)})
        s.done()
    end_game(st, g2)
    s.done()
    st.erase()
    s.done()
    g3 = st.record({"t": "game", "rec": REC3})["g"]
    s.done()
    for k in range(2):
        st.record({"t": "hand", "h": knock(st.game(g3), k)})
        s.done()


def long_prepare(st):
    st.record({"t": "game", "rec": REC3})
    for _ in range(40):
        st.record({"t": "hand", "h": {"void": True}})


def long_script(s):
    # the journal (less than a block to start) grows over two 4096-byte block boundaries
    st = s.st
    gid = st.current()
    g = st.game(gid)
    for k in range(80):
        st.record({"t": "hand", "h": knock(g, k, 9, 10) if k % 2 else {"void": True}})
        s.done()
    st.record({"t": "undo"})
    s.done()
    st.record({"t": "edit", "i": 50, "h": knock(g, 1, 8, 10)})
    s.done()
    st.erase()
    s.done()


SCENARIOS = {"game": (None, game_script), "long": (long_prepare, long_script)}


def base_image(prepare):
    dev = RAMBlockDevice(BLOCKS)
    flash.mount(dev, "/data", fresh=True)
    if prepare:
        st = boot()
        prepare(st)
        st.journal.close()
    vfs.umount("/data")
    return bytes(dev.data)


def reboot_check(img, k, s, notes, fails):
    """Boot on a copy of img (the flash after a cut at op k); compare; change; boot again."""
    conf = 0
    while conf < len(s.rets) and s.rets[conf] <= k - 1:
        conf += 1
    allowed = []
    if conf:
        allowed.append(s.models[conf - 1])
    if conf < len(s.models):
        allowed.append(s.models[conf])
    work = bytearray(img)
    dev = RAMBlockDevice(BLOCKS, data=work)
    try:
        mount(dev)
        st = boot()
    except Exception as e:
        fails.append("cut %d: boot failed: %r" % (k, e))
        return
    if note(st):
        notes[note(st)] = notes.get(note(st), 0) + 1
    got = state(st)
    if got not in allowed:
        fails.append("cut %d (%d confirmed): %r not in %r" % (k, conf, got, allowed))
        return
    if conf and st.device_id != DEV_ID:
        fails.append("cut %d: device id changed to %r" % (k, st.device_id))
    gid = st.current()
    try:
        if gid is None or st.game(gid).over:
            st.record({"t": "game", "rec": REC1})
        else:
            st.record({"t": "hand", "h": {"void": True}})
        want = state(st)
        st.journal.close()
        mount(RAMBlockDevice(BLOCKS, data=work))
        st2 = boot()
        if state(st2) != want or note(st2):
            fails.append("cut %d: after one more change: %r, note %r" % (k, state(st2), note(st2)))
    except Exception as e:
        fails.append("cut %d: store unusable after reboot: %r" % (k, e))


def main():
    name, mode = sys.argv[1], sys.argv[2]
    torn = mode == "torn"
    prepare, script = SCENARIOS[name]
    base = base_image(prepare)

    # 1. the session, once, logging every flash operation
    dev = LogDevice(bytearray(base))
    mount(dev)
    s = Session(dev)
    s.run(script)
    s.st.journal.close()
    log = dev.log
    n = len(log)
    erases = sum(1 for a, b in log if b is None)

    # 2. every cut point, from the log
    fails, notes = [], {}
    img = bytearray(base)
    swept = 0
    for k in range(1, n + 2):
        swept += 1
        if k <= n:
            a, buf = log[k - 1]
            if torn:
                cut = bytearray(img)
                apply_half(cut, a, buf)
            else:
                cut = img
        else:
            cut = img  # after the last operation: the finished session
        reboot_check(cut, k, s, notes, fails)
        if k <= n:
            apply_op(img, a, buf)
        if len(fails) > 10:
            break
        gc.collect()

    # 3. a few real cuts: PowerCut raised inside littlefs ends the session; reboot its image
    real = 0
    for k in (1, 2, n // 7, n // 3, n // 2, n - 1, n):
        d = LogDevice(bytearray(base), cut_at=k, torn=torn)
        mount(d)
        sess = Session(d)
        try:
            sess.run(script)
            fails.append("real cut %d: session finished" % k)
        except PowerCut:
            pass
        if sess.st is not None:
            try:
                sess.st.journal.close()  # (no finaliser should touch the dead device later)
            except PowerCut:
                pass
        sess.rets, sess.models = s.rets, s.models
        reboot_check(d.snapshot, k, sess, notes, fails)
        real += 1
        gc.collect()

    print(
        json.dumps(
            {
                "scenario": name,
                "mode": mode,
                "ops": n,
                "erases": erases,
                "programs": n - erases,
                "operations": len(s.rets),
                "reboots": swept + real,
                "real_cuts": real,
                "unerased_programs": dev.unerased,
                "notes": notes,
                "fails": fails,
            }
        )
    )


main()
