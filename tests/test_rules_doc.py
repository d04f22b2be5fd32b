"""docs/RULES.md cannot drift from the rules core: each worked example names its game record in
examples/ (an HTML comment before its table), and every number of the example, the hands as the
table describes them, what each hand scored, the running totals and the result line, is checked
against `knockbox replay` of that record, run as a user runs it."""

import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "RULES.md")
KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
MARK = re.compile(r"^<!-- example: (examples/[\w.-]+\.json) -->$")


def number(s):
    return int(s.replace("−", "-").replace("+", ""))


def examples():
    """[(record path, [table rows as cell lists], result line)] in the order of the doc."""
    lines = open(DOC, encoding="utf-8").read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        rows = []
        j = i + 3  # past the header and its rule
        while lines[j].startswith("|"):
            rows.append([c.strip() for c in lines[j].strip("|").split("|")])
            j += 1
        result = next(x for x in lines[j:] if x.startswith("**At the end:**"))
        k = lines.index(result, j)
        if lines[k + 1].strip():  # the result goes on over one more line
            result += " " + lines[k + 1]
        out.append((m.group(1), rows, result))
    return out


EXAMPLES = examples()


def replay(path):
    p = subprocess.run(
        [KNOCKBOX, "replay", os.path.join(ROOT, path)], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def describe(h, players):
    """A hand as the doc's tables (and the device's confirm screen) write it."""
    if "void" in h:
        return "void hand"
    k = h["knock"] if "knock" in h else h["gin"]
    cs = h["counts"]
    # (a knock at 0 reads back as gin: the doc describes it as scored)
    first = (
        "%s knocks %d" % (players[k], cs[k]) if "knock" in h and cs[k] else "%s gin" % players[k]
    )
    return " · ".join(
        [first]
        + ["%s %d" % (players[s], cs[s]) for s in ((k + 1) % 3, (k + 2) % 3) if cs[s] is not None]
    )


def scores(cell, players):
    """{seat: points} from 'Ann +15', 'Bob and Cy +12, gin', 'Ann +17, ...; Cy −20'."""
    names = "|".join(re.escape(p) for p in players)
    got = {}
    for m in re.finditer(r"((?:%s)(?: and (?:%s))*) ([+−]\d+)" % (names, names), cell):
        for name in m.group(1).split(" and "):
            got[players.index(name)] = number(m.group(2))
    return got


def test_the_doc_has_a_worked_example_of_every_method_and_open_case():
    paths = [p for p, _r, _x in EXAMPLES]
    assert {
        "examples/method1.json",
        "examples/method2.json",
        "examples/method3.json",
        "examples/knock-at-0.json",
        "examples/method3-both-lowest.json",
        "examples/method2-winners-pay.json",
    } <= set(paths)
    for path in paths:
        assert os.path.exists(os.path.join(ROOT, path)), path


@pytest.mark.parametrize("path,rows,result", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_worked_example_is_what_the_rules_core_says(path, rows, result):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        rec = json.load(f)
    players = rec["players"]
    s = replay(path)
    assert len(rows) == len(rec["hands"]) == len(s["hands"])
    totals = [0, 0, 0]
    for row, h, got in zip(rows, rec["hands"], s["hands"]):
        n, what, scored = row[0], row[1], row[2]
        assert int(n) == got["hand"]
        assert what == describe(h, players), (path, n)
        want = {i: got["points"][i] for i in range(3) if got["points"][i] or i in got["winners"]}
        assert scores(scored, players) == want, (path, n, scored)
        word = {
            "gin": ("gin",),
            "undercut": ("undercut", "tie"),
            "void": ("none",),
            "knock": ("",),
        }[got["kind"]]
        assert any(w in scored for w in word), (path, n, got["kind"], scored)
        totals = [totals[i] + got["points"][i] for i in range(3)]
        assert [number(c) for c in row[3:6]] == totals, (path, n)

    def triple(name):
        m = re.search(r"\b%s ([+−]?\d+) / ([+−]?\d+) / ([+−]?\d+)" % name, result)
        assert m, (path, name, result)
        return [number(x) for x in m.groups()]

    assert triple("totals") == s["totals"] and triple("boxes") == s["boxes"]
    assert ("not over" in result) == (not s["over"])
    if not s["over"]:
        return
    assert triple("final") == s["final"] and triple("net") == s["net"]
    won = [players[w] for w in s["winners"]]
    assert (" and ".join(won) + (" wins;" if len(won) == 1 else " win;")) in result
    names = "|".join(re.escape(p) for p in players)
    pays = [
        [players.index(a), players.index(b), int(x)]
        for a, b, x in re.findall(r"(%s) pays (%s) (\d+)" % (names, names), result)
    ]
    assert pays == s["payments"], (path, result)


def test_the_russian_words_in_the_doc_are_the_devices():
    # The doc's table of Russian words quotes the device's own strings.
    from kit import catalog

    ru = catalog.table("ru")
    doc = open(DOC, encoding="utf-8").read()
    for key in (
        "target",
        "boxes",
        "set_m3_penalty_on",
        "set_m1_extra",
        "advises",
        "sits_out",
        "void_result",
        "in_box",
    ):
        quoted = ru[key].replace("%d", "").strip()
        assert quoted in doc, (key, quoted)
    assert ru["opt_seed"] in doc and ru["opt_classic"] in doc
