"""Makes the README's picture of `knockbox report` (docs/img/report.png): the evening the tests
use (tests/kit/evenings.py REPORT_PLAN), reported by the real command and photographed in headless
Chromium as tests/test_report.py opens it. Run: .venv/bin/python tools/report_shot.py"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import _paths  # noqa: E402,F401  (the checkout's folders on sys.path: bench/_paths.py)

from kit import browser  # noqa: E402
from kit import evenings  # noqa: E402
from knockbox import cli, history  # noqa: E402

HEIGHT = 1620  # the summary and the first game's chart and hands


def main():
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "h.sqlite3")
        history.now = lambda: "2025-01-31 23:40:00"
        evenings.sync_into(db, evenings.journal(evenings.REPORT_PLAN))
        page = os.path.join(d, "report.html")
        if cli.main(
            [
                "report",
                "--db",
                db,
                "--evening",
                "1",
                "--per-point",
                "0.05",
                "--lang",
                "en",
                "-o",
                page,
            ]
        ):
            sys.exit("knockbox report failed")
        browser.save_shot(page, os.path.join(ROOT, "docs", "img", "report.png"), HEIGHT)


if __name__ == "__main__":
    main()
