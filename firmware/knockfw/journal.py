# Append-only journal on the device's littlefs, plus small settings files written safely.
#
# One record per line:   <seq> <json> <crc>\n
#   seq   decimal, 1 for the first record of a journal, then +1 per line
#   json  compact JSON (no newline inside), the record itself
#   crc   binascii.crc32 of the bytes "<seq> <json>", 8 lowercase hex digits
#
# Power safety: littlefs is copy-on-write; what a file handle wrote becomes durable when the
# handle is synced (f.flush() on a VfsLfs2 file calls lfs_file_sync) or closed, atomically.
# So append() writes the whole line and flushes before it returns: a returned append is on flash.
#
# Quick appends (append(obj, quick=True): the app's saves, through knockfw.store): littlefs
# appends to a file by copying its last, part-filled block into a freshly erased one, so every
# synced append costs a sector erase (45 ms typical, 400 ms at the W25Q16JV's worst, with the
# CPU stalled). A quick append instead rewrites the small file <path>.new: its header line
# "<seq> <crc>" names the journal's last record, then the records not yet in the journal. Under
# its inline limit (512 bytes on the Pico's littlefs) littlefs keeps a small file inside its
# directory's metadata, so rewriting it is one metadata commit (a page programmed, no erase),
# atomic like every commit. merge() moves those records into the journal (the erase, off the
# save's path: the store calls it when the player has left the buttons alone, before anything
# reads the records, and when the next one would not fit). open() takes a .new whose header is
# the journal's last record (a cut came before its merge) and merges it; any other .new (a
# merge cut before the file went, or a journal replaced) is removed.
# A torn or damaged line can still appear (other filesystems, flash wear, a bug): open() keeps
# every good record before the first bad line, drops the rest (the good prefix rewritten to a
# temp file renamed over the journal: MicroPython files have no truncate()), keeps damage before
# the last line aside in <path>.bad, and leaves what it repaired in .notes (English templates and
# their arguments: knockfw.strings.say_notes says them in the player's language).
import binascii
import json
import os
from array import array

from micropython import const

from knockfw import jscan
from knockfw import feed  # the watchdog, in the loops that grow with the journal

_CHUNK = const(512)  # bytes copied at a time when the journal is rewritten
_SCAN = const(2048)  # bytes read at a time by the boot scan: a longer line is garbage
_BATCH = const(32)  # lines checked per call of the native scan
_READ = const(1024)  # records(): bytes read at a time (a record is < 400 bytes)
_READ_BATCH = const(16)
_MARK_EVERY = const(32)  # one (seq, offset) mark per this many records, to seek for sync
_NEW_MAX = const(440)  # bytes of <path>.new: under littlefs' inline limit (512), header included

_crc = None  # the CRC-32 table of the native scan, made on first use


def _sync():
    s = getattr(os, "sync", None)
    if s:
        s()


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _line(seq, obj):
    body = b"%d %s" % (seq, json.dumps(obj, separators=(",", ":")).encode())
    return b"%s %08x\n" % (body, binascii.crc32(body) & 0xFFFFFFFF)


def _table():
    global _crc
    if _crc is None:
        _crc = jscan.crc_table()
    return _crc


def _last_line(buf, start, have, f, eof):
    # Is the line at buf[start] the file's last (a torn tail), or do more lines follow it?
    nl = buf.find(b"\n", start, have)
    if 0 <= nl and nl + 1 < have:
        return False
    return eof or not f.read(1)


def _copy_prefix(src, dst, size):
    with open(src, "rb") as fi:
        with open(dst, "wb") as fo:
            left = size
            while left > 0:
                chunk = fi.read(_CHUNK if left > _CHUNK else left)
                if not chunk:
                    break
                fo.write(chunk)
                left -= len(chunk)
                feed()


class Journal:
    def __init__(self, path):
        self.path = path
        self.notes = []  # what open() had to repair: [(English template, args)], for the UI
        self.last_seq = 0  # seq of the last good record, 0 when empty
        self.size = 0  # bytes of good records: where the next one goes
        self._marks = []  # (seq, offset of that record): every _MARK_EVERY-th record
        self._f = None  # append handle, kept open between appends
        self._new = b""  # quick appends not merged yet: their lines (in <path>.new)
        self._head = b""  # the header of <path>.new: "<seq> <crc>\n" of the journal's last

    def open(self, visit=None):
        """Scan and validate the journal, repairing a torn tail; never raises for bad content.

        visit(seq, offset, gid, game) is called for every good record in order, with the number
        after its `"g":` (-1 if none) and whether it is `"t":"game"`, so a reader can index the
        records in the same single pass without parsing them (knockfw.store does)."""
        self._close_f()  # (quick appends not merged are in <path>.new: read again below)
        self.notes = []
        tmp = self.path + ".tmp"
        if not _exists(self.path) and _exists(tmp):
            # A rewrite was cut after the old file went and before the new one was renamed in.
            os.rename(tmp, self.path)
        _remove(tmp)
        self.last_seq, self.size, self._marks = 0, 0, []
        self._new, self._head = b"", b""
        buf = bytearray(_SCAN)  # (before the small pieces _take_new leaves in the heap)
        self._take_new()
        try:
            f = open(self.path, "rb")
        except OSError:
            return self
        with f:
            bad = self._scan(f, visit, buf)
            if bad is not None:
                self._cut(bad[1])
        return self

    def _header(self):
        return b"%d %s\n" % (self.size, (self.crc_before(self.size) or "-").encode())

    def _take_new(self):
        # Quick appends a cut left in <path>.new: onto the journal's end if its header is that
        # end (the scan then checks them like any record), else (merged already, or another
        # journal's) removed.
        p = self.path + ".new"
        try:
            with open(p, "rb") as f:
                data = f.read()
            self.size = os.stat(self.path)[6]
        except OSError:
            return
        nl = data.find(b"\n") + 1
        try:
            if data[:nl] == self._header():
                self._new = data[nl:]
                self.merge()
            _remove(p)
            _sync()
        except OSError:  # (flash full) .new stays for a later boot, and no quick append
            self._new = b""  # may write over it until then
            self._head = None  # type: ignore[assignment]
        self._close_f()
        self.size = 0

    def _scan(self, f, visit, buf):
        # Native line checks (knockfw.jscan) over the file, _SCAN bytes at a time. Returns None
        # when every line is good, else (offset of the first bad line, whether it is the last).
        crc = _table()
        out = array("i", bytes(16 * _BATCH))
        base = have = 0
        eof = False
        while True:
            feed()
            if not eof and have < _SCAN:
                k = f.readinto(memoryview(buf)[have:])
                eof = not k
                have += k or 0
            r = jscan.lines(buf, have, self.last_seq + 1, crc, out, _BATCH)
            good = r if r >= 0 else -1 - r
            used = 0
            seq = self.last_seq  # (locals: quicker on an RP2040 than attributes)
            for i in range(0, good * 4, 4):
                off = base + out[i]
                seq += 1
                if seq % _MARK_EVERY == 1:
                    self._marks.append((seq, off))
                used = out[i] + out[i + 1]
                if visit is not None:
                    visit(seq, off, out[i + 2], out[i + 3] == 1)
            self.last_seq = seq
            if good:
                self.size = base + used
            if r < 0 or (good < _BATCH and (eof or used == 0 and have == _SCAN)):
                if used == have:
                    return None  # all read, all good
                return base + used, _last_line(buf, used, have, f, eof)
            if used:
                rest = have - used
                buf[0:rest] = buf[used:have]
                base += used
                have = rest

    def _cut(self, only_last):
        """Rewrite the journal as its good prefix."""
        tmp = self.path + ".tmp"
        _copy_prefix(self.path, tmp, self.size)
        if only_last:
            self.notes = [("dropped a half-written last record", ())]
        else:
            self.notes = [
                (
                    "journal damaged after record %d: kept %d records, rest in %s.bad",
                    (self.last_seq, self.last_seq, self.path),
                )
            ]
            _remove(self.path + ".bad")
            os.rename(self.path, self.path + ".bad")
        os.rename(tmp, self.path)
        _sync()

    def append(self, obj, quick=False):
        """Write obj as the next record and flush it to flash; returns its seq. quick: into
        <path>.new if it fits there (no flash erase; see the header), merged later."""
        seq = self.last_seq + 1
        line = _line(seq, obj)
        if self._new and (not quick or len(self._head) + len(self._new) + len(line) > _NEW_MAX):
            self.merge()
        if quick and self._head is not None:
            head = self._head or self._header()
            if len(head) + len(self._new) + len(line) <= _NEW_MAX:
                with open(self.path + ".new", "wb") as f:
                    f.write(head + self._new + line)
                _sync()
                self._head = head
                self._new += line
                self.last_seq = seq
                return seq
        self._write(line)
        self.last_seq = seq
        if seq % _MARK_EVERY == 1:
            self._marks.append((seq, self.size - len(line)))
        return seq

    def _write(self, data):
        # Onto the journal's end, flushed: on flash when this returns.
        try:
            if self._f is None:
                self._f = open(self.path, "ab")
            self._f.write(data)
            self._f.flush()
            _sync()
        except Exception:
            # The handle may hold a partial line: drop it; the caller reopens to rescan.
            self._close_f()
            raise
        self.size += len(data)

    def merge(self):
        """Move the quick appends from <path>.new into the journal (flushed), then remove
        <path>.new. A cut in between leaves both: open() then removes <path>.new, whose header
        no longer names the journal's last record."""
        if self._new:
            self._write(self._new)  # (no seek marks in them: records() reads from an older one)
            self._new, self._head = b"", b""
            _remove(self.path + ".new")
            _sync()

    def crc_before(self, end):
        """The CRC (its 8 hex digits) of the record that ends at byte `end` of the journal, None
        if none ends there. With the record's seq, it names the record for good (the boot
        checkpoint, knockfw.store; it merges the quick appends first)."""
        try:
            with open(self.path, "rb") as f:
                f.seek(end - 10)
                b = f.read(10)
            if b[0] == 32 and b[9] == 10 and end <= self.size:
                return b[1:9].decode()
        except (OSError, IndexError, ValueError):
            pass
        return None

    def records(self, after=0, raw=False):
        """Yield (seq, obj) for the good records with seq > after; with raw, (seq, its JSON as
        bytes), not parsed (the serial link sends it as it is). Each record's seq and CRC are
        checked again (in native code, knockfw.jscan): a record that no longer reads back ends
        the records there. The quick appends are merged first."""
        self.merge()
        seq, off = 1, 0
        for m in self._marks:
            if m[0] <= after + 1:
                seq, off = m
        try:
            f = open(self.path, "rb")
        except OSError:
            return
        buf = bytearray(_READ)
        out = array("i", bytes(16 * _READ_BATCH))
        crc = _table()
        with f:
            f.seek(off)
            left = self.size - off  # bytes of good records still to read
            have = 0
            while True:
                feed()
                if left > 0 and have < _READ:
                    k = f.readinto(memoryview(buf)[have : have + min(_READ - have, left)])
                    if not k:
                        return
                    have += k
                    left -= k
                r = jscan.lines(buf, have, seq, crc, out, _READ_BATCH)
                good = r if r >= 0 else -1 - r
                used = 0
                for i in range(0, good * 4, 4):
                    s, n = out[i], out[i + 1]
                    used = s + n
                    if seq > after:
                        body = bytes(buf[buf.find(b" ", s) + 1 : used - 10])
                        yield seq, body if raw else json.loads(body)
                    seq += 1
                if r < 0 or not used:
                    return  # a bad record, or the end (or a line longer than _READ)
                have -= used
                buf[0:have] = buf[used : used + have]

    def reset(self, first=None):
        """Start a new, empty journal (with `first` as record 1 if given), atomically."""
        self._new, self._head = b"", b""
        _remove(self.path + ".new")
        self.close()
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            if first is not None:
                f.write(_line(1, first))
        os.rename(tmp, self.path)
        _sync()
        self.notes = []
        self.last_seq, self.size, self._marks = 0, 0, []
        if first is not None:
            self.size = len(_line(1, first))
            self.last_seq = 1
            self._marks.append((1, 0))

    def close(self):
        """Merge the quick appends, close the append handle."""
        self.merge()  # (closes the handle itself if it fails)
        self._close_f()

    def _close_f(self):
        if self._f is not None:
            try:
                self._f.close()
            except OSError:
                pass
            self._f = None


def save_json(path, obj, crc=False):
    """Replace the JSON file at path safely: write path.tmp, then rename it over path. With crc,
    the JSON comes after its CRC-32 (8 hex digits and a space; littlefs checks no file's data),
    and load_json(crc=True) refuses the file if a byte of it changed."""
    text = json.dumps(obj)
    if crc:
        text = "%08x %s" % (binascii.crc32(text.encode()) & 0xFFFFFFFF, text)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)
    _sync()


def _read_json(path, crc):
    try:
        with open(path, "rb") as f:
            t = f.read()
        if crc:
            if t[:9] != b"%08x " % (binascii.crc32(t[9:]) & 0xFFFFFFFF):
                return None
            t = t[9:]
        return json.loads(t)
    except (OSError, ValueError):
        return None


def load_json(path, default=None, crc=False):
    """The object saved at path (by save_json with the same crc); after a cut save, the complete
    version (old or new); else default.

    Objects saved should be dicts or lists: a torn one never parses."""
    tmp = path + ".tmp"
    obj = _read_json(path, crc)
    if obj is None:
        obj = _read_json(tmp, crc)
        if obj is not None:
            os.rename(tmp, path)  # the save finished writing but not renaming: finish it
            return obj
        return default
    if _exists(tmp):
        _remove(tmp)
    return obj
