# Button trace cases, run by pytest under CPython (tests/test_buttons.py imports this module) and
# under the MicroPython unix port (run as a script: prints "ok <case>" per case, then "done").
#
# A trace is a list of (t_ms, level) changes per pin. replay() polls every 10 ms at t = 0, 10,
# 20, ... (or at the given poll times) and returns the events as (t, name, kind). Times handed to
# poll() are base + t in ticks, so a base just below the wrap point checks the tick arithmetic.
# TracePin has no interrupts: the buttons see what poll() reads. IrqPin has them: every edge of
# its trace runs the buttons' IRQ handler at its own time (the simulator's pins), between polls.
# sampled=True is the RP2040's way (knockfw.rp2board's DMA rings): no pins, each poll takes the
# levels of every change since the last one, with its time, from the buttons' sample().
#
# Expected times follow the module's rules: a change counts at the first edge (polled pins: the
# first poll that reads it), then the button is deaf for 50 ms; long_ms=600, repeat_ms=150.
from knockfw import buttons
from knockfw.buttons import Buttons, _add as tadd

ABCUD = ("a", "b", "c", "up", "down")


class TracePin:
    def __init__(self, trace, active_low=False):
        self.trace = trace  # [(t, level)], sorted; level is logical (1 = pressed)
        self.t = 0
        self.low = active_low

    def value(self):
        level = 0
        for t, v in self.trace:
            if t <= self.t:
                level = v
        return (1 - level) if self.low else level


class IrqPin(TracePin):
    IRQ_RISING = 4
    IRQ_FALLING = 8
    handler = None

    def irq(self, handler=None, trigger=0, hard=False):
        if trigger != self.IRQ_RISING | self.IRQ_FALLING or not hard:
            raise AssertionError("want a hard IRQ on both edges")
        self.handler = handler


def sampler(traces, clock, base, active_low):
    """The sample() of the RP2040's rings for these traces: every change up to clock[0] not yet
    taken, as (ticks, levels), bit i of levels the level GPIO i reads (ABCUD's i-th button)."""
    changes = sorted((t, ABCUD.index(n), v) for n in traces for t, v in traces[n])
    level = [0] * len(ABCUD)

    def sample():
        out = []
        while changes and changes[0][0] <= clock[0]:
            t, i, v = changes.pop(0)
            level[i] = v
            lv = 0
            for j in range(len(ABCUD)):
                lv |= (1 - level[j] if active_low else level[j]) << j
            out.append((tadd(base, t), lv))
        return out

    return sample


def replay(
    traces,
    end,
    base=0,
    step=10,
    active_low=False,
    polls=None,
    setup=None,
    irq=False,
    sampled=False,
    **kw,
):
    pins = {}
    for n in ABCUD:
        pins[n] = (IrqPin if irq else TracePin)(traces.get(n, []), active_low)
    clock = [0]
    if sampled:
        kw["sample"] = sampler(traces, clock, base, active_low)
        pins = dict((n, ABCUD.index(n)) for n in ABCUD)
    b = Buttons(pins, active_low=active_low, clock=lambda: buttons._tadd(base, clock[0]), **kw)
    if setup:
        setup(b)
    edges = []
    if irq:
        for n in ABCUD:
            for t, _v in traces.get(n, []):
                edges.append((t, n))
        edges.sort()
    out = []
    times = polls if polls is not None else range(0, end + 1, step)
    for t in times:
        while edges and edges[0][0] <= t:  # interrupts between the polls, in time order
            te, n = edges.pop(0)
            clock[0] = te
            pins[n].t = te
            _locked(pins[n].handler, pins[n])
        clock[0] = t
        for p in pins.values():
            if not sampled:
                p.t = t
        for name, kind in b.poll(tadd(base, t)):
            out.append((t, name, kind))
    return out, b


def _locked(f, arg):
    """Call f(arg) as a hard IRQ would: under MicroPython with the heap locked, so that any
    allocation in the handler raises MemoryError here (on the RP2040 it loses the edge)."""
    try:
        import micropython

        lock = micropython.heap_lock
    except (ImportError, AttributeError):
        return f(arg)
    lock()
    try:
        f(arg)
    finally:
        micropython.heap_unlock()


def check(got, want):
    if got != want:
        raise AssertionError("got %r\nwant %r" % (got, want))


def press(t0, t1):
    return [(t0, 1), (t1, 0)]


def held_down(name, t, repeats):
    """The events of a button held from t: its press, then a repeat at each time of repeats."""
    return [(t, name, "press")] + [(r, name, "repeat") for r in repeats]


def taps(t0, n, held=60, gap=60):
    tr = []
    for i in range(n):
        tr += press(t0 + i * (held + gap), t0 + i * (held + gap) + held)
    return tr


def case_clean_short():
    check(replay({"a": press(100, 300)}, 600)[0], [(300, "a", "press")])


def case_chatter_both_edges():
    # closes with chatter (samples 100:1 110:0 120:1 ...), opens with chatter (400:0 410:1
    # 420:0 430:1 440:0): the first edge counts, the rest fall in the deaf 50 ms.
    a = [
        (100, 1),
        (105, 0),
        (115, 1),
        (125, 0),
        (128, 1),
        (400, 0),
        (405, 1),
        (412, 0),
        (421, 1),
        (433, 0),
    ]
    check(replay({"a": a}, 700)[0], [(400, "a", "press")])
    check(replay({"a": a}, 700, irq=True)[0], [(400, "a", "press")])
    check(replay({"a": a}, 700, sampled=True)[0], [(400, "a", "press")])


def case_chatter_1ms():
    # 1-3 ms bounces between polls are never even seen
    a = [(100, 1), (101, 0), (102, 1), (104, 0), (106, 1), (300, 0), (302, 1), (303, 0)]
    check(replay({"b": a}, 500)[0], [(300, "b", "press")])


def case_a_tap_shorter_than_the_deaf_time_counts():
    # released during the deaf 50 ms: the release counts when they end
    check(replay({"a": press(100, 130)}, 300)[0], [(150, "a", "press")])
    check(replay({"up": press(100, 130)}, 300)[0], [(100, "up", "press")])


def case_quick_taps_all_count():
    # 60 ms taps, 60 ms apart: every one, polled or by interrupt
    want = [(160 + 120 * i, "a", "press") for i in range(5)]
    check(replay({"a": taps(100, 5)}, 800)[0], want)
    check(replay({"a": taps(100, 5)}, 800, irq=True)[0], want)
    check(replay({"a": taps(100, 5)}, 800, sampled=True)[0], want)
    check(len(replay({"up": taps(100, 5)}, 800)[0]), 5)


def case_dropout_while_held():
    # b held 100..1000 with a 30 ms dropout at 400: the dropout reads as a release
    b = [(100, 1), (400, 0), (430, 1), (1000, 0)]
    check(replay({"b": b}, 1300)[0], [(400, "b", "press"), (1000, "b", "press")])


def case_long_then_nothing_on_release():
    check(replay({"c": press(100, 1500)}, 1800)[0], [(700, "c", "long")])


def case_long_boundary():
    # held 590 ms: press; held 600 ms: long; held 610 ms: long at 700 while still held
    check(replay({"a": press(100, 690)}, 900)[0], [(690, "a", "press")])
    check(replay({"a": press(100, 700)}, 900)[0], [(700, "a", "long")])
    check(replay({"a": press(100, 710)}, 900)[0], [(700, "a", "long")])


def case_repeat():
    got, b = replay({"up": press(100, 1180)}, 1400)
    check(got, held_down("up", 100, (700, 850, 1000, 1150)))


def case_repeat_short_press():
    check(replay({"down": press(100, 400)}, 700)[0], [(100, "down", "press")])


def case_no_repeat_while_opening():
    # contact opens at 1140: the repeat due at 1150 never comes
    got = replay({"up": press(100, 1140)}, 1400)[0]
    check(got, held_down("up", 100, (700, 850, 1000)))


def case_late_polls_do_not_pile_up():
    # polls stop between 200 and 2000 (a blocking refresh): one repeat at 2000, then every 150
    polls = list(range(0, 201, 10)) + list(range(2000, 2400, 10))
    got = replay({"up": press(100, 5000)}, 0, polls=polls)[0]
    check(got, held_down("up", 100, (2000, 2150, 2300)))


def case_presses_during_a_blocked_loop_all_count_in_order():
    # no poll from 200 to 1300 (a save, a render, a sync): 60 ms taps of a, b and up made then
    # come out at the next poll, all of them, in the order they were made
    polls = list(range(0, 201, 10)) + list(range(1300, 1500, 10))
    tr = {"a": taps(250, 3, gap=300), "b": taps(370, 3, gap=300), "up": taps(310, 4, gap=180)}
    got = replay(tr, 0, polls=polls, irq=True)[0]
    check(replay(tr, 0, polls=polls, sampled=True)[0], got)
    order = sorted(
        [(t, "a") for t, v in tr["a"] if v == 0]
        + [(t, "b") for t, v in tr["b"] if v == 0]
        + [(t, "up") for t, v in tr["up"] if v == 1]
    )
    check(got, [(1300, n, "press") for _t, n in order])
    # the same taps, polled instead: only the level at 1300 is left to see
    check(replay(tr, 0, polls=polls)[0], [])


def case_a_hold_during_a_blocked_loop_is_timed_by_its_edges():
    polls = list(range(0, 201, 10)) + list(range(1300, 1500, 10))
    got = replay({"a": press(300, 700), "c": press(300, 1100)}, 0, polls=polls, irq=True)[0]
    check(got, [(1300, "a", "press"), (1300, "c", "long")])
    got = replay({"a": press(300, 700), "c": press(300, 1100)}, 0, polls=polls, sampled=True)[0]
    check(got, [(1300, "a", "press"), (1300, "c", "long")])


def case_sampled_events_come_in_the_order_they_were_due():
    # no poll from 200 to 1300: c held from 300 reaches its long at 900, before a is tapped at
    # 1000-1060 and up at 1100: the long first; from the pins, only the level at 1300 is left
    polls = list(range(0, 201, 10)) + list(range(1300, 1500, 10))
    tr = {"a": press(1000, 1060), "c": press(300, 1250), "up": press(1100, 1160)}
    check(
        replay(tr, 0, polls=polls, sampled=True)[0],
        [(1300, "c", "long"), (1300, "a", "press"), (1300, "up", "press")],
    )
    check(replay(tr, 0, polls=polls)[0], [])


def case_more_edges_than_the_ring_holds():
    # a burst of 200 edges while the loop is blocked: the oldest are lost, nothing breaks, and
    # the next press is read as usual
    polls = list(range(0, 201, 10)) + list(range(1300, 1700, 10))
    b = []
    for i in range(100):
        b += [(300 + 4 * i, 1), (302 + 4 * i, 0)]
    b += [(1400, 1), (1460, 0)]
    got = replay({"b": b}, 0, polls=polls, irq=True)[0]
    check(got[-1], (1460, "b", "press"))


def case_two_at_once():
    tr = {
        "a": press(100, 300),
        "c": press(105, 320),
        "up": press(100, 800),
        "down": press(100, 800),
    }
    got = replay(tr, 1000)[0]
    check(
        got,
        [
            (100, "up", "press"),
            (100, "down", "press"),
            (300, "a", "press"),
            (320, "c", "press"),
            (700, "up", "repeat"),
            (700, "down", "repeat"),
        ],
    )


def case_same_poll_in_button_order():
    tr = {"c": press(100, 300), "a": press(100, 300), "b": press(100, 300)}
    check(replay(tr, 500)[0], [(300, "a", "press"), (300, "b", "press"), (300, "c", "press")])


def case_wraparound():
    # The same traces with ticks crossing the wrap point must give the same events.
    tr = {"a": press(100, 300), "b": press(100, 1500), "up": press(100, 1180)}
    want = replay(tr, 1800)[0]
    for back in (1, 150, 700, 1000, 1790):
        check(replay(tr, 1800, base=tadd(0, -back))[0], want)
        check(replay(tr, 1800, base=tadd(0, -back), irq=True)[0], want)
        check(replay(tr, 1800, base=tadd(0, -back), sampled=True)[0], want)
    check(len(want), 7)


def case_diff_wraps():
    p = buttons._PERIOD
    d = buttons._diff
    check(d(5, p - 5), 10)
    check(d(p - 5, 5), -10)
    check(d(0, p - 1), 1)
    check(d(p - 1, 0), -1)
    check(d(p // 2 - 1, 0), p // 2 - 1)
    check(d(p // 2, 0), -(p // 2))
    check(d(0, p // 2), -(p // 2))
    check(d(123, 123), 0)
    check(tadd(p - 1, 1), 0)
    check(tadd(0, -1), p - 1)


def case_diff_matches_ticks_diff():
    # Under MicroPython, the pure _diff must agree with the C time.ticks_diff everywhere.
    import time

    td = getattr(time, "ticks_diff", None)
    if td is None:
        return  # CPython: no ticks_diff to compare with (case_diff_wraps still runs)
    p = buttons._PERIOD
    r = Rand(7)
    vals = [0, 1, 2, p // 2 - 1, p // 2, p // 2 + 1, p - 2, p - 1]
    for _ in range(200):
        vals.append((r.below(1 << 30) * r.below(1 << 30) * 7919 + r.below(1000)) % p)
    for a in vals:
        for b in vals[:40]:
            if buttons._diff(a, b) != td(a, b):
                raise AssertionError(
                    "_diff(%d, %d) = %d, ticks_diff %d" % (a, b, buttons._diff(a, b), td(a, b))
                )
    check(tadd(p - 1, 5), time.ticks_add(p - 1, 5))


def case_active_low():
    for irq, sampled in ((False, False), (True, False), (False, True)):
        got = replay(
            {"a": press(100, 300), "up": press(100, 200)},
            500,
            active_low=True,
            irq=irq,
            sampled=sampled,
        )[0]
        check(got, [(100, "up", "press"), (300, "a", "press")])


def case_inject_released():
    # woke by B, released before the first poll: one press, nothing more, then normal again
    got = replay({"b": press(2000, 2200)}, 2500, setup=lambda b: b.inject("b"))[0]
    check(got, [(0, "b", "press"), (2200, "b", "press")])


def case_deaf_time_runs_from_the_edge():
    # Up tapped 100 ms at a time, pressed again 1-3 ms after each release, as the RP2040's
    # sampler reads it (every 19.1 ms: a release and the press after it in one sample, the
    # release a ms before). Each press after a quick release counts when the deaf time from
    # that release ends, and the deaf time after it runs from its edge, not from then: the next
    # release, 100 ms after its press, is outside it, so no tap is swallowed.
    samples = [
        (5830, 8),
        (5924, 0),
        (5925, 8),
        (6033, 0),
        (6034, 8),
        (6128, 0),
        (6129, 8),
        (6239, 0),
    ]
    now = [0]

    def sample():
        out = []
        while samples and samples[0][0] <= now[0]:
            out.append(samples.pop(0))
        return out

    got = []
    b = Buttons({"up": 3}, sample=sample)
    for t in range(5800, 6400, 10):
        now[0] = t
        got += [(t, n, k) for n, k in b.poll(t)]
    check(
        got,
        [
            (5830, "up", "press"),
            (5980, "up", "press"),
            (6090, "up", "press"),
            (6180, "up", "press"),
        ],
    )


def case_inject_sampled():
    # the RP2040: B woke the board, its levels come from the samples (held, then let go): a
    # press when it is let go, as any press of B
    got = replay(
        {"b": press(0, 200), "a": press(400, 460)}, 600, setup=lambda b: b.inject("b"), sampled=True
    )[0]
    check(got, [(200, "b", "press"), (460, "a", "press")])


def case_inject_still_held():
    # woke by A still held for 1.5 s: one long press (a gin), once; Up held at wake: its press,
    # no repeats
    tr = {"a": press(0, 1500), "up": press(0, 1500)}
    got = replay(tr, 2000, setup=lambda b: (b.inject("a"), b.inject("up")))[0]
    check(got, [(0, "up", "press"), (600, "a", "long")])


def case_inject_held_since():
    # B seen down 40 ms before the sampler's first sample (boot.py's look, then the
    # sampler started), the app's first poll 700 ms later (boot, the journal); the samples come
    # with their own times. Held 800 ms from the wake: a long press (gin); 300 ms: a press.
    for held, want in ((800, [(700, "b", "long")]), (300, [(700, "b", "press")])):
        got = replay(
            {"b": press(0, held - 40)},
            1000,
            base=5000,
            polls=range(700, 1001, 100),
            sampled=True,
            setup=lambda b: b.inject("b", buttons._tadd(5000, -40)),
        )[0]
        check(got, want)


def case_inject_unknown():
    b = Buttons({"a": TracePin([])})
    try:
        b.inject("zz")
    except ValueError:
        return
    raise AssertionError("inject of an unknown button accepted")


class Rand:
    """A tiny LCG, the same numbers on CPython and MicroPython."""

    def __init__(self, seed):
        self.s = seed

    def below(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def chatter(r, t, trace, level):
    """Up to 3 bounces of 1-6 ms each way (all within the deaf 50 ms), ending at `level`;
    returns the new time."""
    start = t
    for _ in range(r.below(4)):
        trace.append((t, level))
        t += 1 + r.below(6)
        trace.append((t, 1 - level))
        t += 1 + r.below(6)
    trace.append((t, level))
    return t, t - start


def repeats(d):
    """Repeats during a measured hold of d ms: at 600, 750, 900, ... strictly inside the hold."""
    return 0 if d <= 600 else (d - 601) // 150 + 1


def bouncy_session(r):
    """Random presses with chatter at both edges: (trace, [(held_min, held_max)], end).

    What the buttons measure lies between those bounds: sampling every 10 ms may miss any
    bounce, so the hold can stretch over the chatter, or end at the first bounce."""
    t, trace, holds = 0, [], []
    for _ in range(6):
        t += 60 + r.below(300)  # open long enough for the release to count
        t, pre = chatter(r, t, trace, 1)
        held = (70 + r.below(310)) if r.below(2) else (700 + r.below(900))
        t += held
        t, post = chatter(r, t, trace, 0)
        holds.append((held - 10, held + pre + post + 20))
    return trace, holds, t + 200


def case_random_bouncy_sessions():
    r = Rand(12345)
    for i in range(100):
        trace, holds, end = bouncy_session(r)
        irq, sampled = i % 3 == 1, i % 3 == 2
        got = [k for _t, _n, k in replay({"b": trace}, end, irq=irq, sampled=sampled)[0]]
        for lo, hi in holds:
            if lo < 600 <= hi:
                raise AssertionError("session %d: ambiguous hold %r" % (i, (lo, hi)))
        check(got, ["long" if lo >= 600 else "press" for lo, _hi in holds])
        got = [k for _t, _n, k in replay({"down": trace}, end, irq=irq, sampled=sampled)[0]]
        runs = []
        for k in got:
            if k == "press":
                runs.append(0)
            elif k == "repeat" and runs:
                runs[-1] += 1
            else:
                raise AssertionError("session %d: %r" % (i, got))
        check(len(runs), len(holds))
        for j in range(len(runs)):
            lo, hi = holds[j]
            if not repeats(lo - 10) <= runs[j] <= repeats(hi + 10):
                raise AssertionError(
                    "session %d press %d: %d repeats, hold %r" % (i, j, runs[j], holds[j])
                )


def cases():
    return [n for n in sorted(globals()) if n.startswith("case_")]


def main():
    g = globals()
    for n in cases():
        g[n]()
        print("ok", n)
    print("done")


if __name__ == "__main__":
    main()
