# Base of the controller models: command/argument parsing, BUSY for N polls, errors, a log.


class Model:
    BUSY_LEVEL = 1
    WIDTH = 296  # landscape, as the viewer sees the panel
    HEIGHT = 128

    def __init__(self, busy_polls=3, refresh_polls=10):
        self.busy_polls = busy_polls  # polls a short operation (power, reset) stays busy
        self.refresh_polls = refresh_polls  # polls a refresh stays busy
        self.errors = []
        self.log = []  # completed commands: (cmd, bytes args)
        self.refreshes = []  # (kind, viewer image) per refresh; images packed, see new_image()
        self.cmd = None
        self.args = bytearray()
        self.busy_left = 0
        self.stuck = False  # BUSY never clears (for timeout tests)
        self.asleep = False
        self.busy_reads_asleep = 0  # BUSY polls while in deep sleep (a driver must not need them)
        self.reset_count = 0
        self.por()

    def refreshed(self, kind):
        # keep the viewer image of the last refresh only (heap: the unix port runs at 192k)
        if self.refreshes:
            self.refreshes[-1] = (self.refreshes[-1][0], None)
        self.refreshes.append((kind, self.viewer()))

    def error(self, msg):
        self.errors.append(msg)

    def poll_busy(self):
        if self.asleep:
            self.busy_reads_asleep += 1
        if self.stuck:
            return True
        if self.busy_left > 0:
            self.busy_left -= 1
            return True
        return False

    def go_busy(self, polls):
        self.busy_left = polls

    def on_reset_pin(self, v):
        if v == 0:
            self.flush()
            self.reset_count += 1
            self.asleep = False
            self.por()
            self.go_busy(self.busy_polls)

    def command(self, c):
        self.flush()
        if self.asleep:  # a controller in deep sleep ignores everything until a hardware reset
            self.error("command 0x%02x in deep sleep" % c)
            self.cmd = None
            return
        if self.busy_left > 0:
            self.error("command 0x%02x while busy" % c)
        self.cmd = c
        self.args = bytearray()
        self.start(c)

    def data(self, buf):
        if self.asleep:
            return
        if self.cmd is None:
            self.error("data without a command")
            return
        if not self.stream(self.cmd, buf):
            self.args.extend(buf)

    def flush(self):
        if self.cmd is not None:
            c = self.cmd
            self.cmd = None
            self.log.append((c, bytes(self.args)))
            self.end(c, bytes(self.args))

    def commands(self):
        self.flush()
        return [c for c, _ in self.log]

    def last_args(self, c):
        self.flush()
        found = None
        for k, a in self.log:
            if k == c:
                found = a
        return found

    # to override
    def por(self):
        pass

    def start(self, c):
        pass

    def stream(self, c, buf):
        return False

    def end(self, c, args):
        pass

    def viewer(self):
        raise NotImplementedError


ROW = 37  # bytes per row of a packed landscape image: 296 pixels, MSB first


def new_image():
    """A packed 296 x 128 landscape image, row-major, MSB = leftmost pixel, 1 = black."""
    return bytearray(ROW * 128)


def set_px(img, x, y):
    img[y * ROW + (x >> 3)] |= 0x80 >> (x & 7)


def get_px(img, x, y):
    return (img[y * ROW + (x >> 3)] >> (7 - (x & 7))) & 1
