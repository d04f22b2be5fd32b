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

if __debug__:  # (CPython's const(): MicroPython's compiler knows it, and -O3 drops this import)
    from micropython import const

# the bytes the scan looks for (ASCII)
_NL = const(10)  # "\n"
_SP = const(32)  # " "
_QUOTE = const(34)  # '"'
_COLON = const(58)  # ":"
_D0 = const(48)  # "0"
_D9 = const(57)  # "9"
_HEX_A = const(97)  # "a": hex digits are lowercase
_HEX_F = const(102)  # "f"
_A = const(97)  # "a"
_E = const(101)  # "e"
_G = const(103)  # "g"
_M = const(109)  # "m"
_T = const(116)  # "t"
_SHORTEST = const(13)  # the shortest line worth a look: "0 x 01234567\n"
_HEX = const(8)  # the CRC's hex digits, the last before the newline
_CRC_AT = const(_HEX + 1)  # the space before them, back from the newline
_INV = const(0xFFFFFFFF)  # CRC-32's inversion of its register, before and after


def crc_table():
    """The CRC-32 nibble table lines() takes: 16 words, entry n the register after the four bits
    of n from 0 (reflected polynomial 0xEDB88320), which is the byte table's entry n << 4:
    binascii.crc32 of that byte with its pre- and post-inversion undone. 16 calls, not a
    256-word table made in bytecode (slow on an RP2040) or in more native code."""
    t = array("I", bytes(64))
    for n in range(16):
        t[n] = crc32(bytes((n << 4,)), _INV) ^ _INV
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
        while j < n and b[j] != _NL:
            j += 1
        if j >= n:
            return got  # no complete line left
        end = j
        ln = end + 1 - pos
        if ln < _SHORTEST or b[end - _CRC_AT] != _SP:
            return -1 - got
        # seq: decimal digits up to the first space
        j = pos
        v = 0
        while j < end and b[j] >= _D0 and b[j] <= _D9:
            v = v * 10 + b[j] - _D0
            j += 1
        if j == pos or b[j] != _SP or v != seq:
            return -1 - got
        i = j
        # crc of everything before the space ahead of the 8 hex digits
        crc = uint(_INV)
        j = pos
        stop = end - _CRC_AT
        while j < stop:
            crc = uint(tab[(crc ^ uint(b[j])) & 0xF]) ^ (crc >> 4)  # low nibble, high
            crc = uint(tab[(crc ^ uint(b[j] >> 4)) & 0xF]) ^ (crc >> 4)
            j += 1
        crc = crc ^ uint(_INV)
        want = uint(0)
        j = end - _HEX
        while j < end:
            c = b[j]
            if c >= _D0 and c <= _D9:
                d = c - _D0
            elif c >= _HEX_A and c <= _HEX_F:
                d = c - (_HEX_A - 10)
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
            if b[j] == _QUOTE and b[j + 2] == _QUOTE and b[j + 3] == _COLON:
                if b[j + 1] == _G and g < 0:  # "g":
                    k = j + 4
                    if k < stop and b[k] >= _D0 and b[k] <= _D9:
                        g = 0
                        while k < stop and b[k] >= _D0 and b[k] <= _D9:
                            g = g * 10 + b[k] - _D0
                            k += 1
                elif b[j + 1] == _T and j + 9 < stop:  # "t":"game"
                    if (
                        b[j + 4] == _QUOTE
                        and b[j + 5] == _G
                        and b[j + 6] == _A
                        and b[j + 7] == _M
                        and b[j + 8] == _E
                        and b[j + 9] == _QUOTE
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
