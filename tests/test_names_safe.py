"""Players' names are safe everywhere they are shown (knockbox.textsafe, knockbox.templating,
the charts, the CSV, the book's page names), through the commands a user runs: a name of
dollars or one starting with "_" is drawn in the charts as it is, escape sequences and other
control characters never reach the terminal raw, a name that starts a formula is text in the
CSV, a right-to-left override turns only its own name around on the pages, and two names never
share a book page."""

import csv
import html.parser
import io
import re

import pytest
import matplotlib
from matplotlib import font_manager, ft2font

from kit import evenings as E
from kit.clirun import knockbox
from knockbox import book
from kit.pages import links, rows

DOLLARS, HIDDEN, ESC, RTL, FORMULA, C1 = (
    "$$",
    "_hidden",
    "Evil\x1b[2J\x07",
    "\u202eRev",
    '=HYPERLINK("http://x")',
    "a\x85b\u200f",
)
ALL = [DOLLARS, HIDDEN, ESC, RTL, FORMULA, C1]


@pytest.fixture
def unsafe_names(tmp_path):
    """A history of three games among the players with unsafe names (ALL). Neither sync nor
    import stores ESC, C1 or bidirectional controls in a name (test_names_alike.py): these are
    written into the file by hand, as a history from elsewhere may hold them."""
    path = str(tmp_path / "h.sqlite3")
    P = ["P%d" % i for i in range(len(ALL))]
    E.sync_into(
        path,
        E.journal(
            [
                E.game(E.M1, [P[0], P[1], P[2]]),
                E.game(E.M3, [P[3], P[4], P[5]]),
                E.game(E.M2, [P[1], P[3], P[0]]),
            ]
        ),
    )
    E.write_names(path, dict(zip(P, ALL)))
    return path


def run(*args):
    code, out, err = knockbox(*args)
    assert code == 0, err
    return out, err


_FONT = ft2font.FT2Font(font_manager.findfont("DejaVu Sans"))


# how the SVG names a glyph: by its index in the font from matplotlib 3.11, by its code point
# before (3.10, the release Python 3.10 gets: pyproject.toml)
_BY_INDEX = tuple(matplotlib.__version_info__[:2]) >= (3, 11)


def glyphs(text):
    """The glyphs matplotlib draws text with (the charts' text is paths: DejaVu Sans glyphs)."""
    if _BY_INDEX:
        return ["%x" % _FONT.get_char_index(ord(c)) for c in text if c != " "]
    return ["%x" % ord(c) for c in text if c != " "]


def drawn(page):
    """Each text of each chart on the page as the glyphs it is drawn with."""
    out = []
    for m in re.finditer(r'<g id="[^"]*-text_\d+">', page):
        seg = page[m.end() :]
        seg = seg[: seg.find('<g id="')] if '<g id="' in seg else seg
        out.append(re.findall(r'xlink:href="#[^"]*?-DejaVuSans-([0-9a-f]+)"', seg))
    return out


def test_charts_draw_every_name(unsafe_names, tmp_path):
    out, err = run("report", "--db", unsafe_names, "-o", tmp_path / "r.html", "1", "2", "3")
    assert err == "report of 3 games written to %s\n" % (tmp_path / "r.html")  # no warning
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    texts = drawn(page)
    # the running totals' legends and the net bars have each name: "$$" as two dollars (no
    # mathtext), "_hidden" (not left out of a legend), ESC and BEL as visible escapes
    for name in (DOLLARS, HIDDEN, "Evil\\x1b[2J\\x07", "a\\x85b\\u200f"):
        assert texts.count(glyphs(name)) >= 2, name
    assert "<!--" not in page  # matplotlib's comments (the names as text) are gone
    run("book", "--db", unsafe_names, "-o", tmp_path / "book")


UNSAFE = "[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e]"


@pytest.mark.parametrize(
    "cmd",
    [
        ["stats"],
        ["history"],
        ["show", "1"],
        ["show", "2"],
        ["settle", "1", "2", "3"],
        ["player", "rename", ESC, "Eve"],
    ],
)
def test_no_command_sends_the_terminal_a_control_character(unsafe_names, cmd):
    out, err = run(*cmd, "--db", unsafe_names)
    assert not re.search(UNSAFE, out + err), (out, err)
    assert ESC not in out + err and RTL not in out + err


def test_the_terminal_gets_no_control_character(unsafe_names):
    out, _ = run("stats", "--db", unsafe_names)
    assert not re.search(UNSAFE, out)
    assert "Evil\\x1b[2J\\x07" in out and "\\u202eRev" in out and "a\\x85b\\u200f" in out
    # the table's columns line up: each row as wide as the head
    lines = out.split("\n\n")[0].splitlines()
    assert len({len(ln) for ln in lines}) == 1, lines


def test_csv_cells_never_start_a_formula(unsafe_names):
    out, _ = run("export", "--csv", "--db", unsafe_names)
    table = list(csv.DictReader(io.StringIO(out)))
    assert table[1]["player2"] == "'" + FORMULA
    cells = [v for r in table for v in r.values()]
    assert not [v for v in cells if v and v[0] in "=+@\t\r"]
    # numbers stay numbers: a negative net is not text
    assert {r["net1"] for r in table} == {"-196", "727", "428"}


class _Direction(html.parser.HTMLParser):
    """Where the right-to-left override occurs in a page's text: in a <bdi>, or (in the title)
    between a first-strong isolate and its pop; anywhere else is a fault."""

    def __init__(self):
        super().__init__()
        self.open, self.isolated, self.faults = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag not in (
            "meta",
            "br",
            "img",
            "input",
            "link",
            "path",
            "use",
            "line",
            "rect",
            "circle",
            "polyline",
            "stop",
        ):
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.open:
            del self.open[len(self.open) - self.open[::-1].index(tag) - 1 :]

    def handle_data(self, data):
        if "\u202e" not in data:
            return
        if "bdi" in self.open:
            self.isolated += 1
        elif not ("title" in self.open and "\u2068\u202eRev\u2069" in data):
            self.faults.append((self.open[-3:], data))


def direction(path):
    p = _Direction()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def test_a_right_to_left_mark_turns_only_its_own_name(unsafe_names, tmp_path):
    run("report", "--db", unsafe_names, "-o", tmp_path / "r.html", "1", "2", "3")
    run("book", "--db", unsafe_names, "-o", tmp_path / "book", "--lang", "en")
    folder = tmp_path / "book"
    player = folder / rows(folder / "index.html", "ratings")[RTL]["href"]
    for page in (
        tmp_path / "r.html",
        folder / "index.html",
        folder / "evenings" / "1.html",
        player,
        folder / rows(folder / "index.html", "ratings")[HIDDEN]["href"],
    ):
        d = direction(page)
        assert d.faults == [] and d.isolated > 0, page


def test_two_names_never_share_a_page(unsafe_names, tmp_path, monkeypatch):
    """Even two names whose page names come out alike (made so here: every slug the same)."""
    monkeypatch.setattr(book, "slug", lambda name: "same-0123456789abcdef.html")
    run("book", "--db", unsafe_names, "-o", tmp_path / "book")
    folder = tmp_path / "book"
    index = rows(folder / "index.html", "ratings")
    assert len({index[n]["href"] for n in ALL}) == len(ALL)
    for name in ALL:
        page = folder / index[name]["href"]
        assert "<h1><bdi>" in page.read_text(encoding="utf-8")
        # the page is the player's: its head-to-head rows are the others it played with
        others = set(rows(page, "h2h"))
        assert name not in others and others and others <= set(ALL)
        assert {index[o]["href"] for o in others} <= {"players/" + h for h in links(page)}
    # names alike but for case have pages of their own on any file system
    monkeypatch.undo()
    pages = book.pages(["Ann", "ann", "ANN"])
    assert len({p.lower() for p in pages.values()}) == 3
