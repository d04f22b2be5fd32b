"""The device's string tables come from one source (tools/strings/strings.txt, through
tools/strings/gen_strings.py): knockfw/strings.py's KEYS and strings_<lang>.py are byte for byte
what the generator makes now; a key added to the source is, once the generator has run, a string
the firmware says in every language (under the MicroPython unix port); a bad source line is one
line of error and nothing written. The texts themselves: tests/test_text_strings.py."""

import os
import shutil

import gen_strings  # tools/strings/gen_strings.py (on sys.path: bench/_paths.py)

from kit import mp

FW = os.path.join(mp.ROOT, "firmware", "knockfw")
TABLES = ("strings.py", "strings_en.py", "strings_ru.py")


def copy_firmware(tmp_path):
    """The firmware's package and the strings' source copied into tmp_path: (source, package)."""
    pkg = tmp_path / "knockfw"
    shutil.copytree(FW, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    src = tmp_path / "strings.txt"
    shutil.copy(gen_strings.SRC, src)
    return src, pkg


def test_the_tables_are_exactly_what_the_generator_makes_now():
    assert sorted(os.path.basename(p) for p in gen_strings.made()) == list(TABLES)
    assert gen_strings.stale() == []
    assert gen_strings.main(["--check"]) == 0


def test_the_check_notices_a_table_edited_by_hand(tmp_path):
    src, pkg = copy_firmware(tmp_path)
    assert gen_strings.stale(str(src), str(pkg)) == []
    ru = pkg / "strings_ru.py"
    ru.write_text(ru.read_text(encoding="utf-8").replace("Сдаёт\n", "Сдаёт!\n"), encoding="utf-8")
    strings = pkg / "strings.py"
    strings.write_text(strings.read_text().replace("\ndeals\n", "\ndeal\n"), encoding="utf-8")
    assert gen_strings.stale(str(src), str(pkg)) == ["strings.py", "strings_ru.py"]
    assert gen_strings.main(["--check", "--src", str(src), "--out", str(pkg)]) == 1
    (pkg / "strings_en.py").unlink()
    assert "strings_en.py" in gen_strings.stale(str(src), str(pkg))


def test_a_key_added_to_the_source_is_said_in_every_language(tmp_path, capsys):
    src, pkg = copy_firmware(tmp_path)
    with open(src, "a", encoding="utf-8") as f:
        f.write("battery_test | Battery at %d | Батарея: %d\n")
    assert gen_strings.main(["--src", str(src), "--out", str(pkg)]) == 0
    assert capsys.readouterr().out.count("wrote ") == 3
    script = (
        "from knockfw import strings\n"
        "for lang in ('en', 'ru'):\n"
        "    strings.set_lang(lang)\n"
        "    print(strings.t('battery_test') % 80, '/', strings.t('fault_sync'))\n"
    )
    r = mp.run(script, paths=[str(tmp_path), os.path.join(mp.ROOT, "shared")])
    assert r.returncode == 0, r.stderr
    # (the last key before it still has its own text: the tables are in step)
    assert r.stdout.splitlines() == [
        "Battery at 80 / Details: knockbox sync",
        "Батарея: 80 / Подробности: knockbox sync",
    ]


def test_a_bad_source_line_is_one_line_and_nothing_is_written(tmp_path, capsys):
    src, pkg = copy_firmware(tmp_path)
    before = {name: (pkg / name).read_bytes() for name in TABLES}
    text = src.read_text(encoding="utf-8")
    for line, says in (
        ("battery_low | Battery low\n", ":%d: 1 texts for 2 languages (key | en | ru)"),
        ("deals | Deals | Сдаёт\n", ":%d: key deals twice"),
        ("Battery | Battery | Батарея\n", ":%d: 'Battery' is not a key"),
        ("battery_low | Battery\\low | Батарея\n", ":%d: en: no text, or a \\"),
    ):
        src.write_text(text + line, encoding="utf-8")
        assert gen_strings.main(["--src", str(src), "--out", str(pkg)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("gen_strings: "), err
        assert says % (text.count("\n") + 1) in err, err
    assert {name: (pkg / name).read_bytes() for name in TABLES} == before
