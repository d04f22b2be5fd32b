"""Which serial port a command talks to, and one command per port at a time.

find(): the port named with --port; else the MicroPython board on USB (pyserial's list of ports,
by USB id, named as the OS names it: /dev/ttyACM0, /dev/cu.usbmodem1101, COM3); several: the list
to choose from; none: the running simulator, in whatever folder (`knockbox simulate` holds a lock
file in its folder and one in running_dir(), beside the default folder, both saying its port);
several: the list. lock(): the port for this process alone (knockbox.locks, a file in the user's
private folder of locks); a second `sync` on it is told who has it. refused(): why a port cannot be
opened, with what to do (on Linux, the `dialout` group).
"""

from __future__ import annotations

import errno
import hashlib
import os
import sys
from collections import namedtuple
from typing import Any, TYPE_CHECKING

from knockbox import locks
from knockbox.usererror import UserError

if TYPE_CHECKING:
    from knockbox.locks import Lock
    from knockbox.records import Record

# USB ids of MicroPython's own USB serial: Raspberry Pi's id for MicroPython on RP2040/RP2350
# (the stock RPI_PICO build, Badger 2040 included), and MicroPython's own ids (pyboard and other
# ports). A port whose USB manufacturer says MicroPython counts as well.
USB_IDS = {
    (0x2E8A, 0x0005): "MicroPython (Raspberry Pi RP2)",
    (0xF055, 0x9800): "MicroPython",
    (0xF055, 0x9802): "MicroPython",
}
SIM_LOCK = "simulator.lock"  # in the simulator's folder: held while it runs, says its port

Port = namedtuple("Port", "device description")


def default_sim_dir() -> str:
    """The simulator's folder (its flash image persists there between runs)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(base, "knockbox", "sim")


def boards(ports: list[Any] | None = None) -> list[Port]:
    """The MicroPython boards among pyserial's ports (default: comports()): [Port]."""
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    found = []
    for p in ports:
        name = USB_IDS.get((p.vid, p.pid))
        if name is None and "micropython" in (getattr(p, "manufacturer", None) or "").lower():
            name = p.manufacturer
        if name:
            found.append(Port(p.device, "%s, USB %04x:%04x" % (name, p.vid or 0, p.pid or 0)))
    return sorted(found)


def running_dir() -> str:
    """Where every running simulator holds a lock file (running_lock()) saying its folder and
    port, whatever its folder: beside the default folder."""
    return os.path.join(os.path.dirname(default_sim_dir()), "running")


def running_lock(sim_dir: str) -> str:
    """The lock file in running_dir() of the simulator of folder sim_dir."""
    key = os.path.abspath(sim_dir)
    return os.path.join(
        running_dir(),
        "sim-%s.lock" % hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16],
    )


def simulator(sim_dir: str | None = None) -> Port | None:
    """The Port of the simulator running in folder sim_dir (default: default_sim_dir()), or
    None."""
    sim_dir = sim_dir or default_sim_dir()
    return _sim_port(locks.holder(os.path.join(sim_dir, SIM_LOCK)), sim_dir)


def simulators() -> list[Port]:
    """The Ports of the simulators running now, in any folder (sorted by folder)."""
    found: dict[str, Port] = {}
    try:
        names = sorted(os.listdir(running_dir()))
    except OSError:
        names = []
    for name in names:
        if name.startswith("sim-") and name.endswith(".lock"):
            who = locks.holder(os.path.join(running_dir(), name))
            port = _sim_port(who, (who or {}).get("dir"))
            if port and who:
                found[who["dir"]] = port
    default = os.path.abspath(default_sim_dir())
    if default not in found:  # (one started before running_dir() was)
        port = simulator(default)
        if port:
            found[default] = port
    return [found[d] for d in sorted(found)]


def _sim_port(who: Record | None, sim_dir: str | None) -> Port | None:
    if not who or not who.get("port") or not sim_dir:
        return None
    return Port(who["port"], "the simulator in %s (process %s)" % (sim_dir, who.get("pid")))


def find(port: str | None = None, sim: bool = True, none_hint: str = "") -> Port:
    """The Port to use: `port` (--port) as given; else the one MicroPython board on USB; else
    (sim) the running simulator. UserError listing the boards when there are several, or saying
    what was looked for (and none_hint) when there is none."""
    if port:
        return Port(port, None)
    for look, several in (
        (boards, "several MicroPython boards are plugged in"),
        (simulators if sim else list, "several simulators are running"),
    ):
        found = look()  # (the simulators only looked for when no board is plugged in)
        if len(found) == 1:
            return found[0]
        if found:
            raise UserError(
                several + "; pick one with --port:\n" + "\n".join("  %s  (%s)" % p for p in found)
            )
    ids = ", ".join("%04x:%04x" % k for k in sorted(USB_IDS))
    raise UserError(
        "no MicroPython board found on USB (looked for USB ids %s)%s: plug it in "
        "with a data cable, or name its port with --port%s"
        % (ids, ", and no simulator running" if sim else "", none_hint)
    )


def lock(device: str, command: str) -> Lock:
    """The port `device` for this process alone until released (a locks.Lock); Busy naming
    who has it."""
    return locks.Lock(_lock_path(device)).acquire("serial port %s" % device, command, port=device)


def _lock_path(device: str) -> str:
    key = device
    if os.name == "nt":
        key = device.upper()  # com3 is COM3
    elif os.path.exists(device):
        key = os.path.realpath(device)  # /dev/serial/by-id/... is /dev/ttyACM0
    return locks.named("port", key)


def refused(device: str, e: Exception) -> str:
    """The one line for a port that cannot be opened (e: the OSError or pyserial's
    SerialException), with what to do when it is a permission refused."""
    code = getattr(e, "errno", None)
    text = getattr(e, "strerror", None) or str(e) or e.__class__.__name__
    denied = code in (errno.EACCES, errno.EPERM) or "denied" in text.lower()
    if not denied:
        return "cannot open %s: %s" % (device, text)
    if sys.platform.startswith("linux"):
        return (
            "cannot open %s: permission denied. Your user may not use serial ports yet: "
            "sudo usermod -aG dialout $USER, then log out and in again" % device
        )
    return (
        "cannot open %s: %s (another program may have it open, a serial monitor or an "
        "editor: close it and try again)" % (device, text)
    )


def why_not(device: str) -> str | None:
    """refused()'s line for `device`, found by opening it with pyserial (for a library that
    does not say why it could not); None if it opens."""
    import serial

    try:
        s = serial.serial_for_url(device, do_not_open=True)
        s.open()
    except (serial.SerialException, OSError, ValueError) as e:
        return refused(device, e)
    s.close()
    return None
