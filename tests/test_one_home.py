"""One home each, used by the device and the laptop alike: the settings (knockfw/settings.py: the
defaults, limits, choices and check), the languages (its LANGS), the device's files (the package
module, knockfw/__init__.py) and the reading of /data/board.json (knockfw.board.named). The
firmware runs under the unix port, the laptop through its command line; the sources are read for
any second copy."""

import ast
import glob
import json
import os

import pytest

from kit import mp
from kit.clirun import knockbox
from knockbox import cli
from knockbox.link import deploy
from knockcore.rules import PRESETS
from knockfw import board, settings

# The product's code (the tests and benches name their own folders and cases)
CODE = [
    p
    for folder in ("firmware", "host", "shared", "tools")
    for p in glob.glob(os.path.join(mp.ROOT, folder, "**", "*.py"), recursive=True)
]
SETTINGS_PY = os.path.join(mp.ROOT, "firmware", "knockfw", "settings.py")
FILES_PY = os.path.join(mp.ROOT, "firmware", "knockfw", "__init__.py")


def _strings(path):
    """(line, text) of the string literals of a source file, its docstrings left out."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    return tree, [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_the_device_takes_its_settings_choices_and_languages_from_one_module():
    """The firmware as the unix port runs it: the app's defaults and check, the settings screen's
    choices and the strings' languages are knockfw.settings' own objects."""
    r = mp.run(
        """
import json
from knockfw import app, settings, strings, ui_settings
items = dict(ui_settings.ITEMS)
print(json.dumps([
    app.DEFAULTS is settings.DEFAULTS, app.check_settings is settings.check,
    strings.LANGS is settings.LANGS, items["lang"] is settings.LANGS,
    items["target"] is settings.TARGETS, items["m3_target"] is settings.M3_TARGETS,
    items["sleep_s"] is settings.SLEEPS, items["stake"] is settings.STAKES,
    settings.DEFAULTS["sleep_s"] == settings.SLEEPS[0],
    settings.DEFAULTS["lang"] == settings.LANGS[0],
]))
"""
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout) == [True] * 10


def _options(parser, name):
    """Every action of the command line's parsers (each command's, and their actions') that
    takes option `name`, as (command, action)."""
    found = []
    for command, p in parser.commands.items():
        todo = [p]
        while todo:
            q = todo.pop()
            for a in q._actions:
                if name in a.option_strings:
                    found.append((command, a))
                if a.choices and isinstance(a.choices, dict):  # subparsers: their parsers
                    todo.extend(a.choices.values())
    return found


def test_the_laptops_options_take_their_choices_from_the_same_module():
    parser = cli.build_parser()
    langs = _options(parser, "--lang")
    assert {c for c, _a in langs} >= {"book", "report", "push", "history", "show", "replay"}
    for command, a in langs:
        assert a.choices is settings.LANGS, command
    assert [a.choices is PRESETS for _c, a in _options(parser, "--preset")] == [True]
    (_c, sleep), *_ = _options(parser, "--sleep")
    assert "%d..%d" % (settings.SLEEP_MIN, settings.SLEEP_MAX) in sleep.help


@pytest.mark.parametrize(
    "args, bad",
    [
        (["--roster", "Ann", "Bob"], {"roster": ["Ann", "Bob"]}),
        (["--roster"] + ["P%d" % i for i in range(17)], {"roster": ["P%d" % i for i in range(17)]}),
    ],
)
def test_push_refuses_what_the_device_refuses_in_its_words_before_any_port(args, bad):
    """`knockbox push` runs the device's own check (knockfw.settings.check, as the firmware runs
    it under the unix port) on what it would send: a roster the device refuses is refused
    before a port is looked for, with the device's message."""
    r = mp.run(
        """
import json
from knockfw.settings import check
try:
    check(json.loads(%r))
except ValueError as e:
    print(e)
"""
        % json.dumps(bad)
    )
    assert r.returncode == 0 and r.stdout.startswith("settings: "), r.stdout + r.stderr
    code, out, err = knockbox("push", "--port", "/nonexistent/tty", *args)
    assert (code, out, err) == (1, "", "knockbox: %s" % r.stdout)


def test_no_other_file_types_the_languages():
    """The languages are knockfw.settings.LANGS: no other source lists them again."""
    want = sorted(settings.LANGS)
    again = []
    for path in CODE:
        if path == SETTINGS_PY:
            continue
        tree, _ = _strings(path)
        for n in ast.walk(tree):
            if isinstance(n, (ast.Tuple, ast.List, ast.Set)) and n.elts:
                values = [e.value if isinstance(e, ast.Constant) else None for e in n.elts]
                if sorted(map(str, values)) == want:
                    again.append("%s:%d" % (os.path.relpath(path, mp.ROOT), n.lineno))
    assert again == []
    # the laptop's words: a table for each language, no more, no fewer
    from knockbox import cliwords
    from knockbox.book import words as book_words
    from knockbox.report import words as report_words

    for table in (cliwords.LANGS, book_words.LANGS, report_words.LANGS):
        assert sorted(table) == want


# the device's files, named once (knockfw/__init__.py): the folder and the names in it
DEVICE_FILES = (
    "board.json",
    "settings.json",
    "journal.txt",
    "meta.json",
    "snap.json",
    "faults.txt",
)


def test_no_other_file_names_a_device_file():
    import knockfw

    again = []
    for path in CODE:
        if path == FILES_PY:
            continue
        for line, s in _strings(path)[1]:
            if "/data" in s or s.startswith("data/") or s == "data" or s.endswith(DEVICE_FILES):
                again.append("%s:%d %r" % (os.path.relpath(path, mp.ROOT), line, s))
    assert again == []
    named = [getattr(knockfw, n) for n in dir(knockfw) if n.endswith("_FILE")]
    assert sorted(p.rsplit("/", 1)[1] for p in named) == sorted(DEVICE_FILES)
    assert all(p.startswith(knockfw.DATA + "/") for p in named)
    # what deploy writes and removes: those files, from the root as the raw REPL names them
    assert "/" + deploy.BOARD_FILE == knockfw.BOARD_FILE
    assert "/" + deploy.SNAP_FILE == knockfw.SNAP_FILE


BOARD_JSONS = [
    b'{"board": "badger2040"}',
    b'{"board": "pico-epd"}',
    b'{"board": "pico_epd"}',
    b'"pico-epd"',
    b'"pico_epd"',
    b'{"board": "badger2040w"}',
    b'{"board": 5}',
    b"[1, 2]",
    b"{}",
    b"null",
    b"",
    b"{broken",
    b"\xff\xfe",
]


def test_the_laptop_reads_board_json_with_the_firmwares_own_function(tmp_path):
    """deploy's board_of is knockfw.board.named, which the firmware's chosen() reads
    /data/board.json with: for every content, the board the firmware boots (under the unix
    port, from the file) is the one deploy compiles for."""
    for i, data in enumerate(BOARD_JSONS):
        (tmp_path / ("%d.json" % i)).write_bytes(data)
    r = mp.run(
        """
import json
from knockfw import board
out = []
for i in range(%d):
    board.BOARD_FILE = %r + "/%%d.json" %% i
    out.append(board.chosen())
board.BOARD_FILE = %r + "/none.json"
out.append(board.chosen())
print(json.dumps(out))
"""
        % (len(BOARD_JSONS), str(tmp_path), str(tmp_path))
    )
    assert r.returncode == 0, r.stdout + r.stderr
    on_device = json.loads(r.stdout)
    assert on_device == [deploy.board_of(d) for d in BOARD_JSONS] + ["badger2040"]
    assert on_device[:5] == ["badger2040"] + ["pico-epd"] * 4
    assert deploy.board_of is board.named  # not two readings that agree today: one
