"""One process at a time: an exclusive lock on a file, held while a command works (one `sync` per
serial port, one `simulate` per folder).

The lock is the OS's (flock on Linux and macOS, msvcrt's on Windows): it goes with the process
however that ends, so a lock is never stale. The file says who holds it ({"pid", "command",
"since"} and what the holder adds, e.g. the simulator's serial port), for the line a second
process gets and for holder(). The file itself stays: removing it could let two processes lock
two different files of one name.

    with Lock(path).acquire("serial port COM3", "knockbox sync"):   # Busy if held elsewhere
        ...
    holder(path)        # {"pid", "command", "since", ...} of the process holding it, or None
"""

import json
import os
import sys
import time
import typing

from knockbox.errors import UserError

_WINDOWS_AT = 1 << 30  # msvcrt locks a byte range: one far beyond what the file says


class Busy(UserError):
    """Another process holds the lock: `knockbox: ... is in use by ...`, exit 1."""


class Lock:
    def __init__(self, path):
        self.path = path
        self._f: typing.TextIO | None = None
        self._info: dict = {}

    def acquire(self, what, command, **info):
        """Take the lock for this process, or Busy naming `what` and who has it."""
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            f = open(self.path, "a+", encoding="utf-8")
        except OSError as e:
            raise UserError("cannot use %s: %s: %s" % (what, self.path, e.strerror or e)) from None
        if not _try_lock(f):
            who = _read(f)
            f.close()
            raise Busy(
                "%s is in use by %s: wait for it to finish, or stop it" % (what, describe(who))
            )
        self._f = f
        self._info = {
            "pid": os.getpid(),
            "command": command,
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        self.update(**info)
        return self

    def update(self, **info):
        """Add to what the file says about the holder (the simulator's port, once open)."""
        self._info.update(info)
        if self._f is None:
            raise ValueError("the lock is not held")
        self._f.seek(0)
        self._f.truncate()
        self._f.write(json.dumps(self._info))
        self._f.flush()

    def release(self):
        if self._f is not None:
            _unlock(self._f)
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


def holder(path):
    """What the lock file at `path` says, if a live process holds it ({} if it has not said yet);
    None when nobody does."""
    if not os.path.exists(path):
        return None
    try:
        f = open(path, "a+", encoding="utf-8")
    except OSError:
        return None
    with f:
        if _try_lock(f):
            _unlock(f)
            return None
        return _read(f)


def describe(who):
    """ "knockbox sync (process 123, since 2026-01-31 20:15:02)" from a holder's record."""
    if not who:
        return "another process"
    return "%s (process %s, since %s)" % (
        who.get("command", "another knockbox"),
        who.get("pid", "?"),
        who.get("since", "?"),
    )


def _read(f):
    f.seek(0)
    try:
        info = json.loads(f.read() or "{}")
    except ValueError:  # caught half written
        return {}
    return info if isinstance(info, dict) else {}


def _try_lock(f):
    if sys.platform == "win32":
        import msvcrt

        os.lseek(f.fileno(), _WINDOWS_AT, os.SEEK_SET)
        try:
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(f):
    if sys.platform == "win32":
        import msvcrt

        os.lseek(f.fileno(), _WINDOWS_AT, os.SEEK_SET)
        msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
