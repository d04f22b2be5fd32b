"""The emulated-Pico test layer: the firmware on stock MicroPython v1.28 (RPI_PICO) on rp2040js.

The emulator is ../shared/rp2040-emu beside the repository ($RP2040_EMU overrides). Without it,
every test here is left out and one test (test_emu_setup.py) skips with one line saying why;
wherever it exists (CI has it) they all run.

Fixtures:
- `emu`: the emulator's Python module (emupico), after its setup.sh (once per process).
- `deployed` (session): the Badger build, put on a fresh instance by the real
  `knockbox deploy --port <tty> --board badger`, booted until its first frame, then stopped:
  a dict with `image` (the flash image: the template every test starts from), `deploy` (the
  deploy's output), `spi`/`gpio` (the logs of that first boot). Built once per test run (under
  pytest-xdist the workers share it through a lock).
- `deployed_pico_epd` (session): the same for the Pico + Waveshare build (`--board pico-epd`
  deployed over the Badger template, started with `-i 13=0`: SSD1680 BUSY idle).
- `device_factory`: `device_factory(board="badger", no_pace=False, busy_ms=None, image=None,
  inputs=(), flash_timing=None)` starts a new instance from a copy of the template (`--wait usb`, SPI and GPIO
  logs from the first instruction) and returns an emu_device.Device; stopped after the test.
- `device`: one Badger device, started.
- `installed` (session): knockbox built as an sdist, then a wheel, and installed into a fresh
  venv (test_emu_install.py): its paths.
"""

import atexit
import fcntl
import os
import shutil
import subprocess
import sys
import threading

import pytest

import emu_device
from emu_device import HAVE_EMU, MISSING
from kit import sources

if HAVE_EMU:
    emupico = emu_device.load_emupico(setup=False)  # setup.sh runs in the emu fixture
else:
    emupico = None
    # one test says why (test_emu_setup.py); the others are not even collected
    collect_ignore = [
        n
        for n in os.listdir(os.path.dirname(os.path.abspath(__file__)))
        if n.startswith("test_") and n.endswith(".py") and n != "test_emu_setup.py"
    ]

KNOCKBOX = os.path.join(os.path.dirname(sys.executable), "knockbox")
_READY = {}


@pytest.fixture(scope="session")
def emu():
    if not HAVE_EMU:
        pytest.skip(MISSING)
    if "ok" not in _READY:
        emu_device.load_emupico()  # runs setup.sh (scripts/setup prepares the emulator)
        _READY["ok"] = True
    return emupico


# ------------------------------------------------------------------ scheduling (economy)
# The emulator tests run after the rest of the suite, longest first (so the two xdist workers
# finish together), and the deploy they all start from is made in the background as soon as
# they are collected: it waits on the emulated serial port, not on the CPU the other tests use.
_LONGEST_FIRST = (
    "test_emu_presses",
    "test_hw_",
    "test_emu_recover",
    "test_emu_serial",
    "test_emu_powercut",
    "test_emu_games",
    "test_emu_wake",
    "test_emu_boot",
    "test_emu_setup",
)
_NEEDS_DEPLOY = ("deployed", "deployed_pico_epd", "device", "device_factory")
_background = []


def _is_emu(item):
    return os.path.dirname(str(item.fspath)) == os.path.dirname(os.path.abspath(__file__))


def _rank(item):
    name = os.path.basename(str(item.fspath))
    for i, prefix in enumerate(_LONGEST_FIRST):
        if name.startswith(prefix):
            return i
    return len(_LONGEST_FIRST) // 2


def pytest_collection_modifyitems(session, config, items):
    emu = [i for i in items if _is_emu(i)]
    if not emu:
        return
    others = [i for i in items if not _is_emu(i)]
    emu.sort(key=_rank)  # stable: the file's own order within a file
    items[:] = others + emu
    factory = getattr(config, "_tmp_path_factory", None)  # what tmp_path_factory returns
    if (
        HAVE_EMU
        and factory is not None
        and any(set(_NEEDS_DEPLOY) & set(getattr(i, "fixturenames", ())) for i in emu)
    ):
        factory.getbasetemp()  # made here, not raced by the thread

        def build():
            try:
                _badger(factory)
            except Exception:  # noqa: BLE001 - the fixture reports it (the "failed" file)
                pass

        t = threading.Thread(target=build, daemon=True)
        t.start()
        _background.append(t)
    if factory is not None and any("installed" in getattr(i, "fixturenames", ()) for i in emu):
        factory.getbasetemp()

        def install():  # the wheel and its venv (mostly waiting on files), likewise
            try:
                _once(factory, "installed", _install)
            except Exception:  # noqa: BLE001 - the fixture reports it (the "failed" file)
                pass

        t = threading.Thread(target=install, daemon=True)
        t.start()
        _background.append(t)


def pytest_sessionfinish(session, exitstatus):
    for t in _background:
        t.join(120)


@atexit.register
def _join_background():
    for t in _background:
        t.join(120)


def _shared(tmp_path_factory):
    """A folder all xdist workers of this run share."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    d = os.path.join(str(base), "emu-shared")
    os.makedirs(d, exist_ok=True)
    return d


def _once(tmp_path_factory, name, build):
    """Run build(folder) once per test run (all workers); returns the folder."""
    d = os.path.join(_shared(tmp_path_factory), name)
    with open(d + ".lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(d, "done")):
            return d
        if os.path.exists(os.path.join(d, "failed")):
            raise RuntimeError(open(os.path.join(d, "failed")).read())
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        try:
            build(d)
        except BaseException as e:
            with open(os.path.join(d, "failed"), "w") as f:
                f.write("%s failed in another worker: %s" % (name, e))
            raise
        open(os.path.join(d, "done"), "w").close()
    return d


def _first_frame(dev, timeout=120):
    if not dev.wait_refresh(0, timeout):
        raise RuntimeError("the app drew nothing within %d s after deploy" % timeout)
    dev.wait_quiet(300)


def _deploy_into(emu, d, board, image):
    """Deploy with the real CLI into an instance booted from `image` (None: a blank flash),
    wait for the app's first frame, stop (the flash image is saved) and keep it as d/flash.img."""
    dev = emu_device.Device(emu, os.path.join(d, "state"), image, board=board)
    try:
        dev.start()
        p = subprocess.run(
            [KNOCKBOX, "deploy", "--port", dev.tty, "--board", board],
            capture_output=True,
            text=True,
            timeout=600,
        )
        with open(os.path.join(d, "deploy.txt"), "w") as f:
            f.write("exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
        if p.returncode != 0:
            raise RuntimeError("knockbox deploy failed:\n" + p.stdout + p.stderr)
        _first_frame(dev)
        dev.pico.flush()
    finally:
        dev.stop()
    shutil.copyfile(dev.flash, os.path.join(d, "flash.img"))
    for n in ("spi.jsonl", "gpio.jsonl"):
        shutil.copyfile(os.path.join(dev.state, n), os.path.join(d, n))


def _template(d):
    return {
        "image": os.path.join(d, "flash.img"),
        "dir": d,
        "deploy": open(os.path.join(d, "deploy.txt")).read(),
        "spi": os.path.join(d, "spi.jsonl"),
        "gpio": os.path.join(d, "gpio.jsonl"),
    }


def _badger(tmp_path_factory):
    if "ok" not in _READY:
        emu_device.load_emupico()
        _READY["ok"] = True
    return _once(tmp_path_factory, "badger", lambda d: _deploy_into(emupico, d, "badger", None))


@pytest.fixture(scope="session")
def deployed(emu, tmp_path_factory):
    return _template(_badger(tmp_path_factory))


@pytest.fixture(scope="session")
def deployed_pico_epd(emu, deployed, tmp_path_factory):
    d = _once(
        tmp_path_factory, "pico-epd", lambda d: _deploy_into(emu, d, "pico-epd", deployed["image"])
    )
    return _template(d)


@pytest.fixture
def device_factory(emu, deployed, request, tmp_path):
    started = []

    def make(board="badger", image=None, **kw):
        if image is None:
            image = (
                deployed["image"]
                if board == "badger"
                else request.getfixturevalue("deployed_pico_epd")["image"]
            )
        dev = emu_device.Device(
            emu, os.path.join(str(tmp_path), "pico%d" % len(started)), image, board=board, **kw
        )
        started.append(dev)
        return dev.start()

    yield make
    for dev in started:  # stopping takes seconds (the pty bridge): let the next test start
        dev.stop_watching()
        t = threading.Thread(target=dev.stop, daemon=True)
        t.start()
        _background.append(t)


@pytest.fixture
def device(device_factory):
    return device_factory()


# ------------------------------------------------------------------ knockbox installed
# test_emu_install.py: knockbox as a user installs it. Once per test run (all workers): the sdist
# built from a copy of this checkout (the copy is then removed), the wheel built from that sdist
# (what pip does with an sdist), both offline with this venv's setuptools; a fresh venv in the
# run's temporary folder and the wheel installed into it, its dependencies from PyPI or pip's
# cache, as `pip install` or pipx does.


def _run(argv, **kw):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=600, **kw)
    if p.returncode != 0:
        raise RuntimeError(
            "%s failed (%d):\n%s%s"
            % (" ".join(argv), p.returncode, p.stdout[-3000:], p.stderr[-3000:])
        )
    return p


def _install(d):
    src, dist, venv = (os.path.join(d, n) for n in ("src", "dist", "venv"))
    sources.copy(src)
    _run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", dist, src])
    shutil.rmtree(src)  # from here on nothing can read the sources but through the archives
    sdist = [n for n in os.listdir(dist) if n.endswith(".tar.gz")]
    _run(sources.PIP_WHEEL + ["-w", dist, os.path.join(dist, sdist[0])], cwd=d)
    wheel = [n for n in os.listdir(dist) if n.endswith(".whl")]
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            os.path.join(venv, "bin", "python"),
            "install",
            "--no-compile",
            "--disable-pip-version-check",
            os.path.join(dist, wheel[0]),
        ],
        cwd=d,
    )


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    """{"dir", "sdist", "wheel" (their paths), "bin" (the venv's bin folder), "knockbox" (its
    command)}: knockbox installed from the wheel built from the sdist (see above)."""
    d = _once(tmp_path_factory, "installed", _install)
    dist = os.path.join(d, "dist")
    names = sorted(os.listdir(dist))
    bin_dir = os.path.join(d, "venv", "bin")
    return {
        "dir": d,
        "bin": bin_dir,
        "knockbox": os.path.join(bin_dir, "knockbox"),
        "sdist": os.path.join(dist, [n for n in names if n.endswith(".tar.gz")][0]),
        "wheel": os.path.join(dist, [n for n in names if n.endswith(".whl")][0]),
    }
