"""Text from outside never drives the terminal, whatever message carries it: escape sequences
(OSC ESC ] 0 ; ... BEL that retitles the window, CSI ESC [ 2 J that clears it, the one-byte C1
CSI), carriage returns and bidirectional overrides, fed in through a file, a device, a board and
a lock file, reach stdout and stderr only as visible escapes ("\\x1b"). Each path is a message
the command writes (knockbox.cli writes everything through knockbox.textsafe.Output)."""

import json
import os
import re

from kit import evenings as E
from kit.clirun import knockbox
from kit.ptydevice import HELLO, FakeDevice, good_device, reply
from knockbox import locks
from knockbox.link import ports

EVIL = "\x1b]0;OWNED\x07\x1b[2J\x9b31m\r\u202eXY"
SHOWN = "\\x1b]0;OWNED\\x07\\x1b[2J\\x9b31m\\x0d\\u202eXY"  # as the terminal must get it
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def clean(out, err, shown=SHOWN):
    """Nothing unsafe raw on either stream, and the text shown escaped on one of them."""
    both = out + err
    assert not RAW.search(both), both
    assert shown in both, both
    return both


def write(path, obj):
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def test_an_import_error_naming_a_player(tmp_path, db):
    rec = E.game(E.M1, ["Ann" + EVIL, "Bob", "Cy"])
    code, out, err = knockbox("import", write(tmp_path / "g.json", [rec]), "--db", db)
    assert code == 1 and clean(out, err, "(Ann\\x1b]0;OWNED\\x07").startswith("knockbox: ")
    assert err.count("\n") == 1


def test_the_rules_core_s_error_text(tmp_path):
    rec = E.game(E.M3, [EVIL, "Bob", "Cy"])
    rec["hands"] = [{"knock": 0, "counts": [50, 20, 30]}]  # a knock above the limit names him
    code, out, err = knockbox("replay", write(tmp_path / "g.json", rec))
    assert code == 1 and "count 50" in clean(out, err)


def test_show_of_an_invalid_imported_game_and_its_stored_error(tmp_path, db):
    rec = dict(E.game(E.M1), meta={"status": "invalid", "error": "record 2: " + EVIL})
    assert knockbox("import", write(tmp_path / "g.json", [rec]), "--db", db)[0] == 0
    for cmd in (["show", "1"], ["history"], ["export", "--csv"]):
        code, out, err = knockbox(*cmd, "--db", db)
        assert code == 0 and clean(out, err)
    code, out, err = knockbox("export", "--json", "--db", db)  # JSON's own escapes: same text
    assert not RAW.search(out) and json.loads(out)[0]["meta"]["error"] == "record 2: " + EVIL


def _journal():
    """Two games on a device; an event of no game and one of a game never started, with EVIL
    for their types (the rules core's "... before the game started" quotes it)."""
    evs = E.journal([E.game(E.M1), E.game(E.M3)])
    return evs + [{"t": EVIL}, {"t": EVIL, "g": 9}]


def test_what_a_device_sends(db):
    evs = _journal()
    hello = dict(HELLO, device="dev" + EVIL, board=EVIL, fw=EVIL)
    with FakeDevice(good_device(evs, hello=hello)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db)
    # device, board, firmware, the record of no game, the rules core on the game never started
    assert code == 1 and clean(out, err).count(SHOWN) >= 5, err
    for cmd in (["show", "3"], ["history"]):  # the game the rules core refused, its error
        clean(*knockbox(*cmd, "--db", db)[1:])
    # the same device erased (a new epoch), then with a journal shorter than the history's
    with FakeDevice(good_device(evs[:5], hello=dict(hello, epoch=1))) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db)
    assert "was erased since the last sync" in clean(out, err)  # (its pages say epoch 0)
    with FakeDevice(good_device(evs[:5], hello=hello)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db)
    assert "the history keeps its" in clean(out, err)


def test_a_device_s_error_reply(db):
    def refuse(req, page):
        return reply(req, error=EVIL + "\nknockbox: a line of its own")

    with FakeDevice(good_device(_journal(), refuse)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db, "--timeout", "2")
    assert code == 1 and "knockbox: the device refused events: " + SHOWN in clean(out, err)
    assert "\nknockbox: a line" not in err  # its line break too


def test_a_lock_file_s_holder(tmp_path, monkeypatch):
    """The simulator's lock file says who holds it and its serial port: what is not a knockbox's
    holder is not repeated, the port is shown escaped."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    sim = ports.default_sim_dir()
    with locks.Lock(os.path.join(sim, ports.SIM_LOCK)).acquire("it", EVIL, port="tty" + EVIL):
        code, out, err = knockbox("simulate", "--dir", sim, "--no-tty")
        assert code == 1 and "is in use by another knockbox" in clean(out, err, "in use by")
        monkeypatch.setattr(ports, "boards", lambda: [])  # no Pico on USB: the simulator's port
        code, out, err = knockbox("sync", "--db", str(tmp_path / "h.sqlite3"), "--timeout", "1")
        assert code == 1 and clean(out, err)


class _Nonsense:
    """mpremote's serial transport to a board whose every raw-REPL reply is an error."""

    serial = None  # (what deploy bounds its reads on: this board answers without it)

    def __init__(self, port, **kw):
        pass

    def enter_raw_repl(self, **kw):
        pass

    def exec_raw(self, code, timeout=None):
        return b"", ("Traceback:\n" + EVIL).encode()

    def close(self):
        pass


def test_what_a_board_says(monkeypatch):
    from mpremote import transport_serial

    monkeypatch.setattr(transport_serial, "SerialTransport", _Nonsense)
    code, out, err = knockbox("deploy", "--port", "/dev/null", "--dry-run")
    assert code == 1 and "the board said" in clean(out, err)


def test_json_on_stdout_keeps_the_device_s_text_as_json_escapes():
    """`push` prints the settings the device says it has: JSON, EVIL in it as JSON escapes."""
    settings = {"roster": ["Ann", EVIL], "lang": "en"}

    def answer(req, line):
        if req["op"] == "settings":
            return reply(req, ok=True, settings=settings)
        return reply(req, **HELLO) if req["op"] == "hello" else reply(req, ok=True)

    with FakeDevice(answer) as d:
        code, out, err = knockbox("push", "--port", d.path, "--timeout", "2")
    assert code == 0 and not RAW.search(out + err) and json.loads(out) == settings
