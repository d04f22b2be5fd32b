"""`knockbox deploy` against a board whose raw REPL answers nonsense: a stand-in board on a pty
that speaks the raw REPL's protocol (or breaks it) and answers each command with garbage, random
or shaped like what the command prints, at one step of the deploy (the version, board.json, the
hashes, a folder, a copy) after the right answers before it. Whatever it says, deploy ends in
time with one clear line (never a traceback, never a hang)."""

import os
import re
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit.clirun import knockbox
from kit.ptydevice import open_pty, reads
from knockbox.link import rawrepl

BANNER = b"raw REPL; CTRL-B to exit\r\n>"
RP2 = b"((1, 28, 0), 6 | 3 << 8 | 4 << 10, 'rp2', 'Raspberry Pi Pico with RP2040')"
INFO = repr(((1, 28, 0), 6 | 3 << 8 | 4 << 10, "rp2", "Raspberry Pi Pico with RP2040")).encode()
STEPS = ("info", "read", "hashes", "mkdir", "write")


def step_of(code):
    """Which step of the deploy a command is (deploy's commands, knockbox.link.rawrepl's)."""
    if b"sys.implementation" in code:
        return "info"
    if b"binascii.hexlify" in code:
        return "read"
    if b"_walk" in code:
        return "hashes"
    if b"os.mkdir" in code:
        return "mkdir"
    if b"'wb')" in code or code.startswith(b"w(") or code == b"f.close()":
        return "write"
    return "other"


class NonsenseBoard:
    """A pty whose other end is a MicroPython board's raw REPL (Ctrl-A: the banner and a prompt;
    a command ended by Ctrl-D: OK, its output, Ctrl-D, its error output, Ctrl-D, the prompt;
    raw-paste mode refused) that answers right up to the step `wrong`, and there as `answer`
    says: ("ok", out, err) within the protocol, or ("raw", bytes) instead of it."""

    def __init__(self, wrong, answer):
        self.wrong, self.answer = wrong, answer
        self.master, self.slave, self.path = open_pty()
        self.closed = False
        threading.Thread(target=self._run, daemon=True).start()

    def _send(self, data):
        for i in range(0, len(data), 4096):
            if self.closed:
                return
            try:
                os.write(self.master, data[i : i + 4096])
            except OSError:
                return

    def _reply(self, code):
        step = step_of(code)
        if STEPS.index(self.wrong) > STEPS.index(step) if step in STEPS else step == "other":
            out = {"info": INFO, "read": b"-", "hashes": b""}.get(step, b"")
            return b"OK" + out + b"\r\n\x04\x04>"
        if self.answer[0] == "raw":
            return self.answer[1]
        _, out, err = self.answer
        return b"OK" + out + b"\x04" + err + b"\x04>"

    def _run(self):
        buf, raw = b"", False
        for data in reads(self.master):
            buf += data
            while buf:
                if not raw:
                    i = buf.find(b"\x01")
                    if i < 0:
                        buf = b""
                        break
                    buf, raw = buf[i + 1 :], True
                    self._send(BANNER)
                elif buf.startswith(b"\x05A\x01"):
                    buf = buf[3:]
                    self._send(b"R\x00")  # no raw-paste mode
                elif buf.startswith(b"\r\x02") or buf.startswith(b"\x02"):
                    buf, raw = buf[buf.index(b"\x02") + 1 :], False
                elif b"\x04" in buf:
                    code, buf = buf.split(b"\x04", 1)
                    self._send(self._reply(code.strip(b"\r\x03")))
                else:
                    break

    def close(self):
        self.closed = True
        for fd in (self.slave, self.master):
            try:
                os.close(fd)
            except OSError:
                pass


literal = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=4).map(tuple) | st.lists(inner, max_size=4),
    max_leaves=12,
)
out_text = st.one_of(
    st.binary(max_size=300),  # anything
    literal.map(lambda v: repr(v).encode()),  # a Python value of another shape
    st.tuples(literal, literal).map(lambda t: repr(t).encode()),
    st.sampled_from(
        [
            RP2.replace(b"'rp2'", b"rp2"),
            INFO.replace(b"28", b"2" * 5000),
            INFO[:-1] + b", 5)",
            b"(" * 5000 + b")" * 5000,
            b"('knockfw/app.mpy', 12)\r\n('x',)",
            b"zz" * 100,
            b"\xff\xfe" * 50,
        ]
    ),
)
answers = st.one_of(
    st.tuples(st.just("ok"), out_text, st.just(b"")),
    st.tuples(st.just("ok"), out_text, st.binary(min_size=1, max_size=400)),
    st.tuples(st.just("raw"), st.binary(max_size=200)),
    st.tuples(st.just("raw"), st.sampled_from([b"OK", b"OK\x04", b"O", b">", b"OKnever ends"])),
)


@pytest.fixture(scope="module")
def quick():
    """Short waits (a board that stops answering is given up on in a second or two), and the
    firmware compiled once (deploy caches it in the process)."""
    mp = pytest.MonkeyPatch()
    mp.setattr(rawrepl, "RAW_REPL_TIMEOUT", 3)
    mp.setattr(rawrepl, "COMMAND_TIMEOUT", 2, raising=False)
    yield
    mp.undo()


def deploy(board):
    t0 = time.monotonic()
    code, out, err = knockbox("deploy", "--port", board.path, "--board", "badger")
    return code, out, err, time.monotonic() - t0


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(wrong=st.sampled_from(STEPS), answer=answers)
def test_deploy_to_a_board_that_answers_nonsense_is_one_line(quick, wrong, answer):
    board = NonsenseBoard(wrong, answer)
    try:
        code, out, err, took = deploy(board)
    finally:
        board.close()
    assert code == 1, out + err
    assert err.startswith("knockbox: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err and len(err) < 600, err
    assert took < 60


def test_a_board_that_never_ends_its_answer_is_given_up_on(quick):
    """A board that streams output without end (no Ctrl-D): deploy reads at most REPLY_MAX and
    gives up in one line."""
    board = NonsenseBoard("info", ("raw", b"OK" + b"(1, 2, 3) " * 300_000))
    try:
        code, out, err, took = deploy(board)
    finally:
        board.close()
    assert code == 1 and err.count("\n") == 1, err
    assert re.match(r"knockbox: lost the board at \S+ \(a command\): ", err), err
    assert took < 60
