"""The habits of a maintained project, through the paths a maintainer takes: the commit message
check (tools/commitmsg.py) as git's hook and over the branch's history, pre-commit with the
repository's own config, the `network` marker, and scripts/setup, which installs nothing on the
system unless asked and says in one line what the tests miss."""

import os
import shutil
import stat
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK = os.path.join(ROOT, "tools", "commitmsg.py")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def run(argv, cwd, env=None, **kw):
    env = dict(os.environ, **GIT_ENV, **(env or {}))
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, **kw)


def git(cwd, *args):
    r = run(["git", *args], cwd)
    assert r.returncode == 0, r.stderr
    return r.stdout


# ---- the commit message check -------------------------------------------------------------------

GOOD = [
    "docs: the map names each idea's one file",
    "firmware, tests: the latch is taken first\n\nWhy: the budget.",
    "x" * 0 + "host: " + "a" * 66,  # 72 characters
    "Merge branch 'habits'",
    'Revert "host: something that did not work out in the end, and a long subject"',
    "fixup! docs: the map",  # only for a rebase: the history check refuses it
    "tests: a subject\n# Please enter the commit message for your changes.\n#\n",
]
BAD = [
    ("host: " + "a" * 67, "the subject is 73 characters, at most 72"),
    ("a subject with no area", "the subject is not `area: what`"),
    ("Docs: a capital", "the subject is not `area: what`"),
    ("ui: not an area", "unknown area ui"),
    ("docs:no space", "the subject is not `area: what`"),
    ("docs: a subject\nand a body with no blank line", "no blank line between"),
    ("# only git's comment\n", "the subject line is empty"),
]


@pytest.mark.parametrize("message", GOOD)
def test_the_hook_takes_a_good_message(tmp_path, message):
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message + "\n", encoding="utf-8")
    r = run([sys.executable, CHECK, str(path)], tmp_path)
    assert (r.returncode, r.stderr) == (0, "")


@pytest.mark.parametrize("message,why", BAD)
def test_the_hook_refuses_a_bad_message_in_one_line(tmp_path, message, why):
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message + "\n", encoding="utf-8")
    r = run([sys.executable, CHECK, str(path)], tmp_path)
    assert r.returncode == 1
    assert r.stderr.startswith("commit message: ") and why in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1, r.stderr


def test_every_commit_since_the_base_passes():
    """The branch's own history, from the last commit made before the check (tools/commitmsg.py's
    BASE) to HEAD: what `git log` shows a reader stays `area: what`, at most 72 characters."""
    r = run([sys.executable, CHECK, "--log"], ROOT)
    assert r.returncode == 0, r.stderr


def test_the_history_check_names_a_bad_commit(tmp_path):
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--shared", "--no-checkout", ROOT, str(clone))
    git(clone, "commit", "-q", "--allow-empty", "-m", "docs: a good one")
    r = run([sys.executable, CHECK, "--log"], clone)
    assert (r.returncode, r.stderr) == (0, "")
    git(clone, "commit", "-q", "--allow-empty", "-m", "fixup! docs: a good one")
    git(clone, "commit", "-q", "--allow-empty", "-m", "made the thing work")
    r = run([sys.executable, CHECK, "--log"], clone)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 2, r.stderr
    assert "made the thing work: the subject is not `area: what`" in lines[0]
    assert "fixup! docs: a good one: the subject is not `area: what`" in lines[1]


# ---- pre-commit with the repository's config ---------------------------------------------------


@pytest.mark.slow  # seconds: pre-commit and ruff started for each commit
def test_pre_commit_runs_ruff_and_the_message_check_offline(tmp_path):
    """A repository with this one's .pre-commit-config.yaml, ruff settings and check, and this
    venv as its .venv: `pre-commit install`, then commits as a maintainer makes them."""
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    for name in (
        ".pre-commit-config.yaml",
        "pyproject.toml",
        os.path.join("tools", "commitmsg.py"),
    ):
        shutil.copy(os.path.join(ROOT, name), repo / name)
    os.symlink(sys.prefix, repo / ".venv")
    git(repo, "init", "-q")
    git(repo, "add", ".pre-commit-config.yaml", "pyproject.toml", "tools")
    home = {"PRE_COMMIT_HOME": str(tmp_path / "cache")}  # nothing is fetched into it
    r = run([os.path.join(sys.prefix, "bin", "pre-commit"), "validate-config"], repo, home)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([os.path.join(sys.prefix, "bin", "pre-commit"), "install"], repo, home)
    assert r.returncode == 0, r.stdout + r.stderr
    assert os.path.exists(repo / ".git" / "hooks" / "commit-msg")

    def commit(message):
        return run(["git", "commit", "-q", "-m", message], repo, home)

    r = commit("tools: the check and its config")
    assert r.returncode == 0, r.stdout + r.stderr

    (repo / "a.py").write_text("x = [1, 2]\n")
    git(repo, "add", "a.py")
    r = commit("the message has no area")
    assert r.returncode != 0 and "the subject is not `area: what`" in r.stdout + r.stderr
    assert commit("shared: a list").returncode == 0

    (repo / "b.py").write_text("x=[1,2]\n")  # ruff format would change it
    git(repo, "add", "b.py")
    r = commit("shared: another list")
    assert r.returncode != 0 and "hook id: ruff-format" in r.stdout + r.stderr
    assert (repo / "b.py").read_text() == "x = [1, 2]\n"  # the hook formatted it
    git(repo, "add", "b.py")
    (repo / "c.py").write_text("import os\n")  # unused: ruff check refuses it
    git(repo, "add", "c.py")
    r = commit("shared: an import")
    assert r.returncode != 0 and "F401" in r.stdout + r.stderr
    git(repo, "rm", "-q", "--cached", "c.py")
    assert commit("shared: another list").returncode == 0
    assert git(repo, "log", "--format=%s") == (
        "shared: another list\nshared: a list\ntools: the check and its config\n"
    )


# ---- markers -----------------------------------------------------------------------------------


@pytest.mark.slow  # seconds: two pytest collections
def test_the_tests_that_need_the_package_index_are_marked_network():
    """pyproject registers `network`; the wheel's resolution against the index carries it, so
    `-m "not network"` leaves exactly those out (./test and CI run them)."""
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only"]
    argv += ["-n", "0", "tests/test_platforms.py"]
    r = run(argv + ["-m", "network"], ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    chosen = [ln for ln in r.stdout.splitlines() if "::" in ln]
    assert chosen and all("test_the_wheel_installs_from_wheels_only" in ln for ln in chosen)
    r = run(argv + ["-m", "not network"], ROOT)
    assert "test_the_wheel_installs_from_wheels_only" not in r.stdout


# ---- scripts/setup: system packages only when asked --------------------------------------------


def fake_checkout(tmp_path):
    """The test scripts and setup in a folder of their own, with a .venv that setup takes as up
    to date (its stamp) and tools that only say they ran; a PATH with neither Chromium nor
    Node.js, where apt-get and sudo only write down how they were called."""
    top = tmp_path / "checkout"
    (top / "scripts").mkdir(parents=True)
    for name in ("test", "pyproject.toml", "setup.py", os.path.join("scripts", "setup")):
        shutil.copy(os.path.join(ROOT, name), top / name)
    bin_ = top / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for tool in ("python", "ruff", "micropython", "mpy-cross"):
        script(bin_ / tool, 'echo "%s $*" >> "%s"' % (tool, tmp_path / "ran"))
    stamp = subprocess.run(
        "cat pyproject.toml setup.py | sha1sum | cut -c1-16",
        shell=True,
        cwd=top,
        capture_output=True,
        text=True,
    ).stdout
    (top / ".venv" / ".knockbox-setup").write_text(stamp)
    emu = tmp_path / "emu"
    emu.mkdir()
    script(emu / "setup.sh", "exit 0")
    path = tmp_path / "bin"
    path.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin"):
        for name in os.listdir(d) if os.path.isdir(d) else ():
            if (
                name.startswith(("chromium", "node", "npm", "apt", "sudo"))
                or (path / name).exists()
            ):
                continue
            os.symlink(os.path.join(d, name), path / name)
    for name in ("apt-get", "sudo"):
        script(path / name, 'echo "%s $*" >> "%s"' % (name, tmp_path / "system"))
    env = {"PATH": str(path), "RP2040_EMU": str(emu), "KNOCKBOX_SYSTEM_INSTALL": ""}
    return top, env


def script(path, body):
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_setup_installs_nothing_on_the_system_unasked(tmp_path):
    top, env = fake_checkout(tmp_path)
    r = run(["scripts/setup"], top, env)  # what ./run does: the venv only, and silent
    assert (r.returncode, r.stderr) == (0, "")
    r = run(["./test", "-q"], top, env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    line = r.stderr
    assert line.startswith("setup: the tests need system packages that are missing: ")
    assert "chromium" in line and "nodejs npm" in line
    assert "scripts/setup --system installs them" in line
    assert not (tmp_path / "system").exists()  # no apt-get, no sudo
    assert "python -m pytest" in (tmp_path / "ran").read_text()  # and the tests ran


def test_setup_installs_the_system_packages_when_asked(tmp_path):
    top, env = fake_checkout(tmp_path)
    for asked, argv in (
        ({}, ["scripts/setup", "--system"]),
        ({"KNOCKBOX_SYSTEM_INSTALL": "1"}, ["scripts/setup", "--tests"]),
    ):
        r = run(argv, top, dict(env, **asked))
        assert r.returncode == 0
        # the fake apt-get installs nothing, so setup says what is still missing
        assert r.stderr.startswith("setup: could not install ") and "chromium" in r.stderr
        calls = (tmp_path / "system").read_text()
        root = os.getuid() == 0
        assert ("apt-get install" in calls) and (root or "sudo apt-get" in calls), calls
        assert "chromium" in calls.split("install", 1)[1]
        (tmp_path / "system").unlink()


def test_no_file_keeps_a_merge_conflicts_markers():
    """A merge resolved by hand leaves no <<<<<<< / ======= / >>>>>>> lines in a tracked file."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    found = []
    for rel in filter(None, files):
        path = os.path.join(ROOT, os.fsdecode(rel))
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            for n, line in enumerate(f, 1):
                if (
                    line.startswith((b"<<<<<<< ", b">>>>>>> "))
                    or line.rstrip(b"\r\n") == b"======="
                ):
                    found.append("%s:%d" % (os.fsdecode(rel), n))
    assert found == []
