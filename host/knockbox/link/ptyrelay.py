"""A serial port made of pseudo-terminals, for a process that talks on its stdin/stdout.

The simulator (and the deploy tests) run the MicroPython unix port with its stdin/stdout on a
pseudo-terminal, like USB CDC is sys.stdin/stdout on the Pico. A second pseudo-terminal is relayed
to the first, and its path is what a client opens (`knockbox sync --port /dev/pts/N`, mpremote).
Two are needed because a client opening the first pty's slave would compete with the process for
its input bytes.

    bridge = SerialBridge()
    proc = subprocess.Popen(argv, stdin=bridge.device_fd, stdout=bridge.device_fd, ...)
    bridge.start()                  # relay thread; bridge.path is the port to print
    ...
    bridge.close()

POSIX only (pty, termios).
"""

from __future__ import annotations

import errno
import os
import pty
import select
import threading
import tty
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

_CHUNK = 4096
_TAIL = 2048
_MAX_PENDING = 256 * 1024  # bytes held for a side that does not read; oldest dropped beyond


class Pty:
    """One pseudo-terminal in raw mode (no echo, no line editing, no CR/LF translation)."""

    def __init__(self) -> None:
        self.master: int | None
        self.slave: int | None
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        os.set_blocking(self.master, False)

    def close_slave(self) -> None:
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None

    def close(self) -> None:
        self.close_slave()
        if self.master is not None:
            os.close(self.master)
            self.master = None


class Relay:
    """Copy bytes both ways between two file descriptors (pty masters), in a thread.

    A side that cannot take bytes (nobody reading the client pty) gets them queued, up to
    _MAX_PENDING, then the oldest are dropped: the process is never blocked by a missing client.
    `on_closed` is called (from the relay thread) when side a hangs up, i.e. the process exited.
    """

    def __init__(self, fd_a: int, fd_b: int, on_closed: Callable | None = None) -> None:
        self.fds = (fd_a, fd_b)
        self.pending = {fd_a: bytearray(), fd_b: bytearray()}
        self.on_closed = on_closed
        self.bytes = {fd_a: 0, fd_b: 0}  # bytes read from each side, for tests and logs
        self.tail = bytearray()  # the last bytes side a sent (a crashed program's traceback)
        self._wake_r: int | None
        self._wake_w: int | None
        self._wake_r, self._wake_w = os.pipe()
        self._stop = False
        self._thread: threading.Thread | None = None

    def start(self) -> Relay:
        self._thread = threading.Thread(target=self._run, name="knockbox-ptyrelay", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop = True
        if self._wake_w is not None:
            try:
                os.write(self._wake_w, b"x")
            except OSError:
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2)
        for fd in (self._wake_r, self._wake_w):
            if fd is not None:
                os.close(fd)
        self._wake_r = self._wake_w = None

    def _other(self, fd: int) -> int:
        return self.fds[1] if fd == self.fds[0] else self.fds[0]

    def _run(self) -> None:
        a, b = self.fds
        while not self._stop:
            writers = [fd for fd in self.fds if self.pending[fd]]
            try:
                readers = [fd for fd in (a, b, self._wake_r) if fd is not None]  # (None: stopped)
                readable, writable, _ = select.select(readers, writers, [], 1.0)
            except (OSError, ValueError):
                break
            if self._stop:
                break
            for fd in writable:
                self._flush(fd)
            for fd in readable:
                if fd == self._wake_r:
                    continue
                if not self._pump(fd):
                    if fd == a:
                        self._stop = True
                        if self.on_closed:
                            self.on_closed()
                        return
        return

    def _pump(self, fd: int) -> bool:
        """Read what fd has and queue it for the other side; False when fd hung up."""
        try:
            data = os.read(fd, _CHUNK)
        except BlockingIOError:
            return True
        except OSError as e:
            # EIO on a pty master: no slave open any more (the process is gone, or for the
            # client side, the client closed it and we do not hold a slave ourselves).
            if e.errno == errno.EIO:
                return False
            raise
        if not data:
            return False
        self.bytes[fd] += len(data)
        if fd == self.fds[0]:
            self.tail += data
            del self.tail[:-_TAIL]
        out = self._other(fd)
        buf = self.pending[out]
        buf += data
        if len(buf) > _MAX_PENDING:
            del buf[: len(buf) - _MAX_PENDING]
        self._flush(out)
        return True

    def _flush(self, fd: int) -> None:
        buf = self.pending[fd]
        while buf:
            try:
                n = os.write(fd, bytes(buf[:_CHUNK]))
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno in (errno.EIO, errno.EAGAIN):
                    return
                raise
            del buf[:n]


class SerialBridge:
    """A process-side pty (hand `device_fd` to the process as stdin and stdout) relayed to a
    client-side pty whose `path` clients open as a serial port.

    We keep the client pty's slave open ourselves so that the port exists, stays raw, and
    survives clients coming and going (a pty master with no slave open reads EIO).
    """

    def __init__(self) -> None:
        self.device = Pty()
        self.client = Pty()
        self.path = self.client.path
        self.device_fd = self.device.slave
        self.relay: Relay | None = None
        self.closed = threading.Event()

    def start(self) -> SerialBridge:
        """Start relaying; call after the process was started (its copy of the slave is open)."""
        self.device.close_slave()  # only the process holds it now: its exit gives us EIO
        assert (
            self.device.master is not None and self.client.master is not None
        )  # open till close()
        self.relay = Relay(
            self.device.master, self.client.master, on_closed=self.closed.set
        ).start()
        return self

    def close(self) -> None:
        if self.relay is not None:
            self.relay.stop()
            self.relay = None
        self.device.close()
        self.client.close()

    def __enter__(self) -> SerialBridge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
