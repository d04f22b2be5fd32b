"""`knockbox sync` and the device's fault records (knockfw.fault, the link's "faults" op;
knockbox.link.faults): each printed once, kept in the history, cleared on the device; a fault recorded
between the read and the clear is neither lost nor its older ones printed again; the same crash
again after a clear is a new one; a device without the op syncs as before. The stand-in device
(ptydevice) keeps its faults.txt as knockfw.fault.read() serves it. The firmware's own side, on
the emulated Pico: tests/emu/test_emu_recover.py."""

from kit.clirun import db_rows
from knockbox.link import faults
from kit.ptydevice import FakeDevice, failed, good_device, journal, reply, run

A = (
    '@3012\nTraceback (most recent call last):\n  File "main.py", line 7, in <module>\n'
    '  File "knockfw/app.py", line 1, in run\n  File "knockfw/ui.py", line 1, in _load\n'
    "ValueError: incompatible .mpy file\n"
)
B = (
    '@48012\nTraceback (most recent call last):\n  File "main.py", line 7, in <module>\n'
    '  File "knockfw/epd.py", line 1, in busy\nOSError: panel stuck busy\n'
)


class Faults:
    """The device's /data/faults.txt: the "faults" op as knockfw.fault.read() answers it."""

    def __init__(self, text="", then=None):
        self.text = text
        self.then = then  # called after a read without clear (a fault recorded meanwhile)
        self.clears = 0

    def device(self, evs):
        base = good_device(evs)

        def answer(req, line):
            if req is None or req.get("op") != "faults":
                return base(req, line)
            data = self.text.encode()
            if data and req.get("clear") == len(data):
                self.text = ""
                self.clears += 1
            out = reply(req, ok=True, faults=self.text, size=len(self.text.encode()))
            if "clear" not in req and self.then:
                self.then(self)
                self.then = None
            return out

        return answer


def printed(p):
    assert p.returncode == 0, p.stdout + p.stderr
    return [ln for ln in p.stdout.splitlines() if ln.startswith("device fault")]


def stored(db):
    return db_rows(db, "SELECT record, cleared FROM faults ORDER BY rowid")


def sync(db, dev):
    evs, _g = journal(3)
    with FakeDevice(dev.device(evs)) as d:
        return run("sync", "--port", d.path, "--db", db)


def test_a_fault_is_printed_once_kept_and_cleared_on_the_device(db):
    dev = Faults(A)
    p = sync(db, dev)
    assert printed(p) == [
        "device fault (3.0 s after the device started): ValueError: incompatible .mpy file"
    ]
    assert "  in knockfw/ui.py _load < knockfw/app.py run < main.py <module>" in p.stdout
    assert dev.text == "" and dev.clears == 1
    assert stored(db) == [(A.rstrip("\n"), 1)]
    assert printed(sync(db, dev)) == []


def test_a_fault_recorded_between_the_read_and_the_clear(db):
    dev = Faults(A, then=lambda d: setattr(d, "text", d.text + B))
    assert len(printed(sync(db, dev))) == 1  # A; the clear finds B too and keeps both
    assert dev.text == A + B and dev.clears == 0
    assert stored(db) == [(A.rstrip("\n"), 0)]
    second = printed(sync(db, dev))  # A is known: only B, and now both are cleared
    assert len(second) == 1 and "panel stuck busy" in second[0], second
    assert dev.text == "" and stored(db) == [(A.rstrip("\n"), 1), (B.rstrip("\n"), 1)]
    assert printed(sync(db, dev)) == []


def test_the_same_crash_again_after_a_clear_is_new(db):
    dev = Faults(A)
    assert len(printed(sync(db, dev))) == 1
    dev.text = A  # deterministic code: the same record, byte for byte
    assert len(printed(sync(db, dev))) == 1
    assert [r[1] for r in stored(db)] == [1, 1]


def test_what_the_device_cut_from_an_older_record_is_left_out(db):
    dev = Faults('  File "knockfw/app.py", line 1, in step\nMemoryError: \n' + B)
    p = printed(sync(db, dev))
    assert len(p) == 1 and "OSError: panel stuck busy" in p[0], p


def test_a_device_without_faults_syncs_as_before(db):
    evs, _g = journal(3)
    with FakeDevice(good_device(evs)) as d:  # answers "unknown op"
        p = run("sync", "--port", d.path, "--db", db)
    assert printed(p) == [] and "5 new records" in p.stdout


def test_a_malformed_faults_reply_is_an_error(db):
    evs, _g = journal(3)
    base = good_device(evs)

    def answer(req, line):
        if req and req.get("op") == "faults":
            return reply(req, ok=True, faults=["x"], size="x")
        return base(req, line)

    with FakeDevice(answer) as d:
        failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "malformed faults reply"
        )


def test_describe_a_record():
    assert faults.parse("junk\n" + A + B) == [A.rstrip("\n"), B.rstrip("\n")]
    assert faults.describe("@x\nno traceback") == "device fault (time unknown): no traceback"
