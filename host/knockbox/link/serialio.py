"""Talking to a Knockbox over USB serial (docs/PROTOCOL.md): open the port (knockbox.link.ports finds
it and keeps it for one process) with pyserial, send requests with ids and wait for the matching
reply within a timeout. Connection has one method per operation of the device's link
(firmware/knockfw/link.py's _op_* handlers): hello() (which checks the device speaks our
protocol version, knockcore.proto, shared with the device), events(), settings(), faults(),
erase(), bye(); the op names are written there only, and tests/test_protocol_contract.py keeps
them the same as the device's and docs/PROTOCOL.md's.

Every failure becomes a LinkError (a UserError: `knockbox: message`, exit 1): no port, a port
that cannot be opened, a device that says nothing, answers garbage, or goes away mid-sync.
"""

from __future__ import annotations

import json
import time
from typing import Any, TYPE_CHECKING

from knockbox.link import ports
from knockbox.usererror import UserError
from knockbox.textsafe import visible
from knockbox.files import half_character
from knockbox.plural import count
from knockcore import proto

if TYPE_CHECKING:
    from knockbox.records import Record
    from knockbox.locks import Lock

TIMEOUT = 5.0  # seconds to wait for a reply
MAX_REPLY = 1 << 20  # a longer reply line is garbage
MIN_RATE = 500  # bytes/s a streaming reply must average, beyond the timeout
_SEEN = 200  # bytes of unexpected output quoted in an error


class LinkError(UserError):
    """The serial link failed: no device, no answer, garbage, or the port went away."""


class DeviceError(UserError):
    """The device understood the request and refused it (an {"error": ...} reply)."""


class Connection:
    """One open serial port to a device: a method per device operation, over request(), which
    sends one request line and returns its reply."""

    def __init__(self, port: str, timeout: float = TIMEOUT) -> None:
        import serial

        self.port = port
        self.timeout = timeout
        self._serial_error = serial.SerialException
        try:
            self.ser = serial.serial_for_url(
                port, baudrate=115200, timeout=0.05, write_timeout=timeout
            )
        except (serial.SerialException, OSError, ValueError) as e:
            raise LinkError(ports.refused(port, e)) from None
        self._buf = b""
        self._id = int(time.time() * 1000) % (proto.ID_MAX // 4)  # so old replies never match
        self.unexpected = b""  # output that was not a reply to us, for error messages
        self.held: Lock | None = None  # the port's lock (open_device), released by close()

    def close(self) -> None:
        try:
            self.ser.close()
        except Exception:  # noqa: BLE001 - closing a dead port is not worth an error
            pass
        if self.held is not None:
            self.held.release()
            self.held = None

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- lines

    def _write(self, data: bytes) -> None:
        try:
            self.ser.write(data)
            self.ser.flush()
        except (self._serial_error, OSError) as e:
            raise LinkError("lost the connection to %s: %s" % (self.port, _why(e))) from None

    def _readline(
        self,
        deadline: list[Any],  # [float, float | None]: see below
        mine: bytes | None = None,
        patience: float = 0.0,
        op: str | None = None,
    ) -> bytes | None:
        """The next complete line (without its newline), or None at the deadline (deadline[0],
        seconds of time.monotonic()). While the line coming in starts with `mine` (the reply
        being waited for: an events page streams in over a while), each new piece of it moves
        the deadline to `patience` seconds after that piece, as long as the reply comes at
        MIN_RATE bytes a second on average, beyond `patience`, from its first piece (when:
        deadline[1]); a reply that trickles slower is a LinkError."""
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                line, self._buf = self._buf[:i], self._buf[i + 1 :]
                return line
            if len(self._buf) > MAX_REPLY:
                self._seen(self._buf)
                raise LinkError(
                    "the device on %s sent a line longer than %d bytes: not the "
                    "Knockbox protocol" % (self.port, MAX_REPLY)
                )
            if time.monotonic() >= deadline[0]:
                return None
            try:
                n = self.ser.in_waiting
                chunk = self.ser.read(n if n > 0 else 1)
            except (self._serial_error, OSError) as e:
                raise LinkError("lost the connection to %s: %s" % (self.port, _why(e))) from None
            self._buf += chunk
            if chunk and mine and self._buf.startswith(mine):
                now = time.monotonic()
                if deadline[1] is None:
                    deadline[1] = now
                if now - deadline[1] > patience + len(self._buf) / MIN_RATE:
                    raise LinkError(
                        "the device on %s sends its reply to %s too slowly (%s "
                        "in %.0f s): is the cable or the port faulty?"
                        % (self.port, op, count(len(self._buf), "byte"), now - deadline[1])
                    )
                deadline[0] = max(deadline[0], now + patience)

    def _seen(self, b: bytes) -> None:
        self.unexpected = (self.unexpected + b + b"\n")[-_SEEN:]

    # ---- requests

    def send(self, op: str, **args: object) -> int:
        """Send a request for op (one of knockcore.proto.OPS); returns its id."""
        if op not in proto.OPS:
            raise ValueError("not an op of the protocol: %r" % (op,))
        self._id = (self._id + 1) % (proto.ID_MAX + 1)
        req = {"id": self._id, "op": op}
        req.update(args)
        self._write(json.dumps(req, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
        return self._id

    def wait(self, rid: int, op: str, timeout: float | None = None) -> dict[str, Any]:
        """The reply to request rid (a dict with "ok"); DeviceError for an error reply."""
        t = self.timeout if timeout is None else timeout
        deadline = [time.monotonic() + t, None]
        mine = b'{"id":%d,' % rid  # how the device starts a reply it streams (a page)
        while True:
            line = self._readline(deadline, mine, t, op)
            if line is None:
                if self._buf.startswith(mine):
                    raise LinkError(
                        "the device on %s stopped part way through its reply to %s "
                        "(%s, then nothing for %g s)"
                        % (self.port, op, count(len(self._buf), "byte"), t)
                    )
                raise self._silence(op, timeout)
            rep = _parse(line)
            if rep is None or rep.get("id") != rid:
                if rep is None and line.strip():
                    self._seen(line)
                continue  # garbage, or a late reply to an older request
            if "error" in rep:
                raise DeviceError("the device refused %s: %s" % (op, visible(str(rep["error"]))))
            if rep.get("ok") is not True:
                self._seen(line)
                raise LinkError(
                    "the device on %s sent a malformed reply to %s: %s"
                    % (self.port, op, _quote(line))
                )
            return rep

    def request(self, op: str, timeout: float | None = None, **args: object) -> dict[str, Any]:
        """Send request `op` with `args` and wait for its reply: the transport under the
        operation methods below."""
        return self.wait(self.send(op, **args), op, timeout)

    def _silence(self, op: str, timeout: float | None) -> LinkError:
        t = self.timeout if timeout is None else timeout
        if self._buf.strip():  # a half line: not ours either
            self._seen(self._buf[-_SEEN:])
        if self.unexpected.strip():
            return LinkError(
                "the device on %s did not answer %s within %g s; it sent "
                "something else: %s (is it running the Knockbox app? a board at "
                "the MicroPython prompt does not answer)"
                % (self.port, op, t, _quote(self.unexpected))
            )
        return LinkError(
            "no answer to %s from %s within %g s (is the Knockbox plugged in and "
            "switched on?)" % (op, self.port, t)
        )

    # ---- the device's operations (link.py's _op_* handlers; docs/PROTOCOL.md says each field)

    def hello(self) -> dict[str, Any]:
        """Start a session: end any half line the device holds, then ask who it is; the reply,
        once check_proto() accepts it. Reply fields: `proto`, `device`, `fw`, `format`,
        `board`, `epoch`, `last_seq`, `battery`."""
        try:
            self.ser.reset_input_buffer()
        except (self._serial_error, OSError) as e:
            raise LinkError("cannot use %s: %s" % (self.port, _why(e))) from None
        self._buf = b""
        self._write(b"\n")
        return check_proto(self.request("hello"))

    def events(self, after: int = 0, limit: int = proto.EVENTS_MAX) -> dict[str, Any]:
        """One page of the journal: the records after seq `after`, at most `limit` (the device
        sends at most EVENTS_MAX). Reply fields: `ev` ([[seq, event], ...]), `epoch`,
        `last_seq` (the journal's when the page ended)."""
        return self.request("events", after=after, limit=limit)

    def settings(self, changes: Record | None = None) -> Record:
        """The device's settings, after applying `changes` (a partial settings object; none:
        only read them). Reply fields: `settings`."""
        return self.request("settings", **_given(set=changes or None))

    def faults(self, clear: int | None = None) -> Record:
        """The device's fault records; clear=N (the size read before) removes them if the
        device still holds exactly N bytes. Reply fields: `faults` (their text), `size`."""
        return self.request("faults", **_given(clear=clear))

    def erase(self, last_seq: int | None = None, timeout: float | None = None) -> Record:
        """Erase the device's games once someone holds A on it (the reply waits for the press,
        up to `timeout`); refused if its journal has moved on from `last_seq`. Reply fields:
        `erased`, `epoch`, `last_seq`."""
        return self.request("erase", timeout=timeout, **_given(last_seq=last_seq))

    def bye(self) -> None:
        """End the session (Ctrl-C works again on the device); errors ignored. Reply fields:
        none."""
        try:
            self.request("bye", timeout=1.0)
        except UserError:
            pass


def check_proto(hello: dict[str, Any]) -> dict[str, Any]:
    """The hello reply, if its protocol version is ours; else a UserError saying what to update."""
    v = hello.get("proto")
    if type(v) is not int:
        raise LinkError(
            "the device's hello has no protocol version (proto %r): not a Knockbox?" % (v,)
        )
    if v > proto.PROTO:
        raise UserError(
            "the device speaks serial protocol %d, newer than this knockbox's (%d): "
            "update knockbox" % (v, proto.PROTO)
        )
    if v != proto.PROTO:
        raise UserError(
            "the device speaks serial protocol %d, older than this knockbox's (%d): "
            "update its firmware with `knockbox deploy`" % (v, proto.PROTO)
        )
    return hello


def _given(**args: object) -> dict[Any, Any]:
    """The optional arguments of a request that have a value (None: leave it out)."""
    return {k: v for k, v in args.items() if v is not None}


def _parse(line: bytes) -> Record | None:
    try:
        rep = json.loads(line)
    except (ValueError, RecursionError):  # UnicodeDecodeError; "[[[[..." nested too deep
        return None
    return rep if isinstance(rep, dict) and not half_character(rep, line.decode()) else None


def _quote(b: bytes) -> str:
    s = b.decode("utf-8", "replace").strip()
    s = " | ".join(x.strip() for x in s.replace("\r", "\n").split("\n") if x.strip())
    s = "".join(c if c.isprintable() else "\\x%02x" % (ord(c) & 0xFF) for c in s)
    return repr(s[:120] + ("..." if len(s) > 120 else ""))


def _why(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e) or e.__class__.__name__


def open_device(
    port: str | None = None, timeout: float = TIMEOUT, command: str = "knockbox sync"
) -> Connection:
    """A Connection to the device on `port` (else the board or simulator knockbox.link.ports finds),
    for this process alone until it is closed: another `command` on the port is refused."""
    device = ports.find(port).device
    held = ports.lock(device, command)
    try:
        conn = Connection(device, timeout)
    except BaseException:
        held.release()
        raise
    conn.held = held
    return conn
