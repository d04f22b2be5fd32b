"""Headless Chromium for the tests and the README's pictures: Debian's `chromium` (installed by
scripts/setup --system) driven by Playwright for Python through `executable_path`, so no browser is
downloaded.

    with Chromium() as b:
        page = b.open("file:///.../report.html")   # waits for the load event
        page.evaluate("document.title")             # a JSON-able value
        png = page.screenshot()                      # the whole page, PNG bytes
        page.requests                                # every URL the page asked for
        page.problems                                # console errors and warnings, exceptions
        page.page                                    # the Playwright page itself

Every request a page makes is seen by a route that lets file: URLs through and refuses the rest
(so a page that tried the network shows it in page.requests and gets nothing); the browser also
has a proxy that does not exist (127.0.0.1:9) and every host name unresolvable.
"""

import shutil

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--proxy-server=127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--hide-scrollbars",
    "--mute-audio",
]


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
            raise BrowserError("no chromium (scripts/setup --system installs Debian's package)")
        self.timeout = timeout
        self._pw = sync_playwright().start()
        try:
            self.browser = self._pw.chromium.launch(
                executable_path=self.exe, args=FLAGS, headless=True, timeout=timeout * 1000
            )
        except PlaywrightError as e:
            self._pw.stop()
            raise BrowserError("chromium did not start: %s" % e) from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.browser.close()
        finally:
            self._pw.stop()

    def open(self, url, width=1100, height=900):
        """A new tab (in a context of its own) showing url, once its load event has fired."""
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1
        )
        ctx.set_default_timeout(self.timeout * 1000)
        page = Page(ctx.new_page())
        page.go(url)
        return page


class Page:
    def __init__(self, page):
        self.page = page
        self.requests = []  # the URL of every request (its own document included)
        self.problems = []  # console errors and warnings, uncaught exceptions
        page.route("**/*", self._route)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.problems.append(str(e)))

    def _route(self, route):
        url = route.request.url
        self.requests.append(url)
        if url.startswith("file:"):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    def _console(self, msg):
        if msg.type in ("error", "warning"):
            self.problems.append(msg.text)

    def go(self, url):
        """Show url (in this tab), once its load event has fired."""
        try:
            self.page.goto(url, wait_until="load")
        except PlaywrightError as e:
            raise BrowserError("%s: %s" % (url, e)) from None

    def evaluate(self, expression):
        try:
            return self.page.evaluate(expression)
        except PlaywrightError as e:
            raise BrowserError("script: %s" % e) from None

    def screenshot(self, clip=None):
        """PNG bytes of the whole page (or of clip = {x, y, width, height})."""
        return self.page.screenshot(full_page=True, clip=clip)

    def close(self):
        self.page.context.close()


def save_shot(page_file, png, height, width=1100):
    """The README's pictures (tools/*_shot.py): the top `height` pixels of a page written on disk,
    as the tests open it, saved as an optimised RGB PNG."""
    import io

    from PIL import Image

    with Chromium() as b:
        shot = b.open("file://" + page_file).screenshot(
            {"x": 0, "y": 0, "width": width, "height": height}
        )
    Image.open(io.BytesIO(shot)).convert("RGB").save(png, optimize=True)
    print("wrote", png)
