"""What a user reads (README.md, CONTRIBUTING.md, bench/README.md, docs/*.md, hardware/*.md) points
only inside the repository: every link resolves to a file of the repository (and a heading, for a
link with #), no link leaves it (no URL, no absolute path, no ../ out of the checkout), no path
written in the text climbs out of it, and every .md file the text names is in it (the team's own
notes are not). The one allowance: docs/EMULATOR.md tells developers where the emulated Pico lives
beside the checkout."""

import glob
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md", "CONTRIBUTING.md", "bench/README.md"] + sorted(
    os.path.relpath(p, ROOT)
    for folder in ("docs", "hardware")
    for p in glob.glob(os.path.join(ROOT, folder, "*.md"))
)
# (doc, text): a path outside the repository that a page may name, as text and never as a link
ALLOWED = {("docs/EMULATOR.md", "../shared/rp2040-emu")}
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def read(doc):
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        return f.read()


def inside(path):
    real = os.path.realpath(path)
    return real == ROOT or real.startswith(ROOT + os.sep)


def anchors(text):
    """GitHub's ids of a page's headings."""
    out = set()
    for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower().replace("`", ""))
        out.add(slug.replace(" ", "-"))
    return out


def link_problems(doc, text):
    problems = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("/", "~", "//")):
            problems.append("%s: link out of the repository: %s" % (doc, target))
            continue
        path, _, frag = target.partition("#")
        full = (
            os.path.normpath(os.path.join(ROOT, os.path.dirname(doc), path))
            if path
            else os.path.join(ROOT, doc)
        )
        if not inside(full):
            problems.append("%s: link out of the repository: %s" % (doc, target))
        elif not os.path.exists(full):
            problems.append("%s: link to a missing file: %s" % (doc, target))
        elif frag and full.endswith(".md"):
            with open(full, encoding="utf-8") as f:
                if frag not in anchors(f.read()):
                    problems.append("%s: link to a missing heading: %s" % (doc, target))
    return problems


def text_problems(doc, text):
    problems = []
    plain = LINK.sub(" ", text)  # the text without its links' targets
    # a path that climbs out of the checkout: written from the repository's root, as the docs
    # write paths (`hardware/PINS.md`), any ../ leaves it
    for m in re.finditer(r"(?<![\w.])(?:\.\./)+[\w./~-]*", plain):
        if (doc, m.group(0).rstrip(".")) not in ALLOWED:
            problems.append("%s: path out of the repository: %s" % (doc, m.group(0)))
    for m in re.finditer(r"(?<![\w/.-])/work/[\w./-]*", plain):
        problems.append("%s: a checkout's own path: %s" % (doc, m.group(0)))
    # every .md file named in the text is one of the repository's (from its root or beside the doc)
    for m in re.finditer(r"(?<![\w/.-])([\w./-]*[A-Za-z0-9_-]\.md)\b", plain):
        name = m.group(1)
        if name.startswith("../"):
            continue  # said above
        here = os.path.join(ROOT, os.path.dirname(doc), name)
        if not (os.path.exists(os.path.join(ROOT, name)) or os.path.exists(here)):
            problems.append("%s: names a file the repository does not have: %s" % (doc, name))
    return problems


@pytest.mark.parametrize("doc", DOCS)
def test_a_user_doc_points_only_inside_the_repository(doc):
    text = read(doc)
    assert link_problems(doc, text) + text_problems(doc, text) == []


def test_the_allowance_is_used_and_stays_text():
    for doc, path in ALLOWED:
        text = read(doc)
        assert "`%s`" % path in text, (doc, path)  # still there (else drop it)
        assert "](%s" % path not in text  # and never a link


def test_the_check_finds_what_it_is_for():
    # the lines README.md and docs/ARCHITECTURE.md had before the rules moved into docs/RULES.md
    bad = (
        "Full rules: [`../shared/RULES.md`](../shared/RULES.md) (beside the repository).\n"
        "The contracts are in `../shared/DESIGN.md`; see also DESIGN.md, [x](https://x.org)"
        " and [y](docs/NOPE.md), [z](docs/RULES.md#no-such-heading), /work/main/README.md.\n"
    )
    got = link_problems("README.md", bad) + text_problems("README.md", bad)
    assert got == [
        "README.md: link out of the repository: ../shared/RULES.md",
        "README.md: link out of the repository: https://x.org",
        "README.md: link to a missing file: docs/NOPE.md",
        "README.md: link to a missing heading: docs/RULES.md#no-such-heading",
        "README.md: path out of the repository: ../shared/DESIGN.md",
        "README.md: a checkout's own path: /work/main/README.md.",
        "README.md: names a file the repository does not have: DESIGN.md",
    ], got
    assert text_problems("docs/EMULATOR.md", "(`../shared/rp2040-emu` beside it)") == []
    assert text_problems("docs/EMULATOR.md", "`../shared/DESIGN.md`") != []
    good = "[RULES](docs/RULES.md#7-in-russian), `hardware/PINS.md`, [a](#the-rules)\n"
    assert link_problems("README.md", good + "## The rules\n") == []
    assert text_problems("README.md", good) == []


BLOCK = re.compile(
    r"<!-- written by bench/(\S+) --write: do not edit by hand -->\n(.*?)"
    r"<!-- end of bench/(\S+)'s figures -->",
    re.S,
)


def test_measured_figures_are_the_benchmarks_own_blocks():
    """Where the docs quote measured figures, they sit in a block that the benchmark named writes
    (bench/docfigures.py); each block is whole, names a bench that writes it, and holds output."""
    found = set()
    for doc in DOCS + sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "hardware", "*.md"))
    ):
        text = read(doc)
        blocks = BLOCK.findall(text)
        assert text.count("<!-- written by bench/") == len(blocks), doc  # each one closed
        for bench, body, closing in blocks:
            assert bench == closing, (doc, bench, closing)
            with open(os.path.join(ROOT, "bench", bench), encoding="utf-8") as f:
                src = f.read()
            assert "--write" in src and 'docfigures.write("%s"' % doc in src, (doc, bench)
            lines = [ln for ln in body.splitlines() if ln.strip()]
            assert lines and all(ln.startswith("    ") for ln in lines), (doc, bench)
            found.add((bench, doc))
    assert found == {
        ("bench_pico.py", "docs/EMULATOR.md"),
        ("bench_pico.py", "hardware/README.md"),  # the latch and the shortest tap
        ("bench_battery.py", "hardware/POWER.md"),
        ("bench_entry.py", "README.md"),
    }


# What a reader of the repository cannot follow: the team's design notes and its issue numbers
# (neither is in the repository). An upstream project's issue, named with its project
# ("micropython issue #7035"), can be followed.
UNFOLLOWABLE = re.compile(r"\bDESIGN\.md\b|(?<!micropython )\bissues? #?\d+", re.I)


def unfollowable(text):
    return [m.group(0) for m in UNFOLLOWABLE.finditer(text)]


def test_no_file_cites_what_a_reader_cannot_follow():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    names = [n for n in out.splitlines() if n.endswith((".py", ".md", ".toml", ".yaml", ".json"))]
    assert len(names) > 100
    found = []
    for name in names:
        if name == "tests/test_docs_links.py":  # its examples of what is refused
            continue
        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                found += ["%s:%d: %s" % (name, n, hit) for hit in unfollowable(line)]
    assert found == []
    assert unfollowable("(DESIGN.md section 7, issue 6), Issue 9's budgets, issue #12") == [
        "DESIGN.md",
        "issue 6",
        "Issue 9",
        "issue #12",
    ]
    assert unfollowable("micropython issue #7035; the issues of a board") == []
