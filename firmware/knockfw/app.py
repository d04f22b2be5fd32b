# The device: buttons -> UI state -> rules core -> journal -> screen, and the serial link.
#
# One turn of the loop (step) polls the buttons and the link, runs what the UI asks for through
# the store (which validates with the core and journals before returning), then draws and
# refreshes the panel when it is free. A hand is on flash before the screen shows it recorded.
# Nothing happens at import time (but the heap's collection rate, below): run() builds the
# board and loops.
import gc
import time

from micropython import const

# On a heap already short as the app's modules come in (a board or a future feature holding
# much of it; bench/bench_pico.py holds 100 KB), collect every 32 KB allocated until they are
# in: the garbage of their lookups (knockfw.rp2board) would otherwise be left between their
# code, and the journal's buffers would find no piece. A heap with room to spare is not slowed.
if gc.mem_free() < 150 * 1024:
    gc.threshold(32 * 1024)

from knockcore.errors import GameError, say
from knockfw import JOURNAL_FILE, META_FILE, SETTINGS_FILE, SNAP_FILE, screens, strings
from knockfw.buttons import Buttons
from knockfw.journal import Journal, load_json, save_json
from knockfw.settings import DEFAULTS, check as check_settings
from knockfw.store import Store
from knockfw.ui import UI

gc.threshold(-1)  # (the default: when the heap is full)

_POLL_MS = const(10)
_ERASE_MS = const(30000)
_ROOM = const(8192)  # heap kept in one piece through the journal's replay
_SNAP_MS = const(2000)  # the boot checkpoint is written once the buttons are left this long
# Away from the scoreboard (a hand half entered, a game being set up, a menu), the idle time
# before the auto-off is at least this: sleep_s is short (hardware/POWER.md), and the auto-off
# goes back to the scoreboard first, dropping what was being entered.
_AWAY_S = const(1800)


class App:
    def __init__(self, board, now_ms=None):
        self.board = board
        # The buttons first: from here on every press is latched, also while the journal loads
        # (on the Pico boot.py has latched them since it ran: the board hands them over).
        self.buttons = board.latched_buttons() or Buttons(
            board.buttons_pins(), active_low=board.active_low, clock=board.clock
        )
        # The UI (and the activities boot imports) before the journal. The journal's replay
        # leaves the heap in small pieces, where the bytecode imported later (the link, the
        # activities) may find no room: a piece is kept through the replay and given back
        # (a 1,000-hand journal on the unix port's 192 KB heap needs 140 KB so, 175 without).
        # A fresh heap always has it; one left in pieces by an earlier App (tests) may not.
        # Then the data folder.
        self.ui = UI()
        board.mount()
        woke = board.wake_button()
        if woke:  # held since woke_at: a press, or held long a long one (gin)
            self.buttons.inject(woke, board.woke_at)
        self.settings = dict(DEFAULTS)
        saved = load_json(SETTINGS_FILE, None)
        if isinstance(saved, dict):
            try:
                check_settings(saved)
                self.settings.update(saved)
            except ValueError:
                pass  # a bad settings file is ignored, never fatal
        strings.set_lang(self.settings["lang"])
        self.display = board.display
        if board.low:  # before the journal is opened (which may write): nothing written
            self.battery_low()
        self.store = Store(Journal(JOURNAL_FILE), META_FILE, snap_path=SNAP_FILE)
        snap = self.store.read_snap()  # (before the room: it needs one piece too)
        try:
            room = bytearray(_ROOM)
        except MemoryError:
            room = None
        self.store.load(snap)
        del room, snap
        self.ui.store = self.store
        if self.store.notes:  # what boot repaired, in the player's language
            self.ui.say(strings.say_notes(self.store.notes, strings.t))
        self.link = None  # made when the laptop first speaks (see _serial_waiting)
        self._waiting = None  # the poll object that watches the serial port until then
        self._warm = False
        self.last_input = time.ticks_ms() if now_ms is None else now_ms
        self.dirty = True
        self._home_shown = False  # the scoreboard is on the panel
        self.syncing = False
        self._erase_done = None
        self._erase_at = self.last_input
        self.refreshes = 0

    def _warm_up(self):
        # What the first screen does not need is set up once it has gone out: the scoreboard
        # comes up sooner after a reset, and the panel's refresh (seconds) hides the work. The
        # serial link waits for the laptop: a device on a battery never needs it (nor its heap).
        # (gc first: bytecode needs a few KB in one piece.)
        import gc

        gc.collect()
        self._warm = True
        if self.board.serial_in is not None:
            import select

            self._waiting = select.poll()
            self._waiting.register(self.board.serial_in, select.POLLIN)
        gc.collect()  # the imports' garbage now, not at the first press
        self.store.checkpoint()  # if this boot replayed hands: the next one need not

    def _serial_waiting(self):
        # The laptop has sent something (or the port hung up): time for the link, which then
        # reads it. One cheap poll a loop turn until then.
        if self._waiting is None or not self._waiting.poll(0):
            return False
        import gc

        gc.collect()
        from knockfw.link import Link

        self._waiting = None
        self.link = Link(self, self.board.serial_in, self.board.serial_out)
        return True

    # ---- the game on the table

    def game(self):
        gid = self.store.current()
        return None if gid is None else self.store.game(gid)

    # ---- the loop

    def step(self, now):
        """One turn of the loop. Returns True while the serial link has more to do right away
        (run() then goes straight on to the next turn instead of sleeping)."""
        more = False
        self.board.service(now)
        for ev in self.buttons.poll(now):
            self.last_input = now
            self.on_event(ev)
        link = self.link
        if link is None and self._serial_waiting():
            link = self.link
        if link is not None:
            more = link.poll(now)
        elif self.refreshes and not self._warm:
            self._warm_up()
        if self._erase_done is not None and time.ticks_diff(now, self._erase_at) > _ERASE_MS:
            self._finish_erase(False)
        if self.dirty and not self.display.busy():
            self.render()
        elif not self.syncing and time.ticks_diff(now, self.last_input) > _SNAP_MS:
            self.store.checkpoint()  # (if a change came since the last one) the next boot
            # need not play this game's hands again
        return more

    def on_event(self, ev):
        effects = self.ui.handle(ev, self.game(), self.settings)
        for e in effects:
            self.do(e)
        self.dirty = True

    def do(self, e):
        # An effect (knockfw.ui): a change to the games is its event, which the store records;
        # the others are the settings and the answer to the laptop's erase.
        try:
            if type(e) is dict:
                self.store.record(e)
                self.ui.say("new_evening" if e["t"] == "evening" else "saved")
            elif e[0] == "erase":
                self._finish_erase(e[1])
            else:
                self.apply_settings(e[1])
        except GameError as err:  # the rules core refused it: say why, in the language
            self.ui.say(say(err, strings.t))
        except (ValueError, OSError) as err:
            self.ui.say(str(err.args[0] if err.args else err))

    def render(self):
        # Partial refreshes while working through a hand or a menu; a clean full refresh when
        # the scoreboard comes back, since it then stays on the panel for minutes (and with the
        # power off). The drivers add a full refresh every few partial ones against ghosting.
        # Counts being stepped up and down get the panel's quickest waveform (UC8151: Pimoroni's
        # "turbo": a little more ghosting, cleaned by the next full refresh).
        home = self.ui.mode == "score"
        screens.draw(self.display, self.ui, self.game(), self.settings, self.syncing)
        self.display.show(home and not self._home_shown, quick=self.ui.mode == "counts")
        self._home_shown = home
        self.dirty = False
        self.refreshes += 1

    def before_off(self):
        """The auto-off leaves the panel's image for hours: a clean full refresh of it first
        if the last one was partial (partial refreshes ghost); the board's power_off() waits
        for it."""
        d = self.display
        if not d.last_full:
            screens.draw(d, self.ui, self.game(), self.settings, self.syncing)
            d.show(True)

    def battery_low(self):
        """The board read its supply under the flash's safe minimum (board.low, on battery):
        nothing more is written (no save, no checkpoint), "battery low" goes on the panel, and
        the board switches off. Returns if it keeps running (USB came, a button held): the
        next reading decides again."""
        from knockfw import fault

        b = self.board
        fault.low(self.display, b.battery)
        b.power_off()
        b.low = False
        self.dirty = True

    def idle_ms(self, now):
        return time.ticks_diff(now, self.last_input)

    def should_sleep(self, now):
        home = self.ui.mode == "score"
        limit = self.settings["sleep_s"]
        if not home and limit < _AWAY_S:
            limit = _AWAY_S  # (a draft is kept: see _AWAY_S)
        if (
            self._erase_done is not None
            or self.syncing
            or self.dirty
            or self.display.busy()
            or self.idle_ms(now) <= limit * 1000
        ):
            return False
        if not home:
            # The panel must show what the buttons will do after the wake-up, which boots to
            # the scoreboard: go back to it first (an unconfirmed hand was never recorded).
            self.ui.home()
            self.ui.note = None
            self.dirty = True
            return False
        return True

    # ---- what the serial link (knockfw/link.py) may ask of the app, and nothing more:
    # app.store, the store.Store (journal, last_seq, epoch, device_id, gids(), game(gid),
    # current()); app.settings, a dict: lang ("en"/"ru"), rules (a rules spec such as
    # {"preset": "seed"}), roster (the players' names), sleep_s (idle seconds before the
    # switch-off), stake (hundredths of money a point on the Evening screen, 0: off);
    # apply_settings(d), below; request_erase(done): the panel asks "Erase all games?", done(True)
    # after a long press of A (the store already erased), done(False) on C or after a while:
    # nothing is erased without the press; link_active(on): a laptop's session started or
    # ended (the panel's sync mark); app.board.name; knockfw.version.VERSION. The link's tests
    # stand in for the app with the same names (tests/mp_scripts/link_kit.py).

    def apply_settings(self, d):
        check_settings(d)
        new = dict(self.settings)
        new.update(d)
        save_json(SETTINGS_FILE, new)
        self.settings = new
        strings.set_lang(new["lang"])
        self.dirty = True

    def request_erase(self, done):
        if self._erase_done is not None:
            self._erase_done(False)
        self._erase_done = done
        self._erase_at = self.last_input = time.ticks_ms()
        self.ui.ask_erase(len(self.store.gids()))
        self.dirty = True

    def _finish_erase(self, ok):
        done = self._erase_done
        self._erase_done = None
        if self.ui.mode == "erase":
            self.ui.home()
        self.dirty = True
        if done is None:
            return
        try:
            if ok:
                self.store.erase()
        except OSError as err:
            ok = False
            self.ui.say("erase_failed", str(err))
        done(bool(ok))

    def link_active(self, on):
        if on != self.syncing:
            self.syncing = on
            self.dirty = True


def run():
    # main.py runs this inside its guard: an exception out of here is a fault (knockfw.fault)
    from knockfw import board as _board

    board = _board.load()
    fired = board.watchdog_fired()  # (before watch() marks the watchdog armed again)
    board.watch(True)  # a hang anywhere from here on restarts the chip
    if fired:  # the last run hung: a fault, recorded and shown
        raise RuntimeError("watchdog reset")
    from knockfw import feed

    app = App(board)
    while True:
        feed()
        if board.low:  # (idle_sleep() reads the battery): before anything is written
            app.battery_low()
        now = time.ticks_ms()
        more = app.step(now)
        if app.should_sleep(now):
            app.before_off()
            board.power_off()  # on battery the board goes dark here; a press boots it again
            app.last_input = time.ticks_ms()
            woke = board.wake_button()  # the press that ended the Pico build's sleep counts
            if woke:
                app.buttons.inject(woke, board.woke_at)
        elif not more:
            board.idle_sleep(_POLL_MS)
