"""Hostile serial input on the emulated Pico: while a hand is entered with the buttons, thousands
of garbage, oversized, half and malformed lines arrive on the USB serial port. The device keeps
answering `hello`, keeps the game, and records the hand entered meanwhile.

Ctrl-C (0x03) is left out of the garbage: outside a sync session it is MicroPython's keyboard
interrupt on purpose, so that mpremote reaches the REPL (docs/PROTOCOL.md)."""

import json
import random
import threading
import time

from emu_plan import Planner

PLAYERS = ["Ann", "Bob", "Cy"]
DRAIN_WALL_S = 150  # the budget is 20 s of emulated time for 2,000 lines (bench/README.md)
HANDS = [{"knock": 0, "counts": [1, 2, 3]}, {"knock": 2, "counts": [3, 1, 1]}]


def garbage(rng):
    """~2,000 lines a confused or hostile host might send (none changes the device's
    data): random bytes, malformed requests, half lines, lines over the 1 KB limit."""
    fixed = [
        b'{"id": 1, "op": ',
        b"[1, 2, 3]",
        b'{"id": -5, "op": "hello"}',
        b'{"id": "x"}',
        b'{"id": 3, "op": "events", "after": "zz"}',
        b'{"id": 4, "op": "nope"}',
        b'{"id": 5, "op": "events", "after": -1, "limit": 999999}',
        b"[" * 300,
        b'{"id": 1e999, "op": "hello"}',
        b'{"id": 6, "op": "settings", "set": {"x": 1}}',
        b'{"id": 7, "op": "settings", "set": {"sleep_s": "soon"}}',
        b"null",
        b'"hello"',
        b'{"id": 8, "op": "roster", "players": []}',
        b"\xff\xfe\xfd",
        b"{}" * 100,
    ]
    noise = [b for b in range(256) if b not in (3, 10, 13)]
    out = [bytes(rng.choice(noise) for _ in range(rng.randint(1, 40))) + b"\n" for _ in range(1200)]
    out += [rng.choice(fixed) + rng.choice([b"\n", b"\r", b"\r\n"]) for _ in range(700)]
    out += [b'{"id": %d, "op": "hel' % i for i in range(80)]  # half lines: the next one ends them
    out += [b"x" * rng.randint(1025, 2500) + b"\n" for _ in range(10)]  # over the 1 KB limit
    rng.shuffle(out)
    return out


def test_hostile_serial_input_while_playing(device):
    assert device.wait_refresh(0, 120)
    device.wait_quiet(300)
    p = Planner()
    p.new_game(3, PLAYERS, {"dealer": 0})
    p.hand(HANDS[0])
    assert device.act(p.presses) == []
    a = len(p.presses)
    p.hand(HANDS[1])
    during = p.presses[a:]

    lines = garbage(random.Random(9))
    got = bytearray()
    done = threading.Event()
    port = device.serial(timeout=0.05)

    def reader():
        while not done.is_set():
            got.extend(port.read(4096))

    def writer():
        for ln in lines:
            port.write(ln)
        port.flush()

    rd = threading.Thread(target=reader, daemon=True)
    wr = threading.Thread(target=writer, daemon=True)
    rd.start()
    wr.start()
    time.sleep(1.0)  # the flood is under way
    device.act(during)
    pressed = list(device.act_log)
    wr.join(300)
    assert not wr.is_alive(), "the device stopped taking serial input"
    done.set()
    rd.join(5)
    sent_ms = device.emu_ms()
    reply = device.request(port, "hello", 1 << 28, timeout=DRAIN_WALL_S)
    drained_ms = device.emu_ms() - sent_ms
    port.close()
    assert reply and reply.get("ok") and reply.get("proto"), reply
    print(
        "%d hostile lines (%d KB): hello answered %.1f s (emulated) after the last one; "
        "%d KB of replies"
        % (len(lines), sum(map(len, lines)) // 1024, drained_ms / 1000, len(got) // 1024)
    )
    # whatever came back is whole JSON lines (after the last newline: a reply the reader, stopped
    # once the flood was written, took only the start of; hello's request read the rest)
    for ln in bytes(got).split(b"\n")[:-1]:
        if ln.strip():
            json.loads(ln)
    journal = device.journal()
    kinds = [e["t"] for _s, e in journal]
    assert kinds == ["epoch", "game", "hand", "hand"], journal
    assert [e["h"] for _s, e in journal if e["t"] == "hand"] == HANDS
    # how long the panel took to answer each press during the flood (emulated time)
    times = [f.t_us for f in device.frames().frames]
    lag = [
        min([t for t in times if t > start] or [float("inf")]) - start
        for _n, _k, _b, start, _end, _ok in pressed
    ]
    print(
        "press -> refresh during the flood: median %.0f ms, max %.0f ms"
        % (sorted(lag)[len(lag) // 2] / 1000, max(lag) / 1000)
    )
