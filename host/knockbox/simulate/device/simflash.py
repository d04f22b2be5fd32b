# Block devices for littlefs off the Pico: a RAM one (tests, benchmarks) and a file-backed one
# (the simulator's persistent /data). Both speak MicroPython's extended block protocol, like the
# rp2 flash: readblocks(n, buf, off), writeblocks(n, buf, off) programs without erasing,
# ioctl(6, n) erases block n. Not needed on the device (rp2 mounts its own flash).
#
# Flash semantics kept: erase sets a block to 0xFF; programming is a plain copy (littlefs only
# programs erased bytes). `writes` and `erases` count operations, for tests and benchmarks.

from micropython import const

from knockfw import DATA

_BS = const(4096)  # the rp2 flash block (sector) size
_FF256 = b"\xff" * 256
PROG = 256  # the rp2 port mounts its flash with VfsLfs2(bdev, progsize=256)


class RAMBlockDevice:
    def __init__(self, blocks=64, block_size=_BS, data=None):
        self.block_size = block_size
        self.blocks = blocks
        self.writes = 0
        self.erases = 0
        if data is None:
            data = bytearray(blocks * block_size)
            self.data = data
            for n in range(blocks):
                self._erase(n)
        self.data = data

    def readblocks(self, n, buf, off=0):
        a = n * self.block_size + off
        buf[:] = memoryview(self.data)[a : a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # simple protocol: erase whole blocks first
            for i in range(len(buf) // self.block_size):
                self.ioctl(6, n + i)
            off = 0
        self.writes += 1
        self._program(n * self.block_size + off, buf)

    def _program(self, a, buf):
        self.data[a : a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase block arg
            self.erases += 1
            self._erase(arg)
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do

    def _erase(self, n):
        a = n * self.block_size
        for i in range(a, a + self.block_size, 256):
            self.data[i : i + 256] = _FF256


class FileBlockDevice(RAMBlockDevice):
    """littlefs image in a file; every write goes straight to the file (no RAM copy of the image).

    Each program or erase is one write() to the OS, done before writeblocks returns, so killing
    the simulator at any moment leaves the image as a power cut between two flash operations
    would: littlefs recovers from that on the next mount."""

    def __init__(self, path, blocks=128, block_size=_BS):
        self.block_size = block_size
        self.blocks = blocks
        self.writes = 0
        self.erases = 0
        size = blocks * block_size
        try:
            self._f = open(path, "r+b")
        except OSError:
            self._f = open(path, "w+b")
        f = self._f
        f.seek(0, 2)
        have = f.tell()
        if have < size:  # new (or short) image: pad with erased flash
            while have < size:
                f.write(_FF256[: min(256, size - have)])
                have = f.tell()
            f.flush()

    def readblocks(self, n, buf, off=0):
        self._f.seek(n * self.block_size + off)
        self._f.readinto(buf)

    def _program(self, a, buf):
        self._f.seek(a)
        self._f.write(buf)

    def _erase(self, n):
        # In 256-byte pieces from one constant: a 4 KB temporary per erase fragments a small heap.
        self._f.seek(n * self.block_size)
        for _ in range(self.block_size // 256):
            self._f.write(_FF256)

    def close(self):
        self._f.close()


def mount(bdev, where=DATA, fresh=False):
    """Mount bdev with littlefs v2 at `where` as rp2 does, formatting it if it holds none (or
    always: fresh=True); whatever was mounted at `where` is unmounted first."""
    import vfs

    try:
        vfs.umount(where)
    except OSError:
        pass
    if fresh:
        vfs.VfsLfs2.mkfs(bdev, progsize=PROG)
    try:
        fs = vfs.VfsLfs2(bdev, progsize=PROG)
    except OSError:
        vfs.VfsLfs2.mkfs(bdev, progsize=PROG)
        fs = vfs.VfsLfs2(bdev, progsize=PROG)
    vfs.mount(fs, where)
    return fs
