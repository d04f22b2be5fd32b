"""Makes the README's picture of the group's book (docs/img/book_player.png): a year of weekly
evenings among six players (random games, seeded: the same picture every run) synced into a
history through the calls `knockbox sync` makes, the book written by the real command, and one
player's page photographed in headless Chromium as tests/test_book.py opens it.
Run: .venv/bin/python tools/book_shot.py"""

import datetime
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import _paths  # noqa: E402,F401  (the checkout's folders on sys.path: bench/_paths.py)

from kit import browser  # noqa: E402
from kit import evenings  # noqa: E402
from kit.gamegen import random_game  # noqa: E402
from knockbox import book, cli, history  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
EVENINGS = 40
HEIGHT = 1345  # the totals, both charts and head to head


def main():
    rnd = random.Random(2025)
    plan = []
    for e in range(EVENINGS):
        if e:
            plan.append(evenings.EVENING)
        for _ in range(rnd.randint(4, 6)):
            rec = random_game(rnd, until_over=True).record()
            rec["players"] = rnd.sample(PLAYERS, 3)
            plan.append(rec)
    evs = evenings.journal(plan)
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "h.sqlite3")
        starts = [i for i, ev in enumerate(evs) if ev.get("t") == "evening"] + [len(evs)]
        for week, end in enumerate(starts):  # one sync an evening, a week apart
            day = datetime.date(2025, 1, 3) + datetime.timedelta(weeks=week)
            history.now = lambda day=day: day.isoformat() + " 23:30:00"
            evenings.sync_into(db, evs[:end])
        out = os.path.join(d, "book")
        if cli.main(["book", "--db", db, "-o", out, "--lang", "en"]):
            sys.exit("knockbox book failed")
        browser.save_shot(
            os.path.join(out, "players", book.slug("Ann")),
            os.path.join(ROOT, "docs", "img", "book_player.png"),
            HEIGHT,
        )


if __name__ == "__main__":
    main()
