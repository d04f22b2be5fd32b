"""Locks another user of the machine cannot turn against the user: a command's lock file is
opened only in a folder of the user's that no one else may write (made 0700, checked each time),
never through a link, and must be a plain file of the user's; what the "in use by" line says of
the holder is only what has the form knockbox writes. Another user is simulated as far as one
user can: a folder prepared first in the shared temporary folder, links, a folder others may
write, foreign words in a held lock file (and, run as root, a folder of another uid)."""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

from kit.clirun import knockbox
from knockbox import locks
from knockbox.link import ports


@pytest.fixture
def private(tmp_path, monkeypatch):
    """The user's runtime folder (XDG_RUNTIME_DIR, 0700) in tmp_path; the lock folder in it."""
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    return run / "knockbox"


@pytest.fixture
def victim(tmp_path):
    """A folder of the user's with a file in it, which no lock may touch."""
    d = tmp_path / "victim"
    d.mkdir()
    (d / "notes.txt").write_text("mine")
    return d


def untouched(victim):
    return os.listdir(victim) == ["notes.txt"] and (victim / "notes.txt").read_text() == "mine"


def push(port):
    """`knockbox push --port port` (no device there: the lock is taken, then the port fails)."""
    return knockbox("push", "--port", port, "--timeout", "0.2")


def test_a_lock_folder_another_user_made_first_in_tmp_is_never_used(
    tmp_path, monkeypatch, private, victim
):
    """The attack on the predictable $TMPDIR/knockbox-locks-UID: another user makes it first,
    a link to a folder of the victim's, with the port's lock file a link to a file of theirs."""
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("TMPDIR", str(shared))
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    os.symlink(victim, shared / ("knockbox-locks-%d" % os.getuid()))
    port = str(tmp_path / "ttyACM7")
    name = (
        "port-%s-%s.lock"
        % (  # the port's lock file, as that layout named it
            re.sub(r"[^A-Za-z0-9]+", "_", port).strip("_")[-40:],
            hashlib.sha256(port.encode()).hexdigest()[:12],
        )
    )
    os.symlink("notes.txt", victim / name)
    code, out, err = push(port)
    assert code == 1 and "cannot open %s" % port in err, err
    assert (victim / "notes.txt").read_text() == "mine"
    assert sorted(os.listdir(victim)) == sorted(["notes.txt", name])
    assert os.listdir(private) and all(
        (private / n).is_file() and not (private / n).is_symlink() for n in os.listdir(private)
    )
    assert os.stat(private).st_mode & 0o777 == 0o700


def test_the_lock_folder_is_made_private_and_checked(tmp_path, monkeypatch, private, victim):
    port = str(tmp_path / "ttyACM0")
    # a link where the folder goes: refused in one line, nothing written where it leads
    os.symlink(victim, private)
    code, out, err = push(port)
    assert code == 1 and err.count("\n") == 1, err
    assert "is a link, not a folder of yours" in err and untouched(victim)
    os.unlink(private)
    # a folder of the user's that others may write: made 0700, its files checked
    private.mkdir(mode=0o777)
    private.chmod(0o777)
    code, out, err = push(port)
    assert code == 1 and "cannot open %s" % port in err, err
    assert os.stat(private).st_mode & 0o777 == 0o700
    # the lock file a link to a file of the user's: refused, the file untouched
    (lock,) = os.listdir(private)
    os.unlink(private / lock)
    os.symlink(victim / "notes.txt", private / lock)
    code, out, err = push(port)
    assert code == 1 and err.count("\n") == 1, err
    assert "it is a link, not a file of yours" in err and untouched(victim)
    # a hard link to it: refused too (the lock would write into the user's file)
    os.unlink(private / lock)
    os.link(victim / "notes.txt", private / lock)
    code, out, err = push(port)
    assert code == 1 and "has other names" in err and untouched(victim)


def test_a_runtime_folder_others_may_write_is_passed_over(tmp_path, monkeypatch):
    run = tmp_path / "run"
    run.mkdir()
    run.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = locks.private_dir()
    assert path.startswith(str(tmp_path / "cache" / "knockbox" / "locks-"))
    assert not os.listdir(run)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a folder away"
)
def test_a_lock_folder_of_another_user_is_refused(tmp_path, private):
    private.mkdir(mode=0o700)
    os.chown(private, 4242, 4242)
    code, out, err = push(str(tmp_path / "ttyACM0"))
    assert code == 1 and err.count("\n") == 1
    assert "belongs to another user (uid 4242)" in err and not os.listdir(private)


HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
os.ftruncate(fd, 0)
os.write(fd, sys.argv[2].encode())
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_what_a_lock_file_says_reaches_the_terminal_only_in_its_own_form(tmp_path, private):
    port = str(tmp_path / "ttyACM0")
    path = ports._lock_path(port)
    words = {"command": "\x1b]0;OWNED\x07\x1b[2J", "pid": "\x1b[31m", "since": "now\x1b[0m"}
    p = subprocess.Popen(
        [sys.executable, "-c", HOLD, path, json.dumps(words)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert p.stdout.readline() == "held\n"
        code, out, err = push(port)
    finally:
        p.kill()
        p.wait()
    assert code == 1 and err == (
        "knockbox: serial port %s is in use by another knockbox (process ?, since ?): wait "
        "for it to finish, or stop it\n" % port
    )


def test_a_simulator_folder_whose_lock_is_a_link_is_refused(tmp_path, victim):
    folder = tmp_path / "sim"
    folder.mkdir()
    os.symlink(victim / "notes.txt", folder / ports.SIM_LOCK)
    code, out, err = knockbox("simulate", "--no-tty", "--dir", folder)
    assert code == 1 and err.count("\n") == 1 and untouched(victim), err
    assert err.startswith("knockbox: cannot use the simulator's folder %s: " % folder)
    assert ports.simulator(str(folder)) is None  # nor read as a running simulator
