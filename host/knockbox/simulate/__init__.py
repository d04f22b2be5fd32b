"""`knockbox simulate`: the real firmware under the MicroPython unix port, with the e-ink screen
drawn in the terminal, keys as the five buttons, and a pseudo-terminal serial port.

The channel to the firmware (all the firmware and this package share; firmware.py, keys.py and
the board, simulate/device/simboard.py, say the rest):
  KNOCKBOX_SIM_DIR=DIR   flash.img (littlefs image, persists), keys (the key protocol: "press a
                         120", "down up", "up up", "wait 500" lines, played by the board in its
                         own time), frame.pbm (P4 296x128, written tmp-then-rename each refresh)
  stderr                 "@frame N full|partial" after each refresh; other lines are logs
  stdin/stdout           the USB serial port: on a pty, relayed to a second pty for clients

The package, along its seams:
  firmware.py   the device folder, its build, the firmware process (start, stderr, stop, crash)
  keys.py       key plans: the key file, script lines, terminal keys (taps, holds, repeats)
  view.py       the terminal view (screen, help, status; cbreak mode that keeps typed-ahead keys)
  session.py    one event loop for the terminal and the headless (--no-tty) front ends
"""

from __future__ import annotations

import os
import signal
import sys
from typing import TYPE_CHECKING, TextIO

from knockbox import locks
from knockbox.link import ports
from knockbox.usererror import UserError
from knockbox.simulate.firmware import Firmware, forget_frames, reset_dir
from knockbox.simulate.keys import KeyFile
from knockbox.simulate.session import ScriptFront, Session, TerminalFront
from knockbox.simulate.view import TerminalView

if TYPE_CHECKING:
    from argparse import Namespace
    from knockbox.locks import Lock
    from knockbox.simulate.firmware import Firmware


def run(
    args: Namespace,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """The `simulate` command: args.dir, reset, screenshot, scale, no_tty, battery, script."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    sim_dir = os.path.abspath(args.dir or ports.default_sim_dir())
    # one simulator per folder; the lock files say its serial port to `sync` and `push`
    # (knockbox.link.ports): the folder's, and one in ports.running_dir() for any folder
    with locks.Lock(os.path.join(sim_dir, ports.SIM_LOCK)).acquire(
        "the simulator's folder %s" % sim_dir, "knockbox simulate"
    ) as held:
        listed = locks.Lock(ports.running_lock(sim_dir))
        with listed.acquire("the list of running simulators", "knockbox simulate", dir=sim_dir):
            try:
                return _run(args, sim_dir, (held, listed), stdin, stdout, stderr)
            finally:
                # (only the holder of the folder's lock ever takes this file: safe to remove)
                try:
                    os.remove(listed.path)
                except OSError:
                    pass


def _run(
    args: Namespace,
    sim_dir: str,
    held: tuple[Lock, Lock],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    if args.reset:
        reset_dir(sim_dir)
    forget_frames(sim_dir)
    shots = None
    if args.screenshot:
        shots = os.path.abspath(args.screenshot)
        os.makedirs(shots, exist_ok=True)
    tty_mode = not args.no_tty and stdin.isatty() and stdout.isatty()
    keyfile = KeyFile(os.path.join(sim_dir, "keys"))  # emptied before the firmware starts

    def stop_signal(
        signum: int, _frame: object
    ) -> None:  # kill / closed terminal: quit as cleanly as with q
        raise KeyboardInterrupt

    old_handlers = [
        (sig, signal.signal(sig, stop_signal)) for sig in (signal.SIGTERM, signal.SIGHUP)
    ]
    fw = None
    log = open(os.path.join(sim_dir, "firmware.log"), "a")
    try:
        fw = Firmware(sim_dir, script=args.script, battery=args.battery).start()
        for lock in held:
            lock.update(port=fw.port)
        rc = _loop(fw, keyfile, tty_mode, sim_dir, shots, args.scale, log, stdin, stdout, stderr)
    finally:
        if fw is not None:
            fw.stop()
        log.close()
        for sig, handler in old_handlers:
            signal.signal(sig, handler)
    if rc == "crashed":
        tail = fw.crash_report()
        assert fw.proc is not None  # it ran
        raise UserError(
            "the firmware stopped (exit code %s)%s"
            % (fw.proc.returncode, ":\n" + tail if tail else "")
        )
    return 0


def _loop(
    fw: Firmware,
    keyfile: KeyFile,
    tty_mode: bool,
    sim_dir: str,
    shots: str | None,
    scale: int,
    log: TextIO | None,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
) -> str:
    front: TerminalFront | ScriptFront
    try:
        if tty_mode:
            with TerminalView(stdout, stdin.fileno()) as view:
                front = TerminalFront(keyfile, view, stdin.fileno(), sim_dir)
                return Session(fw, keyfile, front, shots, scale, log).run()
        front = ScriptFront(keyfile, stdin, stdout, stderr, sim_dir)
        return Session(fw, keyfile, front, shots, scale, log).run()
    except KeyboardInterrupt:  # Ctrl-C is a way to quit, not an error
        return "done"
