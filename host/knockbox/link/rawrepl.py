"""One raw-REPL session with a MicroPython board over its serial port (mpremote's
SerialTransport, entered without a soft reset, like `mpremote resume`): what `knockbox deploy`
uses to read the board's version, hash its files, write, remove and restart.

    b = RawRepl(port)        # BoardError (a UserError) if it cannot be opened or does not answer
    b.info()               # {"version", "mpy", "platform", "machine"}; sets the path root
    b.hashes(dirs, files)  # ({relative path: sha256 hex or ''; 'dir/' for folders}, nohash)
    b.read(rel) / b.write(rel, data) / b.mkdirs(rels) / b.remove(rels) / b.restart() / b.close()

The unix port works as a board too: its files are relative to its working directory, and it has
no soft reset.

Whatever the board answers, each operation ends, within its time (Bounded: the port read with a
deadline and a most of bytes, so that a board that streams garbage or never ends its reply is
given up on), with its result or one BoardError line: an answer that is not what MicroPython
says (not the raw REPL's protocol, not the values the code printed) says so, never a traceback.
"""

from __future__ import annotations

import ast
import contextlib
import io
import time
from typing import Any, TYPE_CHECKING

from knockbox.usererror import UserError
from knockbox.link.ports import refused, why_not

if TYPE_CHECKING:
    from serial import Serial
    from collections.abc import Callable, Iterator

RAW_REPL_TIMEOUT = 5  # seconds for the board to show the raw REPL prompt after Ctrl-C, Ctrl-A
COMMAND_TIMEOUT = 30  # seconds a command may take (the hashes of every file: twice that)
REPLY_MAX = 1 << 20  # bytes one operation reads at most (far above the hashes of every file)
READ_MAX = 64 << 10  # bytes of a file read (board.json, the last deploy's record)
SAID_MAX = 300  # characters of the board's error output quoted in a message
_CHUNK = 1024


class BoardError(UserError):
    pass


_INFO = (
    "import sys\n"
    "i=sys.implementation\n"
    "print(repr((tuple(i.version[:3]),getattr(i,'_mpy',None),sys.platform,"
    "getattr(i,'_machine',''))))\n"
)

# Prints (path, sha256 hex) for each file under the given folders, (folder + '/', '') for each
# folder there (the given ones too, if they exist), ('!nohash', '') without sha256.
_HASHES = """\
import os
try:
    import hashlib, binascii
    hashlib.sha256
except (ImportError, AttributeError):
    hashlib = None
    print(repr(('!nohash', '')))
_b = bytearray(512)
_m = memoryview(_b)
def _h(p):
    s = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(_b)
            if not n:
                break
            s.update(_m[:n])
    return binascii.hexlify(s.digest()).decode()
def _walk(d):
    try:
        it = list(os.ilistdir(d))
    except OSError:
        return
    for e in it:
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            print(repr((p + '/', '')))
            _walk(p)
        elif hashlib:
            print(repr((p, _h(p))))
        else:
            print(repr((p, '')))
for _d in %(dirs)r:
    try:
        os.stat(_d)
    except OSError:
        continue
    print(repr((_d + '/', '')))
    _walk(_d)
for _f in %(files)r:
    try:
        os.stat(_f)
        print(repr((_f, _h(_f) if hashlib else '')))
    except OSError:
        pass
"""


# Prints the file's bytes in hex, 512 a line (little memory on the board), at most the first
# READ_MAX + 1 of them; "-" if it cannot be opened.
_READ = """\
import binascii
try:
    f = open(%r, 'rb')
except OSError:
    print('-')
else:
    n = 0
    while n <= %d:
        b = f.read(512)
        if not b:
            break
        n += len(b)
        print(binascii.hexlify(b).decode())
    f.close()
"""


class RawRepl:
    """One raw-REPL session with a board (mpremote's SerialTransport, resumed: no soft reset)."""

    def __init__(self, port: str) -> None:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self.TransportError = TransportError
        try:
            # a read timeout: mpremote reads ptys byte by byte, blocking without one
            self.t = SerialTransport(port, baudrate=115200, timeout=2)
        except TransportError as e:  # mpremote does not say why: ask pyserial
            raise BoardError(why_not(port) or "cannot open %s: %s" % (port, e)) from None
        except Exception as e:  # serial.SerialException: busy, missing, no permission
            raise BoardError(refused(port, e)) from None
        self.wire = self.t.serial = Bounded(self.t.serial, TransportError)
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got
                self.wire.arm(RAW_REPL_TIMEOUT + 1, REPLY_MAX)
                self.t.enter_raw_repl(soft_reset=False, timeout_overall=RAW_REPL_TIMEOUT)
        except Exception:  # noqa: BLE001 - whatever came instead of the prompt
            self.close()
            raise BoardError(
                "the board at %s does not answer with a MicroPython prompt (Ctrl-C did not stop "
                "what runs there). Is a sync running, or another program using the port? Wait "
                "for it, or unplug and replug the board, and try again." % port
            ) from None
        self.root = "/"

    @contextlib.contextmanager
    def talk(self, what: str, seconds: int | None = None, most: int = REPLY_MAX) -> Iterator[None]:
        """An exchange with the board, within `seconds` and `most` bytes read: anything that
        goes wrong in it (the link, an answer the code cannot have printed) is one BoardError
        saying what the board was asked."""
        self.wire.arm(COMMAND_TIMEOUT if seconds is None else seconds, most)
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # (mpremote prints what it got)
                yield
        except UserError:
            raise
        except self.TransportError as e:
            raise BoardError("lost the board at %s (%s): %s" % (self.port, what, e)) from None
        except Exception as e:  # noqa: BLE001 - an answer that is not MicroPython's
            raise BoardError(
                "the board at %s answered %s with what MicroPython does not say (%s): is it a "
                "MicroPython board? Unplug it, plug it in again and try again"
                % (self.port, what, e.__class__.__name__)
            ) from None

    def run(self, code: str, timeout: int | None = None) -> str:
        timeout = timeout or COMMAND_TIMEOUT
        with self.talk("a command", timeout):
            out, err = self.t.exec_raw(code, timeout=timeout)
        if err:
            said = err.decode("utf-8", "replace").strip()
            if len(said) > SAID_MAX:
                said = "..." + said[-SAID_MAX:]  # (the end of a traceback says what failed)
            raise BoardError("the board said: %s" % said)
        return out.decode("utf-8", "replace")

    def info(self) -> dict[str, Any]:
        said = self.run(_INFO).strip()
        with self.talk("what MicroPython it runs"):
            version, mpy, platform, machine = ast.literal_eval(said)
            if not (
                isinstance(version, tuple)
                and len(version) == 3
                and all(type(v) is int and 0 <= v < 1000 for v in version)
                and (mpy is None or type(mpy) is int and 0 <= mpy < 1 << 16)
                and isinstance(platform, str)
                and isinstance(machine, str)
            ):
                raise ValueError("not the version, .mpy, platform and machine")
        # The unix port has no fixed root: its files are relative to where it was started.
        self.root = "" if platform in ("linux", "darwin") else "/"
        return {"version": version, "mpy": mpy, "platform": platform, "machine": machine}

    def path(self, rel: str) -> str:
        return self.root + rel

    def rel(self, path: str) -> str:
        return path[len(self.root) :] if self.root and path.startswith(self.root) else path

    def hashes(self, dirs: list[str], files: list[str]) -> tuple[dict[str, str], bool]:
        """({relative path: sha256 hex or ''}, nohash) of the files under dirs and of files
        ('x/' entries are folders: dirs themselves when they exist, and the folders in them);
        nohash: the board has no sha256 (every hash is '')."""
        code = _HASHES % {
            "dirs": [self.path(d) for d in dirs],
            "files": [self.path(f) for f in files],
        }
        found = {}
        nohash = False
        said = self.run(code, timeout=2 * COMMAND_TIMEOUT)
        with self.talk("the hashes of its files"):
            for line in said.splitlines():
                if not line.strip():
                    continue
                p, h = ast.literal_eval(line.strip())
                if not (isinstance(p, str) and isinstance(h, str)):
                    raise TypeError("not a path and a hash")
                if p == "!nohash":
                    nohash = True
                else:
                    found[self.rel(p)] = h
        return found, nohash

    def read(self, rel: str) -> bytes | None:
        """The bytes of the file rel, None if it cannot be read or is longer than READ_MAX
        (not a file deploy wrote)."""
        said = self.run(_READ % (self.path(rel), READ_MAX))
        with self.talk("the content of %s" % rel):
            lines = said.split()
            if lines == ["-"]:
                return None
            data = bytes.fromhex("".join(lines))
        return data if len(data) <= READ_MAX else None

    def mkdirs(self, rels: list[str]) -> None:
        code = "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % (
            [self.path(r) for r in rels],
        )
        self.run(code)

    def write(
        self, rel: str, data: bytes, progress: Callable[[int, int], None] | None = None
    ) -> None:
        """Write a file temp-then-rename, so an interrupted copy leaves the old file whole."""
        tmp = self.path(rel) + ".tmp"
        try:
            with self.talk("the copy of %s" % rel, COMMAND_TIMEOUT + len(data) // 1000):
                self.t.fs_writefile(tmp, data, chunk_size=_CHUNK, progress_callback=progress)
        except OSError as e:
            raise BoardError("copying %s failed: %s" % (rel, e)) from None
        self.run(
            "import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r,%r)\n"
            % (self.path(rel), tmp, self.path(rel))
        )

    def remove(self, rels: list[str]) -> None:
        code = (
            "import os\nfor p in %r:\n try:\n  os.rmdir(p) if p.endswith('/') else "
            "os.remove(p)\n except OSError:\n  pass\n" % ([self.path(r) for r in rels],)
        )
        self.run(code)

    def restart(self) -> bool:
        """Leave the raw REPL and soft-reset, which runs /main.py (the app). True if done."""
        with self.talk("a restart", 10):
            self.t.exit_raw_repl()
            if self.root == "":
                return False  # unix port: Ctrl-D at its REPL would end the process
            time.sleep(0.1)
            self.t.serial.write(b"\x04")
            self.t.read_until(1, b"soft reboot", timeout=3)
        return True

    def close(self) -> None:
        try:
            if self.t.in_raw_repl:
                self.t.exit_raw_repl()
        except Exception:
            pass
        self.t.serial = self.wire.serial  # (mpremote sets the port's lines as it closes it)
        try:
            self.t.close()
        except Exception:
            pass


class Bounded:
    """The board's serial port as mpremote reads it, within a budget set by arm(seconds, most)
    before each operation: reading past the time or past `most` bytes raises error (mpremote
    reads until it sees what it waits for, without an end of its own)."""

    def __init__(self, serial: Serial, error: type[Exception]) -> None:
        self.serial, self.error = serial, error
        self.deadline, self.left = time.monotonic(), 0

    def arm(self, seconds: int, most: int) -> None:
        self.deadline, self.left = time.monotonic() + seconds, most

    def _check(self) -> None:
        if time.monotonic() > self.deadline:
            raise self.error("no end to the board's answer in time")

    def read(self, n: int = 1) -> bytes:
        self._check()
        data = self.serial.read(n)
        self.left -= len(data)
        if self.left < 0:
            raise self.error("the board's answer is longer than any MicroPython says")
        return data

    def inWaiting(self) -> int:  # noqa: N802 - pyserial's name, as mpremote calls it
        self._check()
        return self.serial.inWaiting()

    def __getattr__(self, name: str) -> Callable:
        return getattr(self.serial, name)
