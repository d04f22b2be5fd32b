"""What a page of the book or the report shows, read without a browser (html.parser): the rows
of a table as {data-k: text}, keyed by the row's data-player (or data-evening) attribute, and the
links of a page. tests/test_book.py reads the same pages in Chromium."""

import html.parser


class _Rows(html.parser.HTMLParser):
    def __init__(self, table):
        super().__init__()
        self.table, self.depth, self.rows, self.row, self.cell = table, 0, {}, None, None
        self.links = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "table" and self.table in (a.get("class") or "").split():
            self.depth = 1
        elif tag == "table" and self.depth:
            self.depth += 1
        if not self.depth:
            return
        if tag == "tr":
            key = a.get("data-player", a.get("data-evening"))
            self.row = self.rows.setdefault(key, {}) if key is not None else None
        elif tag == "td" and self.row is not None and "data-k" in a:
            self.cell = a["data-k"]
            self.row[self.cell] = ""
        elif tag == "a" and self.row is not None and "href" in a:
            self.row["href"] = a["href"]

    def handle_endtag(self, tag):
        if tag == "td":
            self.cell = None
        elif tag == "table" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.cell is not None:
            self.row[self.cell] += data


def rows(path, table):
    """{data-player or data-evening: {data-k: text, "href": the row's link}} of the table of
    class table on the page at path."""
    p = _Rows(table)
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p.rows


def links(path):
    """Every href on the page at path, in order."""
    p = _Rows(None)
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p.links
