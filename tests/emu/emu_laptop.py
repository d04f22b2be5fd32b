"""The laptop's side of an emulated Knockbox (tests/emu/emu_device.Device): the installed
`knockbox` tool run on its serial port with its own history, and the serial protocol spoken
directly (hello, events pages, bye) to read the journal back. Needs `tty` and `home`."""

import json
import os
import subprocess
import sys
import time

BIN = os.path.dirname(sys.executable)  # .venv/bin: knockbox


class Laptop:
    exe = os.path.join(BIN, "knockbox")  # the tool (test_emu_install: one installed elsewhere)
    cwd = None  # the folder it runs in (None: the test's)

    def knockbox(self, *args, timeout=120, check=True, input=None):
        """Run the laptop tool (KNOCKBOX_HOME: this device's own history)."""
        env = dict(os.environ, KNOCKBOX_HOME=self.home)
        p = subprocess.run(
            [self.exe] + [str(a) for a in args],
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            input=input,
        )
        if check and p.returncode != 0:
            raise AssertionError(
                "knockbox %s failed (%d):\n%s%s"
                % (" ".join(map(str, args)), p.returncode, p.stdout, p.stderr)
            )
        return p

    def sync(self, *args, **kw):
        return self.knockbox("sync", "--port", self.tty, *args, **kw)

    def push(self, *args, **kw):
        return self.knockbox("push", "--port", self.tty, *args, **kw)

    def history(self):
        return json.loads(self.knockbox("history", "--json").stdout)

    def show(self, gid):
        return json.loads(self.knockbox("show", "--json", gid).stdout)

    def serial(self, timeout=1.0):
        """The USB serial port, opened (pyserial). Close it before running knockbox."""
        import serial

        return serial.Serial(self.tty, 115200, timeout=timeout)

    def journal(self, timeout=20.0):
        """Every journal record on the device, read over the serial protocol (hello, events
        pages, bye): [(seq, event)]."""
        rid = int(time.time() * 1000) % (1 << 29)
        out = []
        with self.serial() as port:
            h = self.request(port, "hello", rid, timeout)
            if not h or not h.get("ok"):
                raise AssertionError("no hello from the device: %r" % (h,))
            after = 0
            while after < h["last_seq"]:
                rid += 1
                r = self.request(port, "events", rid, timeout, after=after)
                if not r or not r.get("ok"):
                    raise AssertionError("events after %d: %r" % (after, r))
                if not r["ev"]:
                    break
                out += [tuple(e) for e in r["ev"]]
                after = r["ev"][-1][0]
                h["last_seq"] = r["last_seq"]
            self.request(port, "bye", rid + 1, timeout)
        return out

    def request(self, port, op, rid, timeout=10.0, **args):
        """Send one protocol request on an open port and return its reply (skipping any other
        line, as the host does), or None after `timeout` wall seconds."""
        msg = dict(args, id=rid, op=op)
        port.write(b"\n" + json.dumps(msg).encode() + b"\n")
        end = time.time() + timeout
        buf = b""
        while time.time() < end:
            buf += port.read(port.in_waiting or 1)
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    r = json.loads(line.decode("utf-8", "replace"))
                except ValueError:
                    continue
                if isinstance(r, dict) and r.get("id") == rid:
                    return r
        return None
