"""One raw-REPL session with a MicroPython board over its serial port (mpremote's
SerialTransport, entered without a soft reset, like `mpremote resume`): what `knockbox deploy`
uses to read the board's version, hash its files, write, remove and restart.

    b = Board(port)        # BoardError (a UserError) if it cannot be opened or does not answer
    b.info()               # {"version", "mpy", "platform", "machine"}; sets the path root
    b.hashes(dirs, files)  # ({relative path: sha256 hex or ''; 'dir/' for folders}, nohash)
    b.read(rel) / b.write(rel, data) / b.mkdirs(rels) / b.remove(rels) / b.restart() / b.close()

The unix port works as a board too: its files are relative to its working directory, and it has
no soft reset.
"""

import ast
import contextlib
import io
import time

from knockbox.errors import UserError
from knockbox.ports import refused, why_not

RAW_REPL_TIMEOUT = 5  # seconds for the board to show the raw REPL prompt after Ctrl-C, Ctrl-A
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


class Board:
    """One raw-REPL session with a board (mpremote's SerialTransport, resumed: no soft reset)."""

    def __init__(self, port):
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
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got
                self.t.enter_raw_repl(soft_reset=False, timeout_overall=RAW_REPL_TIMEOUT)
        except TransportError:
            self.t.close()
            raise BoardError(
                "the board at %s does not answer with a MicroPython prompt (Ctrl-C did not stop "
                "what runs there). Is a sync running, or another program using the port? Wait "
                "for it, or unplug and replug the board, and try again." % port
            ) from None
        self.root = "/"

    def run(self, code, timeout=30):

        try:
            out, err = self.t.exec_raw(code, timeout=timeout)
        except self.TransportError as e:
            raise BoardError("lost the board at %s: %s" % (self.port, e)) from None
        if err:
            raise BoardError("the board said: %s" % err.decode("utf-8", "replace").strip())
        return out.decode("utf-8", "replace")

    def info(self):
        version, mpy, platform, machine = ast.literal_eval(self.run(_INFO).strip())
        # The unix port has no fixed root: its files are relative to where it was started.
        self.root = "" if platform in ("linux", "darwin") else "/"
        return {"version": version, "mpy": mpy, "platform": platform, "machine": machine}

    def path(self, rel):
        return self.root + rel

    def rel(self, path):
        return path[len(self.root) :] if self.root and path.startswith(self.root) else path

    def hashes(self, dirs, files):
        """({relative path: sha256 hex or ''}, nohash) of the files under dirs and of files
        ('x/' entries are folders: dirs themselves when they exist, and the folders in them);
        nohash: the board has no sha256 (every hash is '')."""
        code = _HASHES % {
            "dirs": [self.path(d) for d in dirs],
            "files": [self.path(f) for f in files],
        }
        found = {}
        nohash = False
        for line in self.run(code, timeout=60).splitlines():
            if not line.strip():
                continue
            p, h = ast.literal_eval(line.strip())
            if p == "!nohash":
                nohash = True
            else:
                found[self.rel(p)] = h
        return found, nohash

    def read(self, rel):
        try:
            return bytes(self.t.fs_readfile(self.path(rel), chunk_size=_CHUNK))
        except (OSError, self.TransportError):
            return None

    def mkdirs(self, rels):
        code = "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % (
            [self.path(r) for r in rels],
        )
        self.run(code)

    def write(self, rel, data, progress=None):
        """Write a file temp-then-rename, so an interrupted copy leaves the old file whole."""
        tmp = self.path(rel) + ".tmp"
        try:
            self.t.fs_writefile(tmp, data, chunk_size=_CHUNK, progress_callback=progress)
        except (OSError, self.TransportError) as e:
            raise BoardError("copying %s failed: %s" % (rel, e)) from None
        self.run(
            "import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r,%r)\n"
            % (self.path(rel), tmp, self.path(rel))
        )

    def remove(self, rels):
        code = (
            "import os\nfor p in %r:\n try:\n  os.rmdir(p) if p.endswith('/') else "
            "os.remove(p)\n except OSError:\n  pass\n" % ([self.path(r) for r in rels],)
        )
        self.run(code)

    def restart(self):
        """Leave the raw REPL and soft-reset, which runs /main.py (the app). True if done."""
        self.t.exit_raw_repl()
        if self.root == "":
            return False  # unix port: Ctrl-D at its REPL would end the process
        time.sleep(0.1)
        self.t.serial.write(b"\x04")
        self.t.read_until(1, b"soft reboot", timeout=3)
        return True

    def close(self):
        try:
            if self.t.in_raw_repl:
                self.t.exit_raw_repl()
        except Exception:
            pass
        try:
            self.t.close()
        except Exception:
            pass
