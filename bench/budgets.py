"""What Knockbox must stay within: the budgets of bench/README.md's table, each written once here
for the benches that measure against it and the tests that check what a test can check. Each
figure is in the unit the table gives it in; TABLE lists, row by row, the figures the table
states, and tests/test_budgets.py keeps the two the same.

    import budgets   (bench/ is on sys.path: bench/_paths.py)
    assert size <= budgets.CORE_KB * 1024
"""

# Compiled sizes (.mpy, mpy-cross -O3) and the unix port's heap
CORE_KB = 12  # the rules core, shared/
FIRMWARE_KB = 64  # each board's whole firmware as deploy puts it
HEAP_KB = 192  # the unix port's heap a session and its boot run in (64-bit: stricter than a Pico)
SESSION_HANDS = 300  # the hands of that session
FONTS_KB = 7  # knockfw/fonts.mpy, the three faces
FONTS_HEAP_KB = 8  # the heap they hold once imported (unix port)
LINK_BYTES = 4224  # knockfw/link.mpy, less than this

# Per hand on the device: CPU of the unix port (x86-64)
HAND_CPU_MS = 100  # commit, persist and render, well under this
BOOT_CPU_S = 1  # boot to the scoreboard with a SESSION_HANDS journal, under this

# On the emulated RP2040 (typical flash timing), in its own time (bench_pico.py)
LATCH_MS = 100  # reset to the Badger's power latch
TAP_MS = 20  # the shortest tap counted every time while the Badger naps on battery, at most
BOOT_MS = 1000  # reset to the first refresh with a SESSION_HANDS journal
PRESS_MS = 80  # an Up press to the refresh command
SAVE_MS = 80  # a save (A on the confirm screen) to the refresh command
LIVE_HEAP_KB = 96  # the live heap, at most
FREE_KB = 100  # the heap free throughout, at least

# A sync
SYNC_HANDS = 1000
SYNC_SIM_S = 2  # on the simulator's link (no bench yet)
SYNC_S = 3  # wall, against the emulated Pico
DRAIN_LINES = 2000  # serial lines queued on the device
DRAIN_S = 20  # drained in this much emulated time

# The Evening screen
EVENING_GAMES = 10
EVENING_S = 1  # opened in well under this, emulated time

# The laptop at HISTORY_GAMES games against HISTORY_BASE: each command's time, at most so many
# times as long (bench_history.py's labels); import and export linear within HISTORY_LINEAR
HISTORY_GAMES = 10000
HISTORY_BASE = 100
HISTORY_WITHIN = {
    "show LAST": 2,
    "settle --evening": 2,
    "report (latest evening)": 2,
    "sync of one evening": 2,
    "history": 6,
    "stats": 15,
    "stats --json": 15,
}
HISTORY_LINEAR = 1.5

IMPORT_GROWTH = 1.5  # import's peak memory, for a file many times larger
BOOK_UPDATE = 1.5  # the book's update after a sync, against one evening's report

BATTERY_HOURS = 300  # the goal: hours of play per BATTERY_MAH
BATTERY_MAH = 1000

# Entering a hand with realistic counts, presses from the scoreboard to "Saved"
ENTRY_PRESSES = 10  # methods 1 and 2, on average
ENTRY_PRESSES_P90 = 13  # methods 1 and 2, 90th percentile
ENTRY_PRESSES_M3 = 15  # method 3, on average
ENTRY_PRESSES_GIN = 6  # a gin of methods 1 and 2
ENTRY_S = 5  # seconds a hand, methods 1 and 2, for a modelled person
ENTRY_GOALS = (
    "methods 1 and 2 at most %d presses a hand on average (90th percentile %d) and %d s; "
    "method 3 at most %d; a gin of methods 1 and 2 at most %d"
    % (ENTRY_PRESSES, ENTRY_PRESSES_P90, ENTRY_S, ENTRY_PRESSES_M3, ENTRY_PRESSES_GIN)
)

# bench/README.md's table of budgets, row by row: the figures each states, in order, as
# (number, unit) ("hand" for "300-hand"); tests/test_budgets.py reads them back from the table.
TABLE = (
    ((CORE_KB, "KB"),),
    ((FIRMWARE_KB, "KB"),),
    ((SESSION_HANDS, "hand"), (HEAP_KB, "KB")),
    ((FONTS_KB, "KB"), (FONTS_HEAP_KB, "KB"), (LINK_BYTES, "bytes")),
    ((HAND_CPU_MS, "ms"), (SESSION_HANDS, "hand"), (BOOT_CPU_S, "s")),
    (
        (LATCH_MS, "ms"),
        (TAP_MS, "ms"),
        (SESSION_HANDS, "hand"),
        (BOOT_MS, "ms"),
        (PRESS_MS, "ms"),
        (SAVE_MS, "ms"),
        (LIVE_HEAP_KB, "KB"),
        (FREE_KB, "KB"),
    ),
    (
        (SYNC_HANDS, "hands"),
        (SYNC_SIM_S, "s"),
        (SYNC_S, "s"),
        (DRAIN_LINES, "lines"),
        (DRAIN_S, "s"),
    ),
    ((EVENING_GAMES, "game"), (EVENING_S, "s")),
    (
        (HISTORY_GAMES, "games"),
        (HISTORY_BASE, "games"),
        *((ratio, "x") for ratio in sorted(set(HISTORY_WITHIN.values()))),
        (HISTORY_LINEAR, "x"),
    ),
    ((IMPORT_GROWTH, "x"),),
    ((BOOK_UPDATE, "x"),),
    ((BATTERY_HOURS, "hours"), (BATTERY_MAH, "mAh")),
    (
        (ENTRY_PRESSES, "presses"),
        (ENTRY_PRESSES_P90, "presses"),
        (ENTRY_PRESSES_M3, "presses"),
        (ENTRY_PRESSES_GIN, "presses"),
        (ENTRY_S, "s"),
    ),
)
