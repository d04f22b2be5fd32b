"""The small things a new user trips on, through the command: `knockbox` alone, a mistyped
option, `simulate --no-tty` at the end of its input, counts in words ("1 new game"), the worked
examples in the wheel, `push --sleep`'s range."""
import glob
import os
import subprocess
import sys
import zipfile

import pytest

from kit.clirun import knockbox
from kit.ptydevice import KNOCKBOX, FakeDevice, good_device, journal
from test_ports import fake  # noqa: F401 - a fixture: the simulator's stand-in firmware
from test_simulate import lines, read_until, start_sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "method3.json")


def test_knockbox_alone_prints_the_help():
    p = subprocess.run([KNOCKBOX], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.startswith("usage: knockbox ")
    assert "  sync      pull new games" in p.stdout and "  book      " in p.stdout


@pytest.mark.parametrize("argv, usage, unknown", [
    (["sync", "--prot", "x"], "usage: knockbox sync [-h] [--port P]", "--prot x"),
    (["history", "--jsn"], "usage: knockbox history [-h]", "--jsn"),
    (["replay", EXAMPLE, "--engnie", "cpython"], "usage: knockbox replay [-h]",
     "--engnie cpython"),
])
def test_a_mistyped_option_shows_the_commands_usage(argv, usage, unknown):
    p = subprocess.run([KNOCKBOX] + argv, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith(usage)
    assert p.stderr.endswith("knockbox %s: error: unrecognized arguments: %s\n"
                             % (argv[0], unknown))


def test_simulate_no_tty_ends_with_its_input(tmp_path, fake):  # noqa: F811
    sim = str(tmp_path / "sim")
    p = start_sim(["--dir", sim, "--script", fake])
    try:
        read_until(p, lambda s: s.startswith("frame 1 "))
        p.stdin.write("a\nb")       # the last line without its newline, and no quit
        p.stdin.close()
        assert p.wait(30) == 0
    finally:
        if p.poll() is None:
            p.kill()
    assert lines(os.path.join(sim, "keys")) == ["press a 120", "press b 120"]  # played first
    # nothing at all on stdin: it ends too
    p = subprocess.run([sys.executable, "-m", "knockbox.cli", "simulate", "--no-tty", "--dir", sim,
                        "--script", fake], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("serial port: ")


def test_counts_are_written_in_words(db, tmp_path):
    evs, _ = journal(3)             # one game of three hands: five records
    with FakeDevice(good_device(evs)) as d:
        code, out, err = knockbox("sync", "--port", d.path, "--db", db, "--timeout", "2")
        assert code == 0, err
        assert out.endswith(": 5 new records: 1 new game, 0 updated\n"), out
    code, out, err = knockbox("import", "--db", str(tmp_path / "i.sqlite3"), EXAMPLE)
    assert (code, out) == (0, "1 game imported\n")
    code, out, err = knockbox("export", "--db", str(tmp_path / "i.sqlite3"), "--json", "-o",
                              str(tmp_path / "e.json"))
    assert (code, err) == (0, "1 game written to %s\n" % (tmp_path / "e.json"))


def test_the_worked_examples_come_with_the_wheel(tmp_path):
    dist, target = tmp_path / "dist", tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist), ROOT], check=True, capture_output=True, timeout=300)
    wheel = glob.glob(str(dist / "knockbox-*.whl"))[0]
    names = zipfile.ZipFile(wheel).namelist()
    assert sorted(n for n in names if n.startswith("knockbox/examples/")) == sorted(
        "knockbox/examples/" + f for f in os.listdir(os.path.join(ROOT, "examples")))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), wheel], check=True, capture_output=True, timeout=300)
    # the installed knockbox (not this checkout's), run where there is no examples/ folder:
    # the README's command and the example's bare name both replay the packaged file
    installed = ("import sys; sys.path.insert(0, %r); import knockbox; "
                 "assert knockbox.__file__.startswith(%r), knockbox.__file__; "
                 "from knockbox.cli import main; sys.exit(main(sys.argv[1:]))"
                 % (str(target), str(target)))
    want = subprocess.run([KNOCKBOX, "replay", EXAMPLE], capture_output=True, text=True,
                          timeout=60).stdout
    assert '"final": [425, 88, 35]' in want
    for name in ("examples/method3.json", "method3"):
        p = subprocess.run([sys.executable, "-c", installed, "replay", name], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
        assert (p.returncode, p.stdout, p.stderr) == (0, want, "")
    # and from this checkout, the README's command as it is written
    code, out, err = knockbox("replay", "examples/method3.json")
    assert (code, out) == (0, want)


def test_push_sleep_says_its_range():
    code, out, err = knockbox("push", "--sleep", "5")
    assert (code, out, err) == (1, "", "knockbox: --sleep: 5 is not in 30..86400 seconds\n")
    p = subprocess.run([KNOCKBOX, "push", "--help"], capture_output=True, text=True, timeout=60)
    assert "idle seconds before power-off, 30..86400" in " ".join(p.stdout.split())
