"""The book's pages keep their tables inside their cards (the white sections), however many
players a group has: `knockbox book` of eight players with long names, each page of it opened in
headless Chromium, nothing sticking out of its section (a table may scroll inside its own
`.scroll` box on a narrow screen)."""

import os
import random
import urllib.parse

from kit import evenings as E
from kit.clirun import knockbox
from kit.gamegen import random_game

NAMES = [
    "Annabelle",
    "Bartholomew",
    "Cyrillus",
    "Deirdre",
    "Evangeline",
    "Fitzgerald",
    "Gwendolyn",
    "Humphrey",
]

# Every element of a section whose right edge is beyond the section's (in pixels), except
# inside a .scroll box (which scrolls) and the box itself when it fits.
OUTSIDE = r"""(() => {
  const bad = [];
  document.querySelectorAll('section').forEach(s => {
    const edge = s.getBoundingClientRect().right;
    s.querySelectorAll('*').forEach(e => {
      if (e.closest('.scroll') && !e.classList.contains('scroll')) return;
      const over = e.getBoundingClientRect().right - edge;
      if (over > 1) bad.push([s.className, e.tagName.toLowerCase() + '.' + e.className, Math.round(over)]);
    });
  });
  return bad;
})()"""


def test_eight_players_fit_in_every_card(tmp_path, chromium):
    rnd = random.Random(3)
    plan = []
    for i in range(16):
        rec = random_game(rnd, until_over=True).record()
        rec["players"] = rnd.sample(NAMES, 3)
        plan.append(rec)
        if i % 8 == 7:
            plan.append(E.EVENING)
    db = str(tmp_path / "h.sqlite3")
    E.sync_into(db, E.journal(plan))
    book = tmp_path / "book"
    code, out, err = knockbox("book", "--db", db, "-o", book, "--lang", "en")
    assert code == 0, err
    pages = ["index.html"] + [
        "%s/%s" % (d, n) for d in ("players", "evenings") for n in sorted(os.listdir(book / d))
    ]
    for rel in pages:
        for width in (1100, 700):
            page = chromium.open("file://" + urllib.parse.quote(str(book / rel)), width=width)
            bad = page.evaluate(OUTSIDE)
            page.close()
            assert bad == [], (rel, width, bad[:5])
