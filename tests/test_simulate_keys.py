"""knockbox simulate's key plans (knockbox.simulate.keys and the script front end): the key-file
lines of the key protocol, script lines, terminal keys (taps, holds the terminal repeats, keys
typed ahead), and when the board has played them; on a clock the tests hold."""

import os

import pytest

from knockbox.simulate import keys


def test_tty_keys():
    p = keys.parse_tty_keys
    T, L = keys.TAP_MS, keys.LONG_MS
    assert p(b"abc") == [("a", T), ("b", T), ("c", T)]
    assert p(b"ABC") == [("a", L), ("b", L), ("c", L)]
    assert p(b"\x1b[A\x1b[B\x1bOA\x1b[1;2B") == [("up", T), ("down", T), ("up", T), ("down", T)]
    assert p(b"kj") == [("up", T), ("down", T)]
    assert p(b"KJ") == [("up", L), ("down", L)]  # held: +5 / -5 when entering counts
    assert p(b"x\x1b[C\x1b[5~z") == []  # other keys and sequences do nothing
    assert p(b"q") == [("quit", 0)] and p(b"\x03") == [("quit", 0)]


def test_script_lines():
    p = keys.parse_script_line
    T, L = keys.TAP_MS, keys.LONG_MS
    assert p("a") == ("press", "a", T)
    assert p("A") == ("press", "a", L)
    assert p("b long") == ("press", "b", L)
    assert p("up hold 1500") == ("press", "up", 1500)
    assert p("down") == ("press", "down", T)
    assert p("k") == ("press", "up", T)
    assert p("wait 250") == ("wait", None, 250)
    assert p("quit") == ("quit", None, 0)
    assert p("  ") is None and p("# comment") is None
    for bad in ("x", "a sideways", "wait", "wait soon", "up hold -5"):
        with pytest.raises(ValueError):
            p(bad)


def lines(path):
    with open(path) as f:
        return f.read().splitlines()


def test_key_file_lines_and_when_the_board_has_played_them(tmp_path):
    path = str(tmp_path / "keys")
    with open(path, "w") as f:
        f.write("press a 120\n")
    k = keys.KeyFile(path)
    assert lines(path) == []  # old lines never replay
    k.press("a", at=0)  # typed while the firmware boots: kept, in order
    k.press("b", keys.LONG_MS, at=10)
    k.wait(500, at=20)
    assert not k.played(10**9)  # the board is not up: nothing is played yet
    k.firmware_up(at=5000)  # first frame: the queue starts about now
    # a + gap, b + gap, the wait
    end = 5000 + (120 + keys.GAP_MS) + (800 + keys.GAP_MS) + 500
    assert k.done_at == end and not k.played(end - 1) and k.played(end)
    k.press("c", at=end + 1000)  # written while the queue is idle: starts then
    assert k.done_at == end + 1000 + 120 + keys.GAP_MS
    k.down("up", at=end + 2000)
    assert k.held == {"up"} and k.ahead(end + 2000) == 0
    k.up("up", at=end + 2500)
    assert not k.held and k.lines == 6 and k.ahead(end + 2500) == keys.GAP_MS
    assert lines(path) == [
        "press a 120",
        "press b 800",
        "wait 500",
        "press c 120",
        "down up",
        "up up",
    ]
    with pytest.raises(ValueError):
        k.press("left")
    with pytest.raises(ValueError):
        k.wait(-1)


def test_script_goes_to_the_board_a_little_ahead_of_it(tmp_path):
    import io

    from knockbox.simulate.session import QUIT_SETTLE_MS, ScriptFront

    path = str(tmp_path / "keys")
    k = keys.KeyFile(path)
    r, w = os.pipe()
    out, err = io.StringIO(), io.StringIO()
    front = ScriptFront(k, os.fdopen(r), out, err, str(tmp_path))
    front.read(b"a\n" * 30 + b"bogus\nwait 1000\nquit\nb\n")
    assert "knockbox: unknown key 'bogus'" in err.getvalue()
    assert front.input_fd() is None  # nothing after "quit" is read
    press = keys.TAP_MS + keys.GAP_MS
    ahead = -(-ScriptFront.AHEAD_MS // press)  # presses that make AHEAD_MS of board time
    front.tick(0)  # typed ahead of the boot: written at once
    assert len(lines(path)) == ahead
    k.firmware_up(at=1000)
    assert front.tick(1000) == 1000 + ahead * press - ScriptFront.AHEAD_MS
    assert len(lines(path)) == ahead  # the board is still busy with those
    for t in range(1000, 1000 + 40 * press, 10):
        due = front.tick(t)
        assert k.ahead(t) <= ScriptFront.AHEAD_MS + 1000  # (the longest line: the wait)
    assert lines(path) == ["press a 120"] * 30 + ["wait 1000"]
    end = 1000 + 30 * press + 1000
    assert due == end + QUIT_SETTLE_MS and front.quitting
    assert not front.finished(due - 1) and front.finished(due)
    front.last_frame = due  # a refresh still coming out: wait for it
    assert not front.finished(due) and front.finished(due + QUIT_SETTLE_MS)
    os.close(w)


def test_terminal_keys_taps_holds_and_typed_ahead(tmp_path):
    path = str(tmp_path / "keys")
    t = keys.TerminalKeys(keys.KeyFile(path))
    T, L = keys.TAP_MS, keys.LONG_MS
    # typed ahead while the simulator started: one read, every key a press, in order
    t.typed([("a", T), ("up", T), ("up", T), ("b", L), ("down", T)], now=0)
    assert lines(path) == ["press a 120", "press up 120", "press up 120", "press b 800"]
    assert t.tick(50) == keys.REPEAT_MS  # the last arrow waits to be told from a hold
    assert t.tick(keys.REPEAT_MS) is None
    assert lines(path)[-1] == "press down 120"
    # an arrow the terminal repeats (reads quicker than REPEAT_MS) is a held button, until repeats stop
    t.typed([("up", T)], now=1000)
    t.typed([("up", T)], now=1500)  # the terminal's first repeat comes late: a press
    for ms in range(1533, 2000, 33):
        t.typed([("up", T)], now=ms)
    assert t.held() == "up"
    assert lines(path)[-2:] == ["press up 120", "down up"]
    assert t.tick(1990 + keys.RELEASE_MS - 1) is not None and t.held() == "up"
    t.tick(1996 + keys.RELEASE_MS)
    assert t.held() is None and lines(path)[-1] == "up up"
    # another key ends a held or waiting arrow first: the lines keep the typing order
    t.typed([("down", T)], now=3000)
    t.typed([("down", T)], now=3030)
    t.typed([("c", T)], now=3060)
    t.typed([("up", T)], now=3100)
    t.typed([("a", L)], now=3120)
    assert lines(path)[-5:] == [
        "down down",
        "up down",
        "press c 120",
        "press up 120",
        "press a 800",
    ]
    assert t.tick(10**6) is None
