"""One process at a time: an exclusive lock on a file, held while a command works (one `sync` per
serial port, one `simulate` per folder, one `book` per folder).

The lock is the OS's (flock on Linux and macOS, msvcrt's on Windows): it goes with the process
however that ends, so a lock is never stale. The file says who holds it ({"pid", "command",
"since"} and what the holder adds, e.g. the simulator's serial port), for the line a second
process gets and for holder(). The file itself stays: removing it could let two processes lock
two different files of one name.

Only the user's own files are ever used as locks, so that another user of the machine can
neither make a lock write into a file of the user's, nor hold the user's lock, nor put words
on the user's terminal through it. A lock file is opened without following a link (O_NOFOLLOW),
and must be a plain file of the user's; its "in use by" line says only what fits a holder's
record. The locks that are not in a folder of the user's choosing (a serial port's, a book's:
named(kind, key)) live in private_dir(): the user's runtime folder ($XDG_RUNTIME_DIR) or the
user's cache folder, never a folder others can write, made 0700 and checked (the user's, not a
link, no one else may write it) each time.

    with Lock(path).acquire("serial port COM3", "knockbox sync"):   # Busy if held elsewhere
        ...
    holder(path)        # {"pid", "command", "since", ...} of the process holding it, or None
    named("port", "/dev/ttyACM0")   # the path of that port's lock in private_dir()
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import stat
import sys
import tempfile
import time
from typing import TYPE_CHECKING

from knockbox.usererror import UserError

if TYPE_CHECKING:
    from knockbox.records import Record

_WINDOWS_AT = 1 << 30  # msvcrt locks a byte range: one far beyond what the file says
_READ_MAX = 4096  # a holder's record is far shorter: the rest of a longer file is not read
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0) | _NOFOLLOW
_COMMAND = re.compile(r"knockbox [a-z]+\Z")
_SINCE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\Z")


class Busy(UserError):
    """Another process holds the lock: `knockbox: ... is in use by ...`, exit 1."""


class Lock:
    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._info: dict = {}

    def acquire(self, what: str, command: str, **info: object) -> Lock:
        """Take the lock for this process, or Busy naming `what` and who has it (UserError if
        the lock file cannot be used: made, opened, or it is not a plain file of the user's)."""
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), mode=0o700, exist_ok=True)
            fd = _open(self.path, os.O_RDWR | os.O_CREAT)
        except OSError as e:
            raise UserError(
                "cannot use %s: %s: %s" % (what, self.path, _why(e, self.path))
            ) from None
        if not _try_lock(fd):
            who = _read(fd)
            os.close(fd)
            raise Busy(
                "%s is in use by %s: wait for it to finish, or stop it" % (what, describe(who))
            )
        self._fd = fd
        self._info = {
            "pid": os.getpid(),
            "command": command,
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        self.update(**info)
        return self

    def update(self, **info: object) -> None:
        """Add to what the file says about the holder (the simulator's port, once open)."""
        self._info.update(info)
        if self._fd is None:
            raise ValueError("the lock is not held")
        data = json.dumps(self._info).encode("utf-8")
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.ftruncate(self._fd, 0)
        os.write(self._fd, data)

    def release(self) -> None:
        if self._fd is not None:
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(path: str) -> Record | None:
    """What the lock file at `path` says, if a live process holds it ({} if it has not said yet);
    None when nobody does (or the file is not a plain file of the user's)."""
    try:
        fd = _open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        if _try_lock(fd):
            _unlock(fd)
            return None
        return _read(fd)
    finally:
        os.close(fd)


def describe(who: dict[str, str]) -> str:
    """ "knockbox sync (process 123, since 2026-01-31 20:15:02)" from a holder's record (only
    what has the form knockbox writes is said)."""
    if not who:
        return "another process"
    command, pid, since = who.get("command"), who.get("pid"), who.get("since")
    return "%s (process %s, since %s)" % (
        command if isinstance(command, str) and _COMMAND.match(command) else "another knockbox",
        pid if type(pid) is int and pid > 0 else "?",
        since if isinstance(since, str) and _SINCE.match(since) else "?",
    )


def named(kind: str, key: str) -> str:
    """The path of the lock file for `kind` ("port", "book") of key (a port's name, a folder's
    path) in private_dir(): a readable tail of the key and a hash of it."""
    tail = re.sub(r"[^A-Za-z0-9]+", "_", key).strip("_")[-40:]
    digest = hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:12]
    return os.path.join(private_dir(), "%s-%s-%s.lock" % (kind, tail, digest))


def private_dir() -> str:
    """The folder of the user's lock files, made if missing: only the user may write it. On
    Windows the user's local application data; elsewhere $XDG_RUNTIME_DIR/knockbox when the
    runtime folder is the user's own, else knockbox/locks-HOST in the user's cache folder
    ($XDG_CACHE_HOME or ~/.cache; HOST: a home shared by several machines has a folder for
    each, since a port's name is a machine's). UserError if it is not the user's own (a link,
    another user's folder)."""
    path = _private_path()
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        if sys.platform != "win32":
            check_private(path)
    except OSError as e:
        raise UserError("cannot make %s for knockbox's locks: %s" % (path, _why(e, path))) from None
    return path


def _private_path() -> str:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or tempfile.gettempdir()
        return os.path.join(base, "knockbox", "locks")
    run = os.environ.get("XDG_RUNTIME_DIR")
    if run and os.path.isabs(run) and _mine(run, 0o077):
        return os.path.join(run, "knockbox")
    cache = os.environ.get("XDG_CACHE_HOME")
    if not (cache and os.path.isabs(cache)):
        cache = os.path.join(os.path.expanduser("~"), ".cache")
    host = re.sub(r"[^A-Za-z0-9.-]+", "_", socket.gethostname())[:64] or "host"
    return os.path.join(cache, "knockbox", "locks-" + host)


def check_private(path: str) -> None:
    """UserError unless the folder at path is a folder of the user's that only the user may
    write (not a link); a folder of the user's that others may write is made 0700 first."""
    try:
        st = os.lstat(path)
    except OSError as e:
        raise UserError("%s: %s" % (path, _why(e, path))) from None
    if stat.S_ISLNK(st.st_mode):
        raise UserError(
            "%s is a link, not a folder of yours: knockbox keeps its locks only in a folder "
            "of yours; remove the link" % path
        )
    if not stat.S_ISDIR(st.st_mode):
        raise UserError("%s is not a folder: remove it (knockbox keeps its locks there)" % path)
    if st.st_uid != os.geteuid():
        raise UserError(
            "%s belongs to another user (uid %d): knockbox keeps its locks only in a folder "
            "of yours; remove it, or set XDG_RUNTIME_DIR to a folder of yours" % (path, st.st_uid)
        )
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)


def _mine(path: str, forbidden: int) -> bool:
    """Whether path is a folder (not a link) of the user's that no one else may write."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & forbidden


def _open(path: str, flags: int) -> int:
    """An fd of the lock file at path, never through a link: OSError unless it is a plain file
    of the user's with no other name (a hard link would let the lock write into another
    file); a file of the user's that others could read or write is made 0600."""
    fd = os.open(path, flags | _FLAGS, 0o600)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("not a plain file")
        if sys.platform != "win32":
            if st.st_uid != os.geteuid():
                raise OSError("the file belongs to another user (uid %d)" % st.st_uid)
            if st.st_nlink != 1:
                raise OSError("the file has other names (hard links)")
            if st.st_mode & 0o077:
                os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _why(e: OSError | NotADirectoryError, path: str) -> str:
    """What an OSError says, in words: a link met where O_NOFOLLOW refuses one is a link."""
    if os.path.islink(path):
        return "it is a link, not a file of yours (remove it)"
    return e.strerror or str(e)


def _read(fd: int) -> dict[str, str]:
    os.lseek(fd, 0, os.SEEK_SET)
    data = os.read(fd, _READ_MAX)
    try:
        info = json.loads(data.decode("utf-8") or "{}")
    except ValueError:  # caught half written, or not a holder's record
        return {}
    return info if isinstance(info, dict) else {}


def _try_lock(fd: int) -> bool:
    """Lock fd for this process alone if no other has it (True), else False: msvcrt's byte-range
    lock on Windows, flock elsewhere (none to be had: True, nothing to lock with)."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_AT, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_AT, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    try:
        import fcntl
    except ImportError:
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
