"""The device's files in one manifest (firmware/manifest.py, read by knockbox.build.manifest) and the one
mpy-cross wrapper (knockbox.build.mpy): what each target gets, native modules compiled per target and
run on the unix port, builds written into a folder, and deploy's architecture check."""

import os

import pytest

from kit import mp
from knockbox.link import deploy
from knockbox.build import mpy
from knockbox.build.manifest import ManifestError, load, parse
from knockcore.proto import BOARDS

VIPER = """\
import micropython


@micropython.viper
def double(x: int) -> int:
    return x * 2
"""


def arch(data):
    """The architecture number in a .mpy header (0 = bytecode only, 2 = x64, 4 = armv6m)."""
    assert data[:1] == b"M"
    return data[2] >> 2


def test_the_real_manifest_puts_the_core_and_firmware_on_the_device_and_the_sim_board_off_it():
    m = load()
    device = {e.dest for e in m.entries("device")}
    sim = {e.dest for e in m.entries("sim")}
    # the packages at the device's root (the first sys.path entry on rp2), nothing in /lib
    assert {
        "main.py",
        "knockcore/game.mpy",
        "knockfw/app.mpy",
        "knockfw/__init__.mpy",
        "knockfw/fonts.mpy",
    } <= device
    assert not any(d.startswith("lib/") for d in device | sim)
    assert m.packages("device") == m.packages("sim") == ["knockcore", "knockfw"]
    assert sim - device == {"simboard.mpy", "simflash.mpy", "sim_main.py"}
    assert "main.py" in device - sim <= {"main.py", "boot.py"}  # root files of the Pico
    # every firmware and core source is in one of the builds
    for pkg, base in (("knockfw", "firmware"), ("knockcore", "shared")):
        for dirpath, _dirs, files in os.walk(os.path.join(mp.ROOT, base, pkg)):
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, f), os.path.join(mp.ROOT, base))
                    assert rel[:-3].replace(os.sep, "/") + ".mpy" in sim, rel
    assert m.entry("knockfw/app.mpy").module == "knockfw.app"
    assert m.entry("knockfw/__init__.mpy").module == "knockfw"
    assert m.entry("knockfw/fonts.mpy").package == "knockfw"
    assert m.entry("main.py").module is None and m.entry("main.py").package is None


@pytest.fixture
def tree(tmp_path):
    """A small project: package pkg (a, b, native viper module v), a root main.py, a sim entry."""
    pkg = tmp_path / "src" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    return 'a'\n")
    (pkg / "b.py").write_text("X = 'b'\n")
    (pkg / "v.py").write_text(VIPER)
    (tmp_path / "src" / "main.py").write_text("import pkg.a\n")
    (tmp_path / "src" / "sim_main.py").write_text("import pkg.b\n")
    (tmp_path / "src" / "manifest.py").write_text(
        'package("pkg")\n'
        'module("pkg/b.py", only="sim")\n'
        'module("pkg/v.py", march="armv6m")\n'
        'root("main.py", only="device")\n'
        'root("sim_main.py", only="sim")\n'
    )
    return tmp_path


def test_targets_only_and_march_from_a_manifest(tree):
    m = parse(str(tree / "src" / "manifest.py"))
    assert [e.dest for e in m.entries("device")] == [
        "pkg/__init__.mpy",
        "pkg/a.mpy",
        "pkg/v.mpy",
        "main.py",
    ]
    assert [e.dest for e in m.entries("sim")] == [
        "pkg/__init__.mpy",
        "pkg/a.mpy",
        "pkg/b.mpy",
        "pkg/v.mpy",
        "sim_main.py",
    ]
    assert [e.dest for e in m.native("device")] == ["pkg/v.mpy"]
    v = m.entry("pkg/v.mpy")
    assert (v.march_for("device"), v.march_for("sim")) == ("armv6m", "host")
    dev = mpy.build("device", manifest=m)
    sim = mpy.build("sim", manifest=m)
    assert arch(dev["pkg/v.mpy"]) == 4  # armv6m: the Pico's Cortex-M0+
    assert arch(sim["pkg/v.mpy"]) == 2  # x64: this machine's unix port
    assert arch(dev["pkg/a.mpy"]) == 0  # bytecode loads anywhere
    assert dev["main.py"] == b"import pkg.a\n"  # root files go as source


def test_a_board_gets_only_its_own_files(tree):
    (tree / "src" / "pkg" / "pins_x.py").write_text("P = 1\n")
    (tree / "src" / "pkg" / "pins_y.py").write_text("P = 2\n")
    (tree / "src" / "manifest.py").write_text(
        'package("pkg")\n'
        'module("pkg/pins_x.py", board="x")\n'
        'module("pkg/pins_y.py", board=["y", "z"])\n'
    )
    m = parse(str(tree / "src" / "manifest.py"))
    every = [e.dest for e in m.entries("device")]
    assert "pkg/pins_x.mpy" in every and "pkg/pins_y.mpy" in every  # no board: all of them
    x = [e.dest for e in m.entries("device", "x")]
    assert "pkg/pins_x.mpy" in x and "pkg/pins_y.mpy" not in x and "pkg/a.mpy" in x
    assert [e.dest for e in m.entries("sim", "z") if "pins" in e.dest] == ["pkg/pins_y.mpy"]
    assert m.boards() == ["x", "y", "z"]
    (tree / "src" / "manifest.py").write_text('module("pkg/a.py", board=[])\n')
    with pytest.raises(ManifestError, match="board="):
        parse(str(tree / "src" / "manifest.py"))


def test_the_firmware_s_boards_get_their_own_pins_and_driver():
    m = load()
    assert m.boards() == sorted(BOARDS)  # every board the firmware knows, and no other
    badger = {e.dest for e in m.entries("device", "badger2040")}
    waveshare = {e.dest for e in m.entries("device", "pico-epd")}
    assert badger - waveshare == {
        "knockfw/board_badger2040.mpy",
        "knockfw/uc8151.mpy",
        "knockfw/epdconv.mpy",
    }
    assert waveshare - badger == {
        "knockfw/board_pico_epd.mpy",
        "knockfw/ssd1680.mpy",
        "knockfw/epdinvert.mpy",
    }


def test_a_native_module_runs_on_the_unix_port_from_the_sim_build(tree):
    m = parse(str(tree / "src" / "manifest.py"))
    sizes = mpy.build_into(str(tree / "out"), "sim", manifest=m)
    assert sizes["pkg/v.mpy"] == os.path.getsize(tree / "out" / "pkg" / "v.mpy")
    r = mp.run(
        "from pkg import v, a, b\nprint(v.double(21), a.f(), b.X)",
        paths=[mpy.lib(str(tree / "out"))],
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["42", "a", "b"]
    assert (tree / "out" / "sim_main.py").read_text() == "import pkg.b\n"


def test_build_into_rewrites_only_changes_and_removes_stale_files(tree):
    m = parse(str(tree / "src" / "manifest.py"))
    out = str(tree / "out")
    mpy.build_into(out, "sim", manifest=m)
    assert mpy.lib(out) == out  # the packages at the folder's root, as at the Pico's /
    a = tree / "out" / "pkg" / "a.mpy"
    before = a.stat().st_mtime_ns
    (tree / "out" / "pkg" / "gone.mpy").write_bytes(b"M")
    # a sub-package the build no longer has (a module of its name would be shadowed by it)
    (tree / "out" / "pkg" / "sub").mkdir()
    (tree / "out" / "pkg" / "sub" / "__init__.mpy").write_bytes(b"M")
    # an older build's layout (packages in lib/) goes; what is not the build's stays
    (tree / "out" / "lib" / "pkg").mkdir(parents=True)
    (tree / "out" / "lib" / "pkg" / "b.py").write_text("X = 'old'\n")
    (tree / "out" / "other").mkdir()
    (tree / "out" / "other" / "keep.py").write_text("")
    (tree / "src" / "pkg" / "b.py").write_text("X = 'bb'\n")
    mpy.build_into(out, "sim", manifest=parse(str(tree / "src" / "manifest.py")))
    assert a.stat().st_mtime_ns == before
    assert not (tree / "out" / "pkg" / "gone.mpy").exists()
    assert not (tree / "out" / "pkg" / "sub").exists()
    assert not (tree / "out" / "lib").exists()
    assert (tree / "out" / "other" / "keep.py").exists()
    r = mp.run("from pkg import b\nprint(b.X, b.__file__)", paths=[mpy.lib(out)], cwd=str(tree))
    assert r.stdout.split() == ["bb", os.path.join(out, "pkg", "b.mpy")], r.stdout + r.stderr


def test_modules_picks_a_part_with_its_packages(tree):
    m = parse(str(tree / "src" / "manifest.py"))
    assert sorted(mpy.build("device", modules=["pkg.a"], manifest=m)) == [
        "pkg/__init__.mpy",
        "pkg/a.mpy",
    ]


def test_a_later_entry_wins_and_bad_entries_are_refused(tree):
    src = tree / "src"
    (src / "m2.py").write_text(
        'package("pkg")\nmodule("pkg/a.py", only="sim")\nmodule("pkg/a.py")\n'
    )
    assert "pkg/a.mpy" in [e.dest for e in parse(str(src / "m2.py")).entries("device")]
    for text, msg in (
        ('module("pkg/nope.py")\n', "no such .py"),
        ('package("nopkg")\n', "no "),
        ('module("pkg/a.py", only="pico")\n', "only="),
        ('module("pkg/a.py", march=3)\n', "march="),
    ):
        (src / "bad.py").write_text(text)
        with pytest.raises(ManifestError, match=msg):
            parse(str(src / "bad.py"))
    (src / "pkg" / "broken.py").write_text("def f(:\n")
    (src / "m3.py").write_text('module("pkg/broken.py")\n')
    with pytest.raises(mpy.CompileError, match="pkg/broken.py"):
        mpy.build("device", manifest=parse(str(src / "m3.py")))


def test_deploy_compiles_native_modules_for_the_unix_port_and_refuses_a_wrong_board(
    tree, monkeypatch
):
    m = parse(str(tree / "src" / "manifest.py"))
    monkeypatch.setattr(deploy, "load_manifest", lambda: m)
    monkeypatch.setattr(mpy.manifest_mod, "load", lambda: m)
    pico = {"mpy": 6 | (4 << 10), "platform": "rp2"}
    assert arch(deploy.compile_for(pico)["pkg/v.mpy"]) == 4
    unix = {"mpy": 6 | (2 << 10), "platform": "linux"}
    assert arch(deploy.compile_for(unix)["pkg/v.mpy"]) == 2
    esp = {"mpy": 6 | (10 << 10), "platform": "esp32"}
    with pytest.raises(deploy.DeployError, match="runs xtensawin code.*armv6m"):
        deploy.compile_for(esp)


def test_a_module_of_a_listed_package_comes_from_that_package_s_folder(tree):
    """module("pkg/...") without base_path takes the file from where package("pkg") found it;
    the real manifest finds its packages where Python imports them from (home()), so an
    installed knockbox builds the device from its own copy, never from a checkout."""
    (tree / "src" / "lib").mkdir()
    (tree / "src" / "pkg").rename(tree / "src" / "lib" / "pkg")
    (tree / "src" / "manifest.py").write_text(
        'package("pkg", base_path="lib")\nmodule("pkg/b.py", only="sim")\n'
        'root("main.py", only="device")\n'
    )
    m = parse(str(tree / "src" / "manifest.py"))
    assert m.entry("pkg/b.mpy").src == str(tree / "src" / "lib" / "pkg" / "b.py")
    assert m.entry("pkg/b.mpy").only == "sim"
    assert m.entry("main.py").src == str(tree / "src" / "main.py")
    import knockbox
    import knockcore
    import knockfw
    from knockbox.build.manifest import home

    real = load()
    for mod in (knockcore, knockfw):
        assert real.entry(mod.__name__ + "/__init__.mpy").src == os.path.abspath(mod.__file__)
        assert home(mod.__name__) == os.path.dirname(os.path.dirname(os.path.abspath(mod.__file__)))
    sim_board = real.entry("simboard.mpy").src
    assert sim_board.startswith(os.path.dirname(os.path.abspath(knockbox.__file__)) + os.sep)
    with pytest.raises(ManifestError, match="no such package"):
        home("no_such_package_here")


def test_a_table_is_compiled_from_its_text_packed(tree):
    # table(): the module's TABLE, a Cyrillic letter one byte (0x80 + its offset from U+0410),
    # the rest UTF-8 as it is; its comments and anything else of the file are not compiled
    text = "\nСдаёт · Ann\nЯ → а\n"
    (tree / "src" / "pkg" / "t.py").write_text("# a comment\nTABLE = %r\n" % text, encoding="utf-8")
    (tree / "src" / "manifest.py").write_text(
        'package("pkg")\nmodule("pkg/v.py", march="armv6m")\ntable("pkg/t.py")\n'
    )
    m = parse(str(tree / "src" / "manifest.py"))
    assert m.entry("pkg/t.mpy").packed and not m.entry("pkg/a.mpy").packed
    packed = mpy.pack_table(text)
    assert packed == b"\n\x91\xa4\xa0\xd1\x91\xb2 \xc2\xb7 Ann\n\x9f \xe2\x86\x92 \xa0\n"
    assert len(packed) == len(text.encode()) - 6  # 6 letters of А..я (not ё), a byte each
    mpy.build_into(str(tree / "out"), "sim", manifest=m)
    r = mp.run("from pkg import t\nprint(repr(t.TABLE))", paths=[mpy.lib(str(tree / "out"))])
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == repr(packed)
    with pytest.raises(mpy.CompileError, match="U\\+1F600"):
        mpy.pack_table("\U0001f600")
    (tree / "src" / "pkg" / "t.py").write_text("TABLE = 'x' + 'y'\n")
    with pytest.raises(mpy.CompileError, match="no TABLE"):
        mpy.build("sim", manifest=m, modules=["pkg.t"])
