# A fault: the app stopped on an exception it did not handle (a bug, the heap full, a flash error,
# a panel that never finishes: knockfw.epd). main.py runs the app inside a guard that imports
# this module and calls top() (the app is gone by then, its heap free again: the allocator
# collects when it must; the board stays in knockfw.board.current). main.py has no comments: the
# Pico reads it as source at every boot, from a file small enough for littlefs to keep in its
# directory, 32 bytes a read, each one slow (comments would delay the first screen):
#
#   try:                                    main.py
#       import knockfw.app
#       knockfw.app.run()
#   except BaseException as e:
#       from knockfw import fault
#       fault.top(e)
#       raise
#
#   1. the fault is recorded: appended to PATH as "@<ms since boot>" and the traceback (type,
#      message, the functions it went through: -O3 keeps no line numbers), after the older
#      records are cut to their last 1536 bytes. The laptop reads them over the serial link
#      (knockfw.link's "faults" op: read(), then read(clear) once stored); `knockbox sync`
#      prints each once;
#   2. the error screen, in the player's language: what happened and what to do (not on a panel
#      that gave up: knockfw.epd's stuck);
#   3. on battery the board switches itself off (the Badger drops its power latch; the Pico
#      build sleeps until a button is pressed), then, or after 5 s on USB power, a fresh start
#      (the board's restart(): machine.reset()).
# Each step is on its own: if one fails (a second MemoryError, a flash error) the next still
# runs, and anything that escapes them ends in the restart. The watchdog keeps running
# throughout: a hang here restarts the chip too. (If even the board cannot be made, the fault
# is recorded, on battery the board goes dark without it (knockfw.board.off()), and on USB
# main.py's raise leaves the REPL with its traceback.)
# A watchdog reset is a fault too: the app's run() raises it at the next boot (the board's
# watchdog_fired()), so it is recorded and shown like any other.
# Ctrl-C is no fault: a KeyboardInterrupt (mpremote, `knockbox deploy` taking the REPL) stops
# the watchdog, which the REPL would not feed, and main.py raises it again: the REPL, as always.
import os
import sys
import time

import knockfw
from knockfw import board as _board

PATH = knockfw.FAULTS_FILE


def top(e):
    """main.py: every exception out of the app. Returns for Ctrl-C (also one that comes while
    a fault is handled), with the watchdog stopped."""
    b = _board.current
    if not isinstance(e, KeyboardInterrupt):
        try:
            b = b or _board.load()
            _handle(e, b)
        except KeyboardInterrupt:
            pass
        except BaseException:  # noqa: BLE001 - whatever failed: a fresh start
            if b:
                b.restart()
            _handle(e, None)  # no board: at least the record, then on battery dark
            _board.off()
    if b:
        b.watch(False)


def _handle(e, b):
    try:  # the older records: their last 1536 bytes, from a record's start
        with open(PATH, "rb") as f:
            old = f.read()[-1536:]
        with open(PATH, "wb") as f:
            f.write(old[old.find(b"@") :])
        old = None
    except Exception:  # noqa: BLE001 - no file yet, or no room for it: append all the same
        pass
    try:
        with open(PATH, "a") as f:
            f.write("@%s\n" % time.ticks_ms())
            sys.print_exception(e, f)
    except Exception:  # noqa: BLE001 - the screen and the switch-off matter more
        pass
    if b is None:
        return
    usb = b.on_usb()
    try:
        if not b.display.stuck:
            screen(b.display, e, usb)
            if usb:  # (on battery power_off() waits for it, as before any switch-off)
                b.display.wait()
    except Exception:  # noqa: BLE001 - likewise
        pass
    if usb:
        knockfw.feed()
        time.sleep_ms(5000)
    else:
        b.power_off()  # dark here on the Badger; the Pico build returns at a press
    b.restart()


def screen(d, e, usb):
    """Draw the error screen for e on panel d and start its (full) refresh."""
    from knockfw import screens as S

    t, medium, small = S.t, S.medium, S.small
    S.text.clear(d)
    S.bar(d, t("fault"))
    S.center(d, "%s: %s" % (type(e).__name__, e), 0, 20, S.W, small)
    S.center(d, t("fault_saved"), 0, 44, S.W, medium)
    S.center(d, t("fault_usb" if usb else "fault_off"), 0, 66, S.W, medium)
    S.center(d, t("fault_sync"), 0, S.FOOT + 1, S.W, small)
    d.show(True)


def low(d, r):
    """knockfw.app's battery_low(): "Battery low" on panel d, with reading r (the board's
    battery, or None), and its (full) refresh started. Here with the error screen: a switch-off
    on a screen of its own, loaded only then."""
    from knockfw import screens as S

    t, medium = S.t, S.medium
    S.text.clear(d)
    S.bar(d, t("bat_low"))
    if r:
        S.center(d, "%.2f V" % (r["vbat_mv"] / 1000), 0, 40, S.W, medium)
    S.center(d, t("bat_off"), 0, 70, S.W, medium)
    d.show(True)


def read(clear=None):
    """The serial link's "faults": {"faults": the records' text, "size": its bytes}. clear=N
    (the size the laptop has stored) removes the file first if it still holds N bytes (after a
    fault recorded since, it stays whole: the laptop sees the old ones again and knows them)."""
    try:
        with open(PATH, "rb") as f:
            b = f.read()
    except OSError:
        b = b""
    if b and clear == len(b):
        os.remove(PATH)
        b = b""
    return {"faults": b.decode(), "size": len(b)}
