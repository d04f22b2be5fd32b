"""`knockbox sync` facing a device that misbehaves: a stand-in device on a pseudo-terminal (a
thread here) answers nothing, garbage, the REPL, malformed replies, another protocol, or breaks
off mid-sync. The command must say what is wrong (`knockbox: ...`, exit 1, no traceback) and
leave the history as it was (or holding only whole, checked pages). Also: finding the port."""

import io
import json
import os
import random
import sqlite3
from types import SimpleNamespace

import pytest

from knockbox.link import ports
from knockbox.usererror import UserError
from kit.ptydevice import HELLO, FakeDevice, failed, good_device, journal, reply, run


def test_silent_device(db):
    with FakeDevice(lambda req, line: b"") as d:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "no answer")
    assert not os.path.exists(db)


@pytest.mark.parametrize(
    "junk",
    [
        b">>> \r\nTraceback (most recent call last):\r\nSyntaxError: invalid syntax\r\n>>> ",
        bytes(random.Random(1).getrandbits(8) for _ in range(3000)),
        b'{"id": 12345, "ok": true}\n[1, 2]\n"hello"\n\x00\x01\x02\n',
    ],
)
def test_device_answering_garbage(db, junk):
    with FakeDevice(lambda req, line: junk) as d:
        failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "did not answer hello"
        )
    assert not os.path.exists(db)


def test_malformed_hello_and_other_format(db):
    with FakeDevice(lambda req, line: reply(req, ok=True, device=7)) as d:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "not a Knockbox")
    with FakeDevice(lambda req, line: reply(req, **dict(HELLO, format="knockbox-game/9"))) as d:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "knockbox-game/9")
    assert not os.path.exists(db)


def test_no_such_port(db):
    failed(run("sync", "--port", "/dev/nonexistent-knockbox", "--db", db), "cannot open")


def test_garbage_page_mid_sync_keeps_only_whole_pages(db):
    evs, g = journal(120)

    def hook(req, page):
        if req["after"] >= 50:
            return (
                b'{"id": %d, "ok": true, "epoch": 0, "last_seq": 122, "ev": [[51, "x"]]}\n'
                % req["id"]
            )
        return None

    with FakeDevice(good_device(evs, hook)) as d:
        p = failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
            "malformed",
            "50 new records saved",
        )
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*), MAX(seq) FROM events").fetchone() == (50, 50)
    rec = json.loads(c.execute("SELECT record FROM games").fetchone()[0])
    assert rec["hands"] == g.record()["hands"][:48]
    # and a good device then completes it
    with FakeDevice(good_device(evs)) as d:
        p = run("sync", "--port", d.path, "--db", db)
    assert p.returncode == 0, p.stderr
    assert "72 new records: 0 new games, 1 updated" in p.stdout
    rec = json.loads(c.execute("SELECT record FROM games").fetchone()[0])
    assert rec == g.record()


def test_device_silent_mid_sync(db):
    evs, g = journal(200)

    def hook(req, page):
        return b"" if req["after"] >= 100 else None

    with FakeDevice(good_device(evs, hook)) as d:
        failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
            "no answer to events",
            "100 new records saved",
            "resumes",
        )
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM events").fetchone() == (100,)


def _port(dev, vid, pid, manufacturer=None):
    return SimpleNamespace(device=dev, vid=vid, pid=pid, manufacturer=manufacturer)


def test_find_port_by_usb_id(monkeypatch):
    from serial.tools import list_ports

    listed = []
    monkeypatch.setattr(list_ports, "comports", lambda: listed)
    listed[:] = [_port("/dev/ttyS0", None, None), _port("/dev/ttyACM0", 0x2E8A, 0x0005)]
    assert ports.find().device == "/dev/ttyACM0"
    listed[:] = [_port("/dev/ttyUSB0", 0x0403, 0x6001)]
    with pytest.raises(UserError, match="no MicroPython board found on USB .*2e8a:0005"):
        ports.find(sim=False)
    listed[:] = [_port("/dev/ttyACM1", 0x2E8A, 0x0005), _port("/dev/ttyACM0", 0xF055, 0x9800)]
    with pytest.raises(UserError, match="several .*--port:\n  /dev/ttyACM0 .*\n  /dev/ttyACM1"):
        ports.find()


@pytest.mark.parametrize(
    "port",
    [_port("/dev/ttyACM3", 0xF055, 0x9802), _port("/dev/ttyACM3", 0x1234, 0x5678, "MicroPython")],
)
def test_sync_finds_every_board_deploy_finds(port, monkeypatch):
    """One list of USB ids: a board `knockbox deploy` finds, `knockbox sync` finds too."""
    from serial.tools import list_ports

    from knockbox.link import deploy

    monkeypatch.setattr(list_ports, "comports", lambda: [_port("/dev/ttyS0", None, None), port])
    assert deploy.pick_port(None, io.StringIO()) == "/dev/ttyACM3"
    assert ports.find().device == "/dev/ttyACM3"


@pytest.mark.parametrize(
    "proto, words",
    [
        (2, ["serial protocol 2, newer", "update knockbox"]),
        (0, ["serial protocol 0, older", "knockbox deploy"]),
        ("1", ["no protocol version", "not a Knockbox"]),
        (None, ["no protocol version", "not a Knockbox"]),
    ],
)
def test_device_speaking_another_protocol_is_refused(db, proto, words):
    hello = dict(HELLO, proto=proto)
    if proto is None:
        del hello["proto"]
    evs, g = journal(3)
    with FakeDevice(good_device(evs, hello=hello)) as d:
        failed(run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), *words)
        failed(run("push", "--port", d.path, "--lang", "ru", "--timeout", "0.5"), *words)
    assert not os.path.exists(db)
    assert [r["op"] for r in d.seen if r] == ["hello", "bye", "hello", "bye"]  # nothing else


def test_pages_of_the_protocols_size(db):
    from knockcore.proto import EVENTS_MAX

    evs, g = journal(2 * EVENTS_MAX)
    with FakeDevice(good_device(evs, cap=EVENTS_MAX)) as d:
        p = run("sync", "--port", d.path, "--db", db)
    assert p.returncode == 0, p.stderr
    asked = [r for r in d.seen if r and r["op"] == "events"]
    assert [(r["after"], r["limit"]) for r in asked] == [
        (0, EVENTS_MAX),
        (EVENTS_MAX, EVENTS_MAX),
        (2 * EVENTS_MAX, EVENTS_MAX),
    ]


@pytest.mark.slow
def test_a_page_that_streams_longer_than_the_timeout_is_waited_for(db):
    # the device sends a long page in pieces (a busy Pico): --timeout is silence, not the page
    evs, g = journal(60)

    def hook(req, page):  # the device's own key order: "id" first, "ok" last
        b = (
            json.dumps(
                {"id": req["id"], "epoch": 0, "ev": page, "last_seq": len(evs), "ok": True},
                separators=(",", ":"),
            ).encode()
            + b"\n"
        )
        k = len(b) // 5
        return [(0.3, b[i : i + k]) for i in range(0, len(b), k)]

    with FakeDevice(good_device(evs, hook)) as d:
        p = run("sync", "--port", d.path, "--db", db, "--timeout", "0.5")
    assert p.returncode == 0, p.stderr
    assert "62 new records" in p.stdout
    # and a device that falls silent half way through a page is still given up on
    with FakeDevice(
        good_device(evs, lambda req, page: [(0, b'{"id":%d,"epoch":0,"ev":[' % req["id"])])
    ) as d:
        failed(
            run("sync", "--port", d.path, "--db", db + "2", "--timeout", "0.5"),
            "stopped part way through its reply to events",
            "then nothing for 0.5 s",
        )


def test_page_the_device_ends_with_an_error_is_not_stored(db):
    # the device streams a page and cannot finish it (erased meanwhile, a flash error): the reply
    # carries the events sent so far and "error"; only the whole pages before it are kept
    evs, g = journal(120)

    def hook(req, page):
        if req["after"] >= 50:
            return reply(req, epoch=0, ev=page[:7], error="the journal was erased during the sync")
        return None

    with FakeDevice(good_device(evs, hook)) as d:
        failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"),
            "erased during the sync",
            "50 new records saved",
        )
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*), MAX(seq) FROM events").fetchone() == (50, 50)


def test_a_deeply_nested_reply_is_garbage_not_a_crash(db):
    with FakeDevice(lambda req, line: b"[" * 200000 + b"\n") as d:
        failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "did not answer hello"
        )


def test_half_a_character_from_the_device_is_garbage_not_a_crash(db):
    """A \\u escape of a lone surrogate decodes to a string no UTF-8 holds (nor SQLite)."""
    evs, g = journal(3)
    evs[1]["rec"]["players"] = ["\ud800", "Bob", "Cy"]
    with FakeDevice(good_device(evs)) as d:
        failed(
            run("sync", "--port", d.path, "--db", db, "--timeout", "0.5"), "did not answer events"
        )
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)  # nothing half
    con.close()


def test_what_a_device_says_of_itself_never_drives_the_terminal(db):
    """The board and firmware fields of a device's hello are printed as visible text."""
    evs, g = journal(3)
    hello = dict(HELLO, board="\x1b]0;pwned\x07\x1b[2J", fw="1\u202e2")
    with FakeDevice(good_device(evs, hello=hello)) as d:
        p = run("sync", "--port", d.path, "--db", db)
    assert p.returncode == 0, p.stderr
    assert "\x1b" not in p.stdout + p.stderr and "\u202e" not in p.stdout + p.stderr
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in p.stdout and "1\\u202e2" in p.stderr
