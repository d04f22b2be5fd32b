"""The book's folder and its manifest (knockbox-book.json): which pages the folder holds, each
page's content hash, size, mtime and the inputs it was made from; a page written whole only when
its bytes changed; the pages a build no longer makes removed, and nothing else in the folder
touched (see knockbox.book's doc: a first build's partial manifest, entries left alone).

Every file the book writes is listed in the manifest on disk before it is written (plan(): the
pages a part of the build is about to make, as pages to come), and the pages written are put in
the manifest now and then (at most every CHECKPOINT seconds) and when a build stops: so whatever
stops a build (Ctrl-C, a full disk, a kill), the next one knows which files are the book's, keeps
the pages already made from the same inputs, and leaves every other file alone. A file where a
page of the book goes that the manifest does not list is not the book's: the build stops before
writing anything over it. The book writes only inside its folder: a folder of it (evenings/,
players/, years/) that is a link is refused."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from typing import TYPE_CHECKING

from knockbox.usererror import UserError
from knockbox.files import write_whole

if TYPE_CHECKING:
    from knockbox.records import Record
    from collections.abc import Iterable

FORMAT = "knockbox-book/2"  # 1: each evening's sums in the manifest (read as 2: they are not)
FORMATS = ("knockbox-book/1", FORMAT)
MANIFEST = "knockbox-book.json"
PAGE = re.compile(r"(index|evenings/[0-9]+|players/[a-z0-9-]+|years/[0-9]+)\.html\Z")
FOLDERS = ("evenings", "players", "years")
_TMP = re.compile(r"\.knockbox-.*\.tmp\Z")  # files.write_whole's
_ADOPTED = {"sha256": "", "size": -1, "mtime": 0, "inputs": None}  # a page of a stopped build
CHECKPOINT = 2.0  # seconds between two writes of the manifest while pages are written


class Folder:
    """The folder a book is built in: its manifest as the last build left it (old) and the pages
    of this build (pages), with counts of the pages written, kept and removed."""

    def __init__(self, path: str, version: str, lang: str) -> None:
        self.path, self.version, self.lang = path, version, lang
        self.anew = False  # the folder's pages were made by another knockbox or language
        self.foreign: list[str] = []  # the manifest's entries left alone: not pages the book makes
        self.old = self._manifest()
        self.pages: dict[str, Record] = {}  # path -> {"sha256", "size", "mtime", "inputs"}
        self.planned: set[str] = set()  # pages to come, listed in the manifest on disk
        self.written = self.kept = self.removed = 0
        self._saved = time.monotonic()  # when the manifest was last written

    def _manifest(self) -> Record:
        path = os.path.join(self.path, MANIFEST)
        if (
            os.path.isdir(self.path)
            and not os.path.exists(path)
            and [n for n in os.listdir(self.path) if not _TMP.match(n)]
        ):
            raise UserError(
                "%s is not empty and holds no Knockbox book (%s): give a new or "
                "empty folder" % (self.path, MANIFEST)
            )
        self._old_bytes = None
        try:
            with open(path, "rb") as f:
                self._old_bytes = f.read()
            m = json.loads(self._old_bytes)
        except FileNotFoundError:
            return {"pages": {}, "partial": True}
        except (OSError, ValueError) as e:
            raise UserError("%s: not a Knockbox book manifest (%s)" % (path, e)) from None
        if (
            not isinstance(m, dict)
            or m.get("format") not in FORMATS
            or not isinstance(m.get("pages"), dict)
        ):
            raise UserError("%s: not a Knockbox book manifest" % path)
        for p in list(m["pages"]):
            if not self._ours(p, m["pages"][p]):
                self.foreign.append(p)
                del m["pages"][p]
            elif not self._whole(m["pages"][p]):  # the manifest's, but not said as made
                m["pages"][p] = dict(_ADOPTED)
        if m.get("partial") and not m.get("listed"):
            self._adopt(m["pages"])  # (a build of before every file was listed first)
        if m.get("version") != self.version or m.get("lang") != self.lang:
            self.anew = bool(m.get("pages"))  # made by another knockbox or in another language
            for p in m.get("pages", {}).values():
                p["inputs"] = None
        return m

    def _ours(self, path: str, entry: object) -> bool:
        """Whether a manifest's entry is a page the book makes, inside the folder."""
        return bool(PAGE.match(path)) and isinstance(entry, dict) and self._inside(path)

    @staticmethod
    def _whole(entry: Record) -> bool:
        return all(
            isinstance(entry.get(k), t) for k, t in (("sha256", str), ("size", int), ("mtime", int))
        )

    def _inside(self, path: str) -> bool:
        """Whether path (relative to the folder) leads to a place inside it, links followed."""
        root = os.path.realpath(self.path)
        return os.path.realpath(os.path.join(root, path)).startswith(root + os.sep)

    def _adopt(self, pages: Record) -> None:
        """A first build's pages that a knockbox of before the manifest listed every page first
        left (the folder was empty or a book's when it began): into pages, to be made again or
        removed."""
        for sub in FOLDERS:
            try:
                names = os.listdir(os.path.join(self.path, sub))
            except OSError:
                continue
            for n in names:
                path = sub + "/" + n
                if path not in pages and self._ours(path, _ADOPTED):
                    pages[path] = dict(_ADOPTED)

    def begin(self) -> None:
        """Make the folders (refused where one is a link or not a folder); a first build's
        manifest (marked partial) before any page, and the temporary files a stopped build left
        removed."""
        try:
            os.makedirs(self.path, exist_ok=True)
            for sub in FOLDERS[:2]:  # (years/: when a year's page is made)
                self._own(sub)
            if self.old.get("partial") or not self.old.get("listed"):
                self._write_manifest()
            for sub in FOLDERS[:2]:
                self.make(sub)
            for sub in ("",) + FOLDERS:
                folder = os.path.join(self.path, sub)
                for n in os.listdir(folder) if os.path.isdir(folder) else ():
                    if _TMP.match(n) and self._inside(os.path.join(sub, n)):
                        os.remove(os.path.join(folder, n))
        except OSError as e:
            raise UserError("%s: %s" % (self.path, e.strerror or e)) from None

    def _own(self, sub: str) -> None:
        """UserError unless the book's folder sub is missing or a folder of its own (not a link,
        which would have the book write elsewhere)."""
        full = os.path.join(self.path, sub)
        if os.path.islink(full) or (os.path.lexists(full) and not os.path.isdir(full)):
            raise UserError(
                "%s is %s, not a folder of the book: the book writes only inside its own "
                "folder; move it away" % (full, "a link" if os.path.islink(full) else "a file")
            )

    def make(self, sub: str) -> None:
        """Make the folder sub (one of FOLDERS) if it is not there."""
        self._own(sub)
        os.makedirs(os.path.join(self.path, sub), exist_ok=True)

    def plan(self, paths: Iterable[str]) -> None:
        """List the pages about to be made in the manifest on disk (as pages to come) before
        any is written. UserError, before anything is written, when a file that is not the
        book's (the manifest does not list it) is where one of them goes."""
        new = [p for p in paths if p not in self.old["pages"] and p not in self.planned]
        for p in new:
            if os.path.lexists(os.path.join(self.path, p)):
                raise UserError(
                    "%s is not a page of this book (%s does not list it): move it away, the "
                    "book makes a page there" % (os.path.join(self.path, p), MANIFEST)
                )
        if new:
            self.planned.update(new)
            self._write_manifest()

    def fresh(self, path: str, inputs: object) -> bool:
        """Whether path is as the manifest says and was made from these inputs (then kept)."""
        old = self.old["pages"].get(path)
        if not old or old.get("inputs") != inputs:
            return False
        try:
            st = os.stat(os.path.join(self.path, path))
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (old["size"], old["mtime"]):
            return False
        self.pages[path] = old
        self.kept += 1
        return True

    def put(self, path: str, text: str, inputs: object) -> None:
        """Write a page (temp file, then renamed) unless the file already holds these bytes."""
        if path not in self.old["pages"] and path not in self.planned:
            self.plan([path])
        if not self._inside(path):
            raise UserError(
                "%s leads out of the book's folder (a link): the book writes only inside "
                "its own folder" % os.path.join(self.path, path)
            )
        data = text.encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        full = os.path.join(self.path, path)
        old = self.old["pages"].get(path)
        try:
            st = os.stat(full)
            same = old and (
                old["sha256"] == digest
                and (st.st_size, st.st_mtime_ns) == (old["size"], old["mtime"])
                or old["sha256"] == ""
                and st.st_size == len(data)
                and _digest(full) == digest
            )
        except OSError:
            same = False
        if not same:
            write_whole(full, [data])
            st = os.stat(full)
            self.written += 1
        else:
            self.kept += 1
        self.pages[path] = {
            "sha256": digest,
            "size": st.st_size,
            "mtime": st.st_mtime_ns,
            "inputs": inputs,
        }
        if time.monotonic() - self._saved >= CHECKPOINT:
            self._write_manifest()

    def stopped(self) -> None:
        """The build stopped (Ctrl-C, an error): the manifest says the pages written so far,
        so that the next build keeps them (as best it can: a full disk may refuse it)."""
        try:
            self._write_manifest()
        except (OSError, UserError):
            pass

    def finish(self) -> None:
        """Remove the pages the last build made and this one did not; write the manifest."""
        for path in sorted((set(self.old["pages"]) | self.planned) - set(self.pages)):
            try:
                os.remove(os.path.join(self.path, path))
                self.removed += 1
            except FileNotFoundError:
                pass
        self.old["pages"], self.planned = {}, set()
        self.foreign = [p for p in self.foreign if p not in self.pages]
        self._write_manifest(final=True)

    def _write_manifest(self, final: bool = False) -> None:
        """The manifest as things stand: the pages written by this build, the last build's
        pages not made again yet, the pages to come; partial until a first build is done."""
        pages = dict(self.old["pages"])
        pages.update((p, dict(_ADOPTED)) for p in self.planned if p not in pages)
        pages.update(self.pages)
        m: Record = {"format": FORMAT, "version": self.version, "lang": self.lang, "pages": pages}
        m["listed"] = True
        if self.old.get("partial") and not final:
            m["partial"] = True
        data = json.dumps(
            m, ensure_ascii=False, sort_keys=True, separators=(",", ":"), check_circular=False
        ).encode("utf-8")
        if data != self._old_bytes or not os.path.exists(os.path.join(self.path, MANIFEST)):
            write_whole(os.path.join(self.path, MANIFEST), [data])
            self._old_bytes = data
        self._saved = time.monotonic()


def _digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()
