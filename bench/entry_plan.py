"""How a player keys a count on Knockbox without looking at the panel: the presses that take the
highlighted count of the counts screen (knockfw.ui_hand) from where it stands to the count wanted,
found with the firmware's own rules of entry (each press is tried on a copy of the screen's state
through the firmware's own code, so a plan follows the device whatever its keys do).

    presses = count(act, game, want)    # [("b", "press"), ("up", "long"), ("down", "press")]

A plan has the fewest presses; among those, the fewest held; among those, the presses in the order
of PRESSES below (tens, then fives, then ones; adding before taking away). "Another seat's button"
is the next seat's clockwise after the highlighted one (A, B, C, A). README's "Playing" says the
same in words, and tests/test_entry_plan.py checks the plans against a plan written from that text
alone. bench/bench_entry.py and tests/emu/emu_plan.py (and through it bench/bench_battery.py and
the tests on the emulated Pico) key their hands with it.
"""

# The presses that change a count, in the order plans prefer them: (button, how). "next" stands
# for the next seat's button clockwise after the highlighted one; a held Up/Down is its press and
# then its first repeat (a long press of an auto-repeat button, knockfw.buttons).
PRESSES = (
    ("next", "press"),
    ("next", "long"),
    ("up", "long"),
    ("down", "long"),
    ("up", "press"),
    ("down", "press"),
)
SEATS = ("a", "b", "c")


def events(name, how):
    """The button events (knockfw.buttons) of one press: what the firmware's UI is handed."""
    if how == "long" and name in ("up", "down"):
        return [(name, "press"), (name, "repeat")]
    return [(name, how)]


def _apply(act, game, seat, value, press):
    """The highlighted count after press, from value: the firmware's own handling, on a copy."""
    cls = type(act)
    a = cls()
    a.__dict__.update(act.__dict__)
    a.counts = list(act.counts)
    a.counts[seat] = value
    a.held = None
    for name, how in events(button(act, press[0]), press[1]):
        a.handle(None, name, how, game, None)
    return a.counts[seat]


def button(act, name):
    """The physical button of a plan's press: "next" is the seat after the highlighted one."""
    return SEATS[(act.fields[act.cursor] + 1) % 3] if name == "next" else name


def count(act, game, want):
    """The presses that take the highlighted count of act (mode "counts") to want: [(button,
    "press"|"long")], the plan described in the module's docstring. Raises ValueError if want
    cannot be reached (outside the count's range)."""
    seat = act.fields[act.cursor]
    start = act.counts[seat]
    # Dijkstra over the count's values; a path's cost is (presses, held, the presses' indexes in
    # PRESSES), compared in that order (a longer path never costs less, so the first path taken
    # out for a value is its best).
    best = {start: (0, 0, ())}
    todo = [(0, 0, (), start)]
    done = set()
    while todo:
        todo.sort(reverse=True)
        n, held, path, v = todo.pop()
        if v in done:
            continue
        done.add(v)
        if v == want:
            return [(button(act, PRESSES[i][0]), PRESSES[i][1]) for i in path]
        for i, p in enumerate(PRESSES):
            w = _apply(act, game, seat, v, p)
            cost = (n + 1, held + (p[1] == "long"), path + (i,))
            if w not in done and (w not in best or cost < best[w]):
                best[w] = cost
                todo.append(cost + (w,))
    raise ValueError("count %r cannot be keyed from %r" % (want, start))
