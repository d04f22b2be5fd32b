"""Measured figures go into the docs only from the benchmark that measures them: a bench run with
--write puts its output into its own marked block of a doc, replacing the block's last output.

    <!-- written by bench/NAME.py --write: do not edit by hand -->
        ...the bench's lines...
    <!-- end of bench/NAME.py's figures -->

tests/test_docs_links.py checks that each block names a bench that exists.
"""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def marks(bench):
    return (
        "<!-- written by bench/%s --write: do not edit by hand -->" % bench,
        "<!-- end of bench/%s's figures -->" % bench,
    )


def write(doc, bench, lines):
    """Put lines (the bench's output, as an indented block) between bench's marks in doc (a path
    from the repository's root); the marks must be there already."""
    path = os.path.join(ROOT, doc)
    begin, end = marks(bench)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if begin not in text or end not in text:
        raise SystemExit(
            "%s has no block for bench/%s (its marks: %s ... %s)" % (doc, bench, begin, end)
        )
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    block = "\n".join("    " + ln if ln else "" for ln in lines)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + begin + "\n\n" + block + "\n\n" + end + tail)
    print("written into " + doc)


class Tee:
    """Stands for sys.stdout while a bench runs: prints as usual and keeps the lines."""

    def __init__(self, out):
        self.out, self.text = out, ""

    def write(self, s):
        self.text += s
        return self.out.write(s)

    def flush(self):
        self.out.flush()

    def lines(self):
        return self.text.rstrip("\n").split("\n")
