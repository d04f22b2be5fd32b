"""The device's files: firmware/manifest.py read into a list of entries (see that file for the
language: package(), module(), root(), version(), table(), home(), with only= and march=
options).

    m = manifest.load()                  # firmware/manifest.py (installed: knockbox/firmware/)
    m.entries("device")                  # [Entry] for the Pico; "sim": the unix port's build
    e.src, e.dest, e.opt, e.compiled, e.march_for("device"), e.module

Entry.dest is the path on the device, relative to its root: "knockfw/app.mpy", "main.py". The
packages sit at the root, not in /lib: MicroPython's sys.path on the rp2 port is
['', '.frozen', '/lib'] with / as the working folder, so a package at the root is found by the
first lookup of an import (each lookup along the path is several littlefs stats). Targets:
"device" (what deploy copies and the size budgets count) and "sim" (the simulator and the tests,
which run on the MicroPython unix port).

Where the files are: the manifest names each package's folder with home(name), the folder Python
imports that package from (shared/ for knockcore in a checkout, site-packages once installed from
a wheel or an sdist), so what goes on the device is the code the laptop runs, in a checkout and
installed alike; root files are beside the manifest (firmware/, or the package knockbox.firmware).
"""

from __future__ import annotations

import os

from knockbox.build import engines
from knockbox.usererror import UserError

TARGETS = ("device", "sim")
NAME = "manifest.py"
HOST_MARCH = "host"  # mpy-cross's name for the architecture it runs on (the unix port's own)


class ManifestError(UserError):
    pass


class Entry:
    """One file of the build: where it comes from, where it goes, how it is compiled."""

    def __init__(
        self,
        src: str,
        dest: str,
        opt: int = 3,
        only: str | None = None,
        march: dict[str, str] | None = None,
        compiled: bool = True,
        boards: tuple[str, ...] | None = None,
        text: str | None = None,
    ) -> None:
        self.src = src  # absolute path of the source
        self.text = text  # None, or the source the build compiles instead of src's
        self.packed = False  # a table(): compiled from src's TABLE packed (knockbox.build.mpy)
        self.dest = dest  # path on the device, relative to its root ("knockfw/app.mpy")
        self.opt = opt
        self.only = only  # None, "device" or "sim"
        self.march = march  # None or {"device": arch, "sim": arch}
        self.compiled = compiled  # False: copied as source (root files)
        self.boards = boards  # None (every board) or the boards it is for ("badger2040")

    @property
    def module(self) -> str | None:
        """Dotted module name ("knockfw.app"); None for root files (copied as source)."""
        if not self.compiled:
            return None
        name = self.dest[:-4].replace("/", ".")
        return name[:-9] if name.endswith(".__init__") else name

    @property
    def package(self) -> str | None:
        """The top-level folder of a compiled file ("knockfw"), None for a root file or a
        top-level module."""
        return self.dest.split("/")[0] if self.compiled and "/" in self.dest else None

    def wanted(self, target: str, board: str | None = None) -> bool:
        return (self.only is None or self.only == target) and (
            board is None or self.boards is None or board in self.boards
        )

    def march_for(self, target: str) -> str | None:
        return self.march.get(target) if self.march else None

    def __repr__(self) -> str:
        return "Entry(%r -> %r)" % (self.src, self.dest)


def _only(value: str | None) -> str | None:
    if value not in (None,) + TARGETS:
        raise ManifestError(
            "manifest: only= must be one of %s, not %r" % (", ".join(TARGETS), value)
        )
    return value


def _boards(value: list[str] | str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    names = (value,) if isinstance(value, str) else tuple(value)
    if not names or not all(isinstance(b, str) and b for b in names):
        raise ManifestError("manifest: board= is a board name or a list of them, not %r" % (value,))
    return names


def _march(value: int | str | None) -> dict[str, str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return {"device": value, "sim": HOST_MARCH}
    if isinstance(value, dict) and set(value) <= set(TARGETS):
        return dict(value)
    raise ManifestError(
        "manifest: march= is an architecture name or a dict {target: arch}, not %r" % (value,)
    )


class Manifest:
    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self.folder = os.path.dirname(self.path)
        self._entries: dict[
            str | tuple[str, tuple[str, ...]], Entry
        ] = {}  # dest -> Entry, in the order first named
        self._homes: dict[str, str] = {}  # package name -> the base_path its package() entry named

    def _base(self, base_path: str) -> str:
        return os.path.normpath(os.path.join(self.folder, base_path))

    def _base_of(self, path: str, base_path: str | None) -> str:
        """A module's base: the one given, else its package's (as package() named it), else
        this manifest's folder."""
        if base_path is not None:
            return base_path
        return self._homes.get(path.split("/")[0], ".") if "/" in path else "."

    def _add(self, entry: Entry) -> None:
        # a later entry for the same file wins, in its place; a board's own file (a board= root
        # file: the Badger's boot.py) is kept beside the every-board one (entries() picks)
        key = entry.dest if entry.boards is None or entry.compiled else (entry.dest, entry.boards)
        self._entries.pop(key, None)
        self._entries[key] = entry

    # ---- the manifest language ----

    def package(
        self,
        name: str,
        base_path: str = ".",
        opt: int = 3,
        only: str | None = None,
        march: str | int | None = None,
    ) -> None:
        base = self._base(base_path)
        top = os.path.join(base, *name.split("/"))
        if not os.path.isfile(os.path.join(top, "__init__.py")):
            raise ManifestError(
                "manifest: package %s: no %s" % (name, os.path.join(top, "__init__.py"))
            )
        self._homes[name.split("/")[0]] = base_path
        for dirpath, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, f), base).replace(os.sep, "/")
                    self.module(rel, base_path, opt, only, march)

    def module(
        self,
        path: str,
        base_path: str | None = None,
        opt: int = 3,
        only: str | None = None,
        march: str | int | None = None,
        board: list[str] | str | None = None,
    ) -> None:
        src = os.path.join(self._base(self._base_of(path, base_path)), *path.split("/"))
        if not path.endswith(".py") or not os.path.isfile(src):
            raise ManifestError("manifest: module %s: no such .py file (%s)" % (path, src))
        self._add(
            Entry(src, path[:-3] + ".mpy", opt, _only(only), _march(march), boards=_boards(board))
        )

    def version(self, path: str, base_path: str | None = None, only: str | None = None) -> None:
        """The module at path (as module() finds it) compiled from `VERSION = "<V>"`, V this
        knockbox package's version, instead of from its own text."""
        self.module(path, base_path, only=only)
        self.entry(path[:-3] + ".mpy").text = "VERSION = %r\n" % package_version()

    def table(self, path: str, base_path: str | None = None, only: str | None = None) -> None:
        """The module at path (as module() finds it), a string table (`TABLE = "..."`), compiled
        from its TABLE packed (knockbox.build.mpy.pack_table: a Cyrillic letter one byte), instead of
        from its own text."""
        self.module(path, base_path, only=only)
        self.entry(path[:-3] + ".mpy").packed = True

    def root(
        self,
        path: str,
        base_path: str = ".",
        only: str | None = None,
        board: str | None = None,
        dest: str | None = None,
    ) -> None:
        src = os.path.join(self._base(base_path), *path.split("/"))
        if not os.path.isfile(src):
            raise ManifestError("manifest: root %s: no such file (%s)" % (path, src))
        self._add(
            Entry(
                src,
                dest or os.path.basename(path),
                None,  # type: ignore[arg-type]  # copied as source: no -O level
                _only(only),
                None,
                compiled=False,
                boards=_boards(board),
            )
        )

    # ---- reading it ----

    def entries(self, target: str = "device", board: str | None = None) -> list[Entry]:
        """The entries of target; with board, only those that board needs (board= entries
        name the boards a file is for: a Badger gets no Waveshare driver)."""
        if target not in TARGETS:
            raise ValueError("target is one of %s, not %r" % (TARGETS, target))
        found = [e for e in self._entries.values() if e.wanted(target, board)]
        if board is not None:  # a board's own file in place of the every-board one
            own = {e.dest for e in found if e.boards}
            return [e for e in found if e.boards or e.dest not in own]
        common = {e.dest for e in found if not e.boards}  # no board: the every-board one
        return [e for e in found if not e.boards or e.dest not in common]

    def boards(self) -> list[str]:
        """Every board a board= entry names, sorted."""
        return sorted({b for e in self._entries.values() for b in (e.boards or ())})

    def entry(self, dest: str) -> Entry:
        return self._entries[dest]  # (what module() just added)

    def native(self, target: str = "device") -> list[Entry]:
        """The entries compiled with -march for this target."""
        return [e for e in self.entries(target) if e.march_for(target)]

    def packages(self, target: str = "device") -> list[str]:
        """The top-level package folders of the build, sorted (["knockcore", "knockfw"])."""
        return sorted({e.package for e in self.entries(target) if e.package})


def default_path() -> str:
    return os.path.join(engines.firmware_root(), NAME)


def package_version() -> str:
    """This knockbox's version, from its package metadata (pyproject.toml's `version`)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("knockbox")
    except PackageNotFoundError:
        raise ManifestError(
            "the knockbox package is not installed (in a checkout: "
            "scripts/setup), so it has no version"
        ) from None


def home(name: str) -> str:
    """The folder Python imports the package name from (the manifest's home()): the sys.path
    entry that holds it."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ManifestError("manifest: home(%r): no such package is installed" % (name,))
    folder = list(spec.submodule_search_locations)[0]
    for _ in name.split("."):
        folder = os.path.dirname(os.path.abspath(folder))
    return folder


def parse(path: str) -> Manifest:
    """Run a manifest file and return its Manifest."""
    m = Manifest(path)
    try:
        with open(path, encoding="utf-8") as f:
            code = compile(f.read(), path, "exec")
    except OSError as e:
        raise ManifestError("cannot read the device manifest %s: %s" % (path, e)) from None
    exec(
        code,
        {
            "__file__": path,
            "package": m.package,
            "module": m.module,
            "root": m.root,
            "version": m.version,
            "table": m.table,
            "home": home,
        },
    )
    return m


def load(path: str | None = None) -> Manifest:
    """The Manifest of firmware/manifest.py (installed: knockbox/firmware/manifest.py) or path,
    read afresh (cheap: a walk of two folders), so a module added while a process runs is in its
    next build."""
    return parse(os.path.abspath(path or default_path()))
