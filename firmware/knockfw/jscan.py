# The journal's boot scan in native code (@micropython.viper): checking every record's sequence
# number and CRC in bytecode took a large share of a 300-hand journal's boot on an RP2040; here
# a fraction of it (bench/bench_journal.py and bench/bench_pico.py measure the boot). Native
# code: on the Pico this module is
# compiled with mpy-cross -march=armv6m (firmware/manifest.py); the unix port compiles it for
# its own CPU.
#
# A record is one line "<seq> <json> <crc>\n" (knockfw.journal): seq in decimal, crc the CRC-32
# (binascii.crc32, IEEE) of "<seq> <json>" as 8 lowercase hex digits.
from array import array
from binascii import crc32

import micropython


def crc_table():
    """The CRC-32 nibble table lines() takes: 16 words, entry n the register after the four bits
    of n from 0 (reflected polynomial 0xEDB88320), which is the byte table's entry n << 4:
    binascii.crc32 of that byte with its pre- and post-inversion undone. 16 calls, not a
    256-word table made in bytecode (slow on an RP2040) or in more native code."""
    t = array("I", bytes(64))
    for n in range(16):
        t[n] = crc32(bytes((n << 4,)), 0xFFFFFFFF) ^ 0xFFFFFFFF
    return t


def lines(buf, n, seq, table, out, cap):
    """Check the complete lines at the start of buf[0:n], the first of which must be record
    `seq`, the next seq + 1, and so on. For each good line, out (array "i") gets four ints: the
    line's start in buf, its length (newline included), the number after `"g":` (-1 without
    one) and 1 if the line has `"t":"game"`, else 0. Stops at the first bad line, after `cap`
    lines, or when no newline follows. Returns the number of good lines, or -1 - that number
    when a bad line stopped it (a line without its newline is not bad: read on)."""
    return _lines(buf, 0, 0, n, seq, table, out, cap)


# The native code keeps only a function's first three locals in registers (ARMv6-M: r4-r6), the
# rest on the stack, one load and store each time one is used: the buffer, the index every loop
# walks it with and the CRC come first, as parameters (j and crc start at 0 whatever is given).
# ~1.5x quicker than with the parameters of lines() first (measured on the emulated Pico: a
# 2 KB chunk of journal in 2.3 ms instead of 3.4).
@micropython.viper
def _lines(b: ptr8, j: int, crc: uint, n: int, seq: int, tab: ptr32, out: ptr32, cap: int) -> int:
    got = 0
    pos = 0
    while got < cap:
        j = pos  # find the newline
        while j < n and b[j] != 10:
            j += 1
        if j >= n:
            return got  # no complete line left
        end = j
        ln = end + 1 - pos
        if ln < 13 or b[end - 9] != 32:
            return -1 - got
        # seq: decimal digits up to the first space
        j = pos
        v = 0
        while j < end and b[j] >= 48 and b[j] <= 57:
            v = v * 10 + b[j] - 48
            j += 1
        if j == pos or b[j] != 32 or v != seq:
            return -1 - got
        i = j
        # crc of everything before the space ahead of the 8 hex digits
        crc = uint(0xFFFFFFFF)
        j = pos
        stop = end - 9
        while j < stop:
            crc = uint(tab[(crc ^ uint(b[j])) & 0xF]) ^ (crc >> 4)  # low nibble, high
            crc = uint(tab[(crc ^ uint(b[j] >> 4)) & 0xF]) ^ (crc >> 4)
            j += 1
        crc = crc ^ uint(0xFFFFFFFF)
        want = uint(0)
        j = end - 8
        while j < end:
            c = b[j]
            if c >= 48 and c <= 57:
                d = c - 48
            elif c >= 97 and c <= 102:
                d = c - 87
            else:
                return -1 - got
            want = (want << 4) | uint(d)
            j += 1
        if want != crc:
            return -1 - got
        # "g":<digits> and "t":"game" anywhere in the record
        g = -1
        game = 0
        j = i
        while j + 4 < stop:
            if b[j] == 34 and b[j + 2] == 34 and b[j + 3] == 58:
                if b[j + 1] == 103 and g < 0:  # "g":
                    k = j + 4
                    if k < stop and b[k] >= 48 and b[k] <= 57:
                        g = 0
                        while k < stop and b[k] >= 48 and b[k] <= 57:
                            g = g * 10 + b[k] - 48
                            k += 1
                elif b[j + 1] == 116 and j + 9 < stop:  # "t":"game"
                    if (
                        b[j + 4] == 34
                        and b[j + 5] == 103
                        and b[j + 6] == 97
                        and b[j + 7] == 109
                        and b[j + 8] == 101
                        and b[j + 9] == 34
                    ):
                        game = 1
            j += 1
        o = got << 2
        out[o] = pos
        out[o + 1] = ln
        out[o + 2] = g
        out[o + 3] = game
        got += 1
        seq += 1
        pos = end + 1
    return got
