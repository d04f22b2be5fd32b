"""Headless Chromium for the tests (Debian's `chromium`, installed by scripts/setup), driven
through the DevTools protocol over a pipe (--remote-debugging-pipe: JSON messages ended by NUL
on fds 3 and 4), so no port, no websocket library and no driver are needed.

    with Chromium() as b:
        page = b.open("file:///.../report.html")   # waits for the load event
        page.evaluate("document.title")             # a JSON-able value
        png = page.screenshot()                      # the whole page, PNG bytes
        page.requests                                # every URL the page asked for

The browser gets a fresh profile, and any network it might try goes to a proxy that does not
exist (127.0.0.1:9) with every host name unresolvable: a page that fetched anything would show
it in page.requests and get nothing.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]


def executable():
    """The Chromium to run, or None."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Chromium:
    def __init__(self, exe=None, timeout=30.0):
        self.exe = exe or executable()
        if self.exe is None:
            raise BrowserError("no chromium (scripts/setup installs Debian's package as root)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="kb-chromium-")
        to_r, self._to = os.pipe()          # we write commands, it reads fd 3
        self._from, from_w = os.pipe()      # it writes replies on fd 4
        # park both ends above 4 first, so dup2 to 3 and 4 cannot clobber one another
        hi = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_r, from_w)]
        os.close(to_r)
        os.close(from_w)

        def fds():
            os.dup2(hi[0], 3)
            os.dup2(hi[1], 4)

        self.proc = subprocess.Popen([self.exe] + FLAGS + ["--user-data-dir=" + self.profile],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        for fd in hi:
            os.close(fd)
        self._buf = b""
        self._id = 0
        self.events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close", timeout=5)
                except (BrowserError, OSError):
                    pass
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            for fd in (self._to, self._from):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    # ---- the protocol

    def send(self, method, params=None, session=None, timeout=None):
        """Send one command and wait for its reply's result (events meanwhile are kept)."""
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to, json.dumps(msg).encode() + b"\0")
        want = self._id
        while True:
            m = self._next(timeout or self.timeout)
            if m.get("id") == want:
                if "error" in m:
                    raise BrowserError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session=None, timeout=None):
        """The first event named method (kept ones first)."""
        end = time.monotonic() + (timeout or self.timeout)
        while True:
            for m in self.events:
                if m.get("method") == method and (session is None or
                                                  m.get("sessionId") == session):
                    return m
            self.events.append(self._next(max(end - time.monotonic(), 0.01)))

    def _next(self, timeout):
        end = time.monotonic() + timeout
        while b"\0" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._from], [], [], left)[0]:
                raise BrowserError("chromium did not answer within %g s" % timeout)
            chunk = os.read(self._from, 1 << 20)
            if not chunk:
                raise BrowserError("chromium exited (code %s)" % self.proc.poll())
            self._buf += chunk
        line, self._buf = self._buf.split(b"\0", 1)
        return json.loads(line)

    def open(self, url, width=1100, height=900):
        """A new tab showing url, once its load event has fired."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target,
                                                      "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Network", "Runtime", "Log"):
            page.send(domain + ".enable")
        page.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1,
                                                         "mobile": False})
        page.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired", session)
        return page


class Page:
    def __init__(self, browser, session):
        self.browser = browser
        self.session = session

    def send(self, method, params=None):
        return self.browser.send(method, params, self.session)

    def _events(self, method):
        return [m["params"] for m in self.browser.events
                if m.get("sessionId") == self.session and m.get("method") == method]

    @property
    def requests(self):
        """The URL of every request the page made (its own document included)."""
        return [e["request"]["url"] for e in self._events("Network.requestWillBeSent")]

    @property
    def problems(self):
        """Console errors, log errors (a blocked load, a CSP violation) and exceptions."""
        out = [e["entry"]["text"] for e in self._events("Log.entryAdded")
               if e["entry"]["level"] in ("error", "warning")]
        out += [json.dumps(e["args"]) for e in self._events("Runtime.consoleAPICalled")
                if e["type"] in ("error", "warning")]
        out += [e["exceptionDetails"]["text"] for e in self._events("Runtime.exceptionThrown")]
        return out

    def evaluate(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in r:
            raise BrowserError("script: %s" % r["exceptionDetails"].get("text"))
        return r["result"].get("value")

    def screenshot(self, clip=None):
        """PNG bytes of the whole page (or of clip = {x, y, width, height})."""
        size = self.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        area = clip or {"x": 0, "y": 0, "width": size[0], "height": size[1]}
        r = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                 "clip": dict(area, scale=1)})
        return base64.b64decode(r["data"])
