"""The Pico-speed budgets (bench/README.md), measured on the emulated RP2040 (stock MicroPython v1.28 RPI_PICO
on rp2040js, ../shared/rp2040-emu), Badger 2040 build, in EMULATED time (the RP2040's own clock:
GPIO/SPI log timestamps and `picoctl time`), with the flash chip's busy time (the CPU stalls for
each erase and program: --flash-timing typ, the default, is the W25Q16JV's typical 45 ms a 4 KiB
sector erased and 0.4 ms a page programmed; max its worst case, 400 ms and 3 ms; off).

    .venv/bin/python bench/bench_pico.py [--image FLASH.img] [--quick] [--flash-timing typ|max|off]
                                         [--silicon-clocks] [--only boot,taps,play,save,sync,heap,parts]
                                         [--write]

--silicon-clocks: the emulator's model of a real chip's clocks (rp2040-emu --silicon-clocks: the
ring oscillator from reset until the firmware sets its clocks up, and the XIP cache's misses);
without it the emulated chip runs at 125 MHz from reset and reads the flash for free, so boot
above all comes out optimistic. The first line of the output says which.

--write puts the output (of a run of every part at typical flash timing, with --silicon-clocks:
the figures the docs give stand for silicon) into docs/EMULATOR.md's budgets section, and its
power latch line into hardware/README.md, the only places the docs give these figures
(bench/docfigures.py).

save: what the journal's writes and the boot checkpoint cost the device per hand (awake time).
taps: the shortest tap the Badger counts every time while it naps on battery between hands
(tests/emu/emu_taps.py).
parts: where the boot without the checkpoint goes, step by step (not a budget: the map for
making the boot quicker).

The firmware is deployed with `knockbox deploy --port` into a fresh instance (or an image given
with --image that has it). Journals of 300 and 1,000 hands are written on the laptop by the
firmware's own journal/store code under the MicroPython unix port and copied to /data with
mpremote while the app is stopped. One emulator instance at a time. --quick: fewer repeats.
"""

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import _paths  # noqa: F401  (the checkout's folders on sys.path: bench/_paths.py)
import docfigures  # noqa: E402  (bench/, this file's folder, is on sys.path)
import emu_device  # noqa: E402
from kit import mp  # noqa: E402
from kit.gamegen import random_hand, random_start  # noqa: E402
from knockcore.game import Game  # noqa: E402

BIN = os.path.dirname(sys.executable)
DRF = 0x12  # UC8151 display refresh: "the refresh command"

BUDGETS = {
    "latch": 100,
    "tap": 20,
    "boot300": 1000,
    "up": 80,
    "save": 80,
    "sync1000": 3000,
    "drain2000": 20000,
    "heap": 96 * 1024,
    "free": 100 * 1024,
}


def say(label, value, budget, unit="ms", extra=""):
    ok = "ok" if value is not None and value <= budget else "OVER"
    v = "n/a" if value is None else ("%.0f" % value if unit != "KB" else "%.1f" % value)
    print("%-46s %9s %-3s budget <= %-7g %-4s %s" % (label, v, unit, budget, ok, extra), flush=True)


def med(xs):
    return statistics.median(xs) if xs else None


# ------------------------------------------------------------------ journals
GEN = r"""
import json, sys
from knockfw.journal import Journal
from knockfw.store import Store
d = sys.argv[1]
st = Store(Journal(d + "/journal.txt"), meta_path=d + "/meta.json").load()
with open(d + "/ops.jsonl") as f:
    for line in f:
        op = json.loads(line)
        if op[0] == "new":
            st.record({"t": "game", "rec": op[1]})
        elif op[0] == "evening":
            st.record({"t": "evening"})
        else:
            st.record({"t": "hand", "h": op[1]})
st.journal.close()
print(json.dumps({"last_seq": st.last_seq, "device": st.device_id,
                  "evening": [st.evening_gid, st.evening_seq]}))
"""


def make_journal(d, hands, seed=1):
    """A journal of `hands` hands: finished games of all three methods, then a method 3 game
    still running (targets out of reach) that the bench goes on playing."""
    rnd = random.Random(seed)
    ops, left = [], hands
    while left > 0:
        last = left <= 120
        method = 3 if last else rnd.choice((1, 2, 3))
        rules = {"preset": "seed", "m3_target": 100000} if last else {"preset": "seed"}
        start = {"dealer": 0} if last else random_start(method, rnd)
        g = Game(method, ["Ann", "Bob", "Cy"], start, rules)
        ops.append(
            ["new", {"method": method, "players": g.players, "start": start, "rules": rules}]
        )
        while left > 0 and not g.over:
            h = random_hand(g, rnd)
            g.add(h)
            ops.append(["hand", h])
            left -= 1
    return write_journal(d, ops)


def write_journal(d, ops):
    """The device's own Store (unix port) writes the journal of ops into folder d: ["new", game],
    ["hand", hand] or ["evening"]. Returns its last_seq, device id and evening mark."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "ops.jsonl"), "w") as f:
        for op in ops:
            f.write(json.dumps(op) + "\n")
    script = os.path.join(d, "gen.py")
    with open(script, "w") as f:
        f.write(GEN)
    r = mp.run_file(script, [d], heap="8M", timeout=600)
    if r.returncode != 0:
        raise SystemExit("journal generation failed:\n" + r.stdout[-2000:] + r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def mpremote(dev, *args, timeout=120):
    p = subprocess.run(
        [os.path.join(BIN, "mpremote"), "connect", dev.tty] + list(args),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if p.returncode != 0:
        raise SystemExit("mpremote %s failed:\n%s%s" % (" ".join(args), p.stdout, p.stderr))
    return p.stdout


def put_journal(dev, d):
    """Stop the app (mpremote's Ctrl-C), copy the journal and meta.json to /data, reset."""
    mpremote(
        dev,
        "fs",
        "cp",
        os.path.join(d, "journal.txt"),
        ":/data/journal.txt",
        "+",
        "fs",
        "cp",
        os.path.join(d, "meta.json"),
        ":/data/meta.json",
    )
    dev.reset_and_wait()
    dev.wait_quiet(500)


# ------------------------------------------------------------------ helpers on logs
def refresh_after(frames, boot, t_us):
    """Emulated us from t_us to the first refresh command after it in that boot."""
    later = [f.t_us for f in frames if f.boot == boot and f.t_us >= t_us]
    return (min(later) - t_us) if later else None


def first_refresh_per_boot(frames):
    out = {}
    for f in frames:
        out.setdefault(f.boot, f.t_us)
    return out


def latch_per_boot(gpio):
    out = {}
    for r in gpio:
        if r.get("pin") == emu_device.LATCH and r.get("v") == 1 and r.get("oe") == 1:
            out.setdefault(r["boot"], r["t"])
    return out


# ------------------------------------------------------------------ the measures
def deploy(emu, work):
    d = os.path.join(work, "deploy")
    dev = emu_device.Device(emu, d, None)
    try:
        dev.start()
        t = time.time()
        p = subprocess.run(
            [os.path.join(BIN, "knockbox"), "deploy", "--port", dev.tty, "--board", "badger"],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if p.returncode != 0:
            raise SystemExit("deploy failed:\n" + p.stdout + p.stderr)
        print("deploy: %s (%.1f s wall)" % (p.stdout.strip().splitlines()[-2], time.time() - t))
        dev.wait_refresh(0, 300)
        dev.wait_quiet(300)
        dev.pico.flush()
    finally:
        dev.stop()
    return dev.flash


def start_settled(dev):
    """Boot the device and wait until its first screen is drawn and the panel is quiet."""
    dev.start()
    dev.wait_refresh(0, 300)
    dev.wait_quiet(300)


def measure_boot(emu, image, work, j300, repeats):
    """Latch and first refresh after resets, with an empty and a 300-hand journal."""
    dev = emu_device.Device(emu, os.path.join(work, "boot"), image)
    try:
        start_settled(dev)
        empty_boot = dev.boot()
        for _ in range(repeats):
            dev.reset_and_wait()
            dev.wait_quiet(300)
        empty = list(range(empty_boot, dev.boot() + 1))
        put_journal(dev, j300)
        # no checkpoint (as after a deploy or an erase; put_journal's own boot wrote one)
        mpremote(dev, "fs", "rm", ":/data/snap.json")
        cold = [dev.reset_and_wait()]
        dev.wait_quiet(300)
        dev.sleep(3000)  # left alone, the app writes its boot checkpoint (knockfw.store)
        full = []
        for _ in range(repeats):
            full.append(dev.reset_and_wait())
            dev.wait_quiet(300)
        gpio = dev.gpio_records()
        frames = dev.frames().frames
    finally:
        dev.stop()
    latch = latch_per_boot(gpio)
    first = first_refresh_per_boot(frames)
    lt = [latch[b] / 1000 for b in latch]
    say(
        "reset -> power latch high (Badger)",
        max(lt) if lt else None,
        BUDGETS["latch"],
        extra="median %.1f ms over %d boots (max shown)" % (med(lt) or -1, len(lt)),
    )
    e = [first[b] / 1000 for b in empty if b in first]
    f = [first[b] / 1000 for b in full if b in first]
    c = [first[b] / 1000 for b in cold if b in first]
    say(
        "reset -> first refresh, 300-hand journal",
        med(f),
        BUDGETS["boot300"],
        extra="median of %d; max %.0f; empty journal %.0f" % (len(f), max(f or [0]), med(e) or -1),
    )
    say(
        "  the same without the boot checkpoint",
        max(c) if c else None,
        BUDGETS["boot300"],
        extra="the first boot after a deploy or a journal copied in",
    )


CKPT = r"""
import time
from knockfw.journal import Journal
from knockfw.store import Store
def us(t):
    return time.ticks_diff(time.ticks_us(), t)
st = Store(Journal("/data/journal.txt"), "/data/meta.json", snap_path="/data/snap.json").load()
gid = st.current()
for i in range(%d):
    h = {"knock": i %% 3, "counts": [20, 20, 20][:i %% 3] + [4] + [20, 20][i %% 3:]}
    t = time.ticks_us()
    st.record({"t": "hand", "h": h})
    a = us(t)
    t = time.ticks_us()
    st.journal.merge()
    m = us(t)
    t = time.ticks_us()
    st.checkpoint()
    c = us(t)
    import os
    print("CKPT", a, m, c, os.stat("/data/snap.json")[6], st.journal.size)
"""


def measure_save(emu, image, work, j300, n):
    """The flash writes of a hand, timed on the device (300-hand journal): the quick append on
    the save's path, the merge into the journal and the boot checkpoint while nobody waits."""
    dev = emu_device.Device(emu, os.path.join(work, "save"), image)
    try:
        start_settled(dev)
        put_journal(dev, j300)
        out = mpremote(dev, "exec", CKPT % n, timeout=600)
    finally:
        dev.stop()
    rows = [[int(v) for v in x.split()[1:]] for x in out.splitlines() if x.startswith("CKPT")]
    if not rows:
        print("save: no figures:\n" + out[-1000:])
        return
    a, m, c = (med([r[i] / 1000 for r in rows]) for i in range(3))
    print(
        "%-46s %9.1f ms   (its record into journal.txt.new, no erase)"
        % ("  a hand's quick append (on the save's path)", a)
    )
    print(
        "%-46s %9.1f ms   (into journal.txt: a sector erased, the block copied)"
        % ("  its merge, after 2 s without a press", m)
    )
    print(
        "%-46s %9.1f ms   (snap.json, %d bytes, %.0fx the journal's bytes a hand)"
        % (
            "  the boot checkpoint after it",
            c,
            rows[-1][3],
            rows[-1][3] / max(1, (rows[-1][4] - rows[0][4]) / max(1, len(rows) - 1)),
        )
    )
    print(
        "%-46s %9.1f ms   (median of %d hands; a checkpoint every hand)"
        % ("  flash time a hand, awake (battery)", a + m + c, len(rows))
    )


def measure_play(emu, image, work, j300, presses):
    """Up during count entry -> refresh command; save: A released -> refresh command."""
    dev = emu_device.Device(emu, os.path.join(work, "play"), image)
    ups, saves = [], []
    try:
        start_settled(dev)
        put_journal(dev, j300)
        hands = max(3, presses // 6)
        for _h in range(hands):
            # the running game is method 3: A knocks (Ann's count first), A again -> Bob's count
            dev.act([("a", "press"), ("a", "press")])
            dev.wait_quiet(200)
            for _ in range(presses // hands):
                n = dev.refreshes()
                r = dev.press("up", 100)
                dev.wait_refresh(n, emu_ms=3000)
                dev.wait_quiet(150)
                ups.append((dev.last_release[1], r["start_emu_us"]))
            dev.act([("b", "press"), ("c", "press")])  # Cy's count, then the confirm screen
            dev.wait_quiet(200)
            n = dev.refreshes()
            r = dev.press("a", 100)
            dev.wait_refresh(n, emu_ms=3000)
            dev.wait_quiet(300)
            saves.append((dev.last_release[1], r["release_us"]))
        frames = dev.frames().frames
    finally:
        dev.stop()
    u = [refresh_after(frames, b, t) for b, t in ups]
    s = [refresh_after(frames, b, t) for b, t in saves]
    u = [x / 1000 for x in u if x is not None]
    s = [x / 1000 for x in s if x is not None]
    say(
        "Up press -> refresh command (median)",
        med(u),
        BUDGETS["up"],
        extra="max %.0f ms over %d presses" % (max(u or [0]), len(u)),
    )
    say(
        "save: A released -> refresh command (median)",
        med(s),
        BUDGETS["save"],
        extra="max %.0f ms over %d saves" % (max(s or [0]), len(s)),
    )


def measure_sync_and_drain(emu, image, work, j1000, lines):
    dev = emu_device.Device(emu, os.path.join(work, "sync"), image)
    try:
        start_settled(dev)
        put_journal(dev, j1000)
        t0, w0 = dev.emu_ms(), time.time()
        dev.sync()
        emu_s, wall_s = dev.emu_ms() - t0, time.time() - w0
        hands = sum(g.get("hands", 0) for g in dev.history())
        say(
            "sync 1,000 hands (new knockbox sync process)",
            emu_s,
            BUDGETS["sync1000"],
            extra="%d hands synced; %.1f s wall on the emulator" % (hands, wall_s),
        )

        port = dev.serial(timeout=0.05)
        got = bytearray()
        done = threading.Event()

        def reader():
            while not done.is_set():
                got.extend(port.read(4096))

        rd = threading.Thread(target=reader, daemon=True)
        rd.start()
        junk = [b"not json %d\n" % i for i in range(lines)]
        t0 = dev.emu_ms()
        port.write(b"".join(junk))
        port.flush()
        done.set()
        rd.join(5)
        r = dev.request(port, "hello", 1 << 28, timeout=600)
        t1 = dev.emu_ms()
        port.close()
        say(
            "%d queued serial lines drained" % lines,
            (t1 - t0) if r else None,
            BUDGETS["drain2000"],
            extra="(sent at once, then hello; %d lines/s)" % (lines / max(0.001, (t1 - t0) / 1000)),
        )
    finally:
        dev.stop()


HEAP = r"""
import gc, time
gc.collect()
print("BASE", gc.mem_alloc())   # the REPL's own heap (mpremote's exec), before the app
from knockfw import app as A, board as B
a = A.App(B.load())
for i in range(30):  # the loop of app.run(): boot, the first screen, what comes after it
    a.step(time.ticks_ms())
    time.sleep_ms(10)
gc.collect()
print("HEAP", gc.mem_alloc(), gc.mem_free())
"""

BALLAST_MAIN = """# bench_pico.py: the app with 100 KB held from the start
import gc
gc.collect()
_ballast = bytearray(100 * 1024)
import knockfw.app
knockfw.app.run()
"""


PARTS_MAIN = """# bench_pico.py: the app's boot as knockfw.app.run() does it, with marks (us since reset)
import time
_t = [("main.py runs", time.ticks_us())]
import knockfw.app as A
_t.append(("the app's modules imported", time.ticks_us()))
from knockfw import board as B
b = B.load()
_t.append(("board.load(): the board and its panel", time.ticks_us()))
a = A.App(b)
_t.append(("App(): settings, the journal, the games rebuilt", time.ticks_us()))
while not a.refreshes:
    a.step(time.ticks_ms())
_t.append(("the first screen drawn and sent to the panel", time.ticks_us()))
for n, t in _t:
    print("PART %d %s" % (t, n))
while True:
    a.step(time.ticks_ms())
    time.sleep_ms(20)
"""


def measure_parts(emu, image, work, j300):
    """Where the boot without the checkpoint goes (a 300-hand journal): the app's own boot
    steps, timed by a main.py that does what knockfw.app.run() does, with marks. Not a budget:
    the map for whoever makes the boot quicker."""
    dev = emu_device.Device(emu, os.path.join(work, "parts"), image)
    try:
        start_settled(dev)
        put_journal(dev, j300)
        main = os.path.join(work, "main_parts.py")
        with open(main, "w") as f:
            f.write(PARTS_MAIN)
        mpremote(dev, "fs", "rm", ":/data/snap.json", "+", "fs", "cp", main, ":/main.py")
        dev.reset()
        dev.sleep(3000)
        with dev.serial(timeout=2) as port:
            out = port.read(4096).decode("utf-8", "replace")
    finally:
        dev.stop()
    parts = [ln.split(" ", 2)[1:] for ln in out.splitlines() if ln.startswith("PART ")]
    if not parts:
        print("boot parts: no figures:\n" + out[-1000:])
        return
    print("where the boot without the checkpoint goes (ms from reset, 300-hand journal):")
    last = 0.0
    for t, name in parts:
        ms = int(t) / 1000
        print("  %-52s %6.0f ms  (+%.0f)" % (name, ms, ms - last))
        last = ms


def last_words(dev):
    """The last line the device printed on its serial port (a traceback's error)."""
    try:
        with dev.serial(timeout=0.5) as port:
            out = port.read(4096).decode("utf-8", "replace")
    except Exception as e:  # noqa: BLE001 - only for the report
        return "(serial: %s)" % e
    lines = [x.strip() for x in out.splitlines() if x.strip()]
    errors = [x for x in lines if "Error" in x or "Exception" in x]
    if errors:
        return errors[-1]
    return lines[-1] if lines else "(nothing on the serial port)"


def measure_heap(emu, image, work, j300):
    dev = emu_device.Device(emu, os.path.join(work, "heap"), image)
    try:
        start_settled(dev)
        put_journal(dev, j300)
        out = mpremote(dev, "exec", HEAP, timeout=300)
        line = [x for x in out.splitlines() if x.startswith("HEAP")]
        alloc, free = (int(v) for v in line[-1].split()[1:]) if line else (None, None)
        base = [int(x.split()[1]) for x in out.splitlines() if x.startswith("BASE")]
        say(
            "live heap, app + 300-hand journal",
            alloc / 1024 if alloc else None,
            BUDGETS["heap"] / 1024,
            unit="KB",
            extra="free %.1f KB of %.1f KB; the app's own %.1f KB above the REPL's %.1f KB"
            % (
                (free or 0) / 1024,
                ((alloc or 0) + (free or 0)) / 1024,
                ((alloc or 0) - (base[0] if base else 0)) / 1024,
                (base[0] if base else 0) / 1024,
            ),
        )

        # the app with 100 KB of ballast: boot with 300 hands, a hand entered, a full sync
        main = os.path.join(work, "main_ballast.py")
        with open(main, "w") as f:
            f.write(BALLAST_MAIN)
        mpremote(dev, "fs", "cp", main, ":/main.py")
        failed = []
        try:
            dev.reset_and_wait(timeout=60)
        except AssertionError:
            failed.append("the app did not boot: " + last_words(dev))
            missed = None
        if not failed:
            dev.wait_quiet(300)
            missed = dev.act(
                [
                    ("a", "press"),
                    ("a", "press"),
                    ("up", "press"),
                    ("b", "press"),
                    ("c", "press"),
                    ("a", "press"),
                ]
            )
            if missed:
                failed.append("presses unanswered: %r" % missed)
            p = dev.sync(check=False, timeout=600)
            if p.returncode != 0:
                failed.append("sync failed: " + (p.stdout + p.stderr).strip()[-300:])
            n = dev.refreshes()
            dev.press("up", 100)
            if not dev.wait_refresh(n, emu_ms=3000):
                failed.append("no refresh after the sync: " + last_words(dev))
        print(
            "%-46s %9s     (boot with 300 hands, a hand, sync of all, a press)%s"
            % (
                ">= 100 KB free at every point (100 KB held)",
                "no" if failed else "yes",
                ("\n    " + "\n    ".join(failed)) if failed else "",
            ),
            flush=True,
        )
    finally:
        dev.stop()


TAP_LENGTHS = (6, 8, 10, 12, 14, 17, 20)


def measure_taps(emu, image, work, n):
    """The shortest tap counted every time between hands: the Badger on battery, napping (light
    sleeps of 10 ms, IO_BANK0 unclocked: tests/emu/emu_taps.py), n taps of each length."""
    import emu_taps

    dev = emu_device.Device(emu, os.path.join(work, "taps"), image)
    try:
        start_settled(dev)
        dev.on_battery()
        dev.sleep(1000)
        counts = emu_taps.taps(dev, TAP_LENGTHS, n, random.Random(30))
    finally:
        dev.stop()
    say(
        "shortest tap counted every time, between hands",
        emu_taps.shortest_always(counts),
        BUDGETS["tap"],
        extra="on battery, napping; of %d at random moments: %s" % (n, emu_taps.report(counts)),
    )


def option(args, name, default=None):
    """The value after `name` in args (a str), or default."""
    return args[args.index(name) + 1] if name in args else default


def start(bench):
    """(the emupico module, a scratch folder) for a bench on the emulated Pico, or None after
    saying why there is none."""
    if not emu_device.HAVE_EMU:
        print(bench + ": " + emu_device.MISSING)
        return None
    return emu_device.load_emupico(), tempfile.mkdtemp(prefix="knockbox-%s-" % bench)


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    image = option(args, "--image")
    only = option(args, "--only", "boot,taps,play,save,sync,heap,parts").split(",")
    timing = option(args, "--flash-timing", os.environ.get("PICO_EMU_FLASH_TIMING", "typ"))
    os.environ["PICO_EMU_FLASH_TIMING"] = timing  # every emulator this bench starts
    silicon = "--silicon-clocks" in args or os.environ.get("PICO_EMU_SILICON_CLOCKS") == "1"
    if silicon:
        os.environ["PICO_EMU_SILICON_CLOCKS"] = "1"
    else:
        os.environ.pop("PICO_EMU_SILICON_CLOCKS", None)
    started = start("bench_pico")
    if started is None:
        return 0
    emupico, work = started
    write = "--write" in args
    if write and (timing != "typ" or "--only" in args or image or not silicon):
        raise SystemExit(
            "--write: the docs' figures are a whole run at typical flash timing with "
            "--silicon-clocks"
        )
    if write:
        sys.stdout = tee = docfigures.Tee(sys.stdout)
    try:
        t = time.time()
        j300 = os.path.join(work, "j300")
        j1000 = os.path.join(work, "j1000")
        make_journal(j300, 300)
        make_journal(j1000, 1000)
        if image is None:
            image = deploy(emupico, work)
        print(
            "Pico-speed budgets (bench/README.md), emulated RP2040 time, Badger 2040 build, "
            "flash timing %s, clocks %s:"
            % (
                timing,
                "as silicon's (ring oscillator from reset, XIP cache misses)"
                if silicon
                else "fast (125 MHz from reset, no XIP cache misses: optimistic)",
            )
        )
        if "boot" in only:
            measure_boot(emupico, image, work, j300, 2 if quick else 4)
        if "taps" in only:
            measure_taps(emupico, image, work, 8 if quick else 20)
        if "play" in only:
            measure_play(emupico, image, work, j300, 10 if quick else 30)
        if "save" in only:
            measure_save(emupico, image, work, j300, 5 if quick else 12)
        if "sync" in only:
            measure_sync_and_drain(emupico, image, work, j1000, 2000)
        if "heap" in only:
            measure_heap(emupico, image, work, j300)
        if "parts" in only:
            measure_parts(emupico, image, work, j300)
        print("(%.0f s wall)" % (time.time() - t))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if write:
            sys.stdout = tee.out
    if write:
        lines = [ln for ln in tee.lines() if not ln.startswith(("deploy:", "("))]
        docfigures.write("docs/EMULATOR.md", "bench_pico.py", lines)
        hw = [ln for ln in lines if ln.startswith(("Pico-speed", "reset -> power", "shortest tap"))]
        docfigures.write("hardware/README.md", "bench_pico.py", hw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
