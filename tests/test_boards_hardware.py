"""Board files (knockfw.board_badger2040, knockfw.board_pico_epd) and hardware/.

- The board files and drivers type-check with mypy against the rp2 stubs
  (micropython-rp2-rpi_pico-stubs + micropython-stdlib-stubs as the typeshed).
- Only board files (and rp2board.py, their shared base) import `machine`.
- The board files run under the unix port with a fake `machine` (tests/fakes/fake_machine.py).
- hardware/PINS.md is what the boards' PINS dicts say; the wiring pictures regenerate.
"""

import ast
import glob
import json
import os
import subprocess
import sys
import sysconfig

import pytest

from knockbox.link import deploy
from knockcore.proto import BOARDS
from kit import mp

HERE = os.path.dirname(os.path.abspath(__file__))
FW = os.path.join(mp.ROOT, "firmware")


def device_modules():
    """Every file that goes on the Pico (firmware/manifest.py's device build: the firmware but
    the simulator's board, the core, main.py), relative to firmware/."""
    from knockbox.build.manifest import load

    return [os.path.relpath(e.src, FW) for e in load().entries("device")]


CHECKED = device_modules()
STUB_DIST = "micropython_rp2_rpi_pico_stubs"


def _stub_typings(dest):
    """Link the rp2 stub files (installed flat into site-packages) into a folder for MYPYPATH;
    return the site-packages folder (its stdlib/ is the MicroPython typeshed)."""
    site = sysconfig.get_paths()["purelib"]
    records = glob.glob(os.path.join(site, STUB_DIST + "-*.dist-info", "RECORD"))
    assert records, "micropython-rp2-rpi_pico-stubs is not installed: run scripts/setup"
    with open(records[0]) as f:
        names = [line.split(",")[0] for line in f if line.split(",")[0].endswith(".pyi")]
    for name in names + ["_mpy_shed"]:
        if name == "__builtins__.pyi":
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            os.symlink(os.path.join(site, name), target)
    return site


@pytest.mark.slow
def test_device_code_type_checks_against_rp2_stubs(tmp_path):
    typings = tmp_path / "typings"
    typings.mkdir()
    site = _stub_typings(typings)
    cfg = tmp_path / "mypy.ini"
    cfg.write_text(
        "[mypy]\n"
        "mypy_path = %s:%s\n"
        "custom_typeshed_dir = %s\n"
        "no_site_packages = True\n"
        "follow_imports = silent\n"
        "check_untyped_defs = True\n"
        "cache_dir = %s\n"
        # the stubs themselves have errors of their own; we check our code against them
        "[mypy-machine,vfs,time,framebuf,micropython,rp2,rp2.*,_mpy_shed,_mpy_shed.*]\n"
        "ignore_errors = True\n"
        % (typings, os.path.join(mp.ROOT, "shared"), site, tmp_path / "cache")
    )
    mypy = os.path.join(mp.BIN, "mypy")
    r = subprocess.run(
        [mypy, "--config-file", str(cfg)] + CHECKED,
        cwd=FW,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found in %d source files" % len(CHECKED) in r.stdout
    # and the check has teeth: a misspelt machine attribute is caught
    bad = tmp_path / "fw" / "knockfw"
    bad.mkdir(parents=True)
    with open(os.path.join(FW, "knockfw", "rp2board.py")) as f:
        src = f.read().replace("machine.lightsleep(ms)", "machine.lightslep(ms)")
    (bad / "rp2board.py").write_text(src)
    for name in ("__init__.py", "uc8151.py", "epd.py", "board_badger2040.py"):
        with open(os.path.join(FW, "knockfw", name)) as f:
            (bad / name).write_text(f.read())
    r = subprocess.run(
        [mypy, "--config-file", str(cfg), "knockfw/rp2board.py"],
        cwd=str(tmp_path / "fw"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 1 and "lightslep" in r.stdout


def _imports_machine(path):
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(a.name.split(".")[0] in ("machine", "umachine") for a in node.names):
                return True
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in ("machine", "umachine"):
                return True
    return False


def board_file(name):
    """The board file of a board name of knockcore.proto.BOARDS (as knockfw.board.module())."""
    return "board_" + name.replace("-", "_") + ".py"


def test_every_board_the_firmware_knows_has_its_board_file():
    for name in BOARDS:
        tree = ast.parse(open(os.path.join(FW, "knockfw", board_file(name))).read())
        defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        assert {"Board", "early", "off"} <= defined, name
    files = glob.glob(os.path.join(FW, "knockfw", "board_*.py"))
    assert sorted(os.path.basename(p) for p in files) == sorted(map(board_file, BOARDS))


def test_only_board_files_import_machine():
    allowed = {board_file(b) for b in BOARDS} | {"rp2board.py"}
    files = glob.glob(os.path.join(FW, "knockfw", "**", "*.py"), recursive=True)
    files.append(os.path.join(FW, "main.py"))
    offenders = [
        os.path.relpath(p, FW)
        for p in files
        if os.path.exists(p) and os.path.basename(p) not in allowed and _imports_machine(p)
    ]
    assert offenders == []
    # the check itself works
    assert _imports_machine(os.path.join(FW, "knockfw", "board_badger2040.py"))


BOARD_SCRIPT = """
import sys, json, os
from fakes import fake_machine as fm
sys.modules["machine"] = fm
from fakes import fake_rp2
sys.modules["_rp2"] = fake_rp2
for gpio, level in %(levels)r:
    fm.levels[gpio] = level
from knockfw import %(module)s as mod
out = {"early": None}
if %(early)r:
    out["early"] = mod.early()  # what boot.py does
    out["early_pins"] = [[p.gpio, p.mode, p.pull, p.out] for p in fm.pins]
    for gpio, level in %(levels)r:  # the waking press ends before the app builds its board
        del fm.levels[gpio]
b = mod.Board()
out.update({"name": b.name, "active_low": b.active_low, "wake": b.wake_button(),
       "wake_again": b.wake_button(),
       "first_pin": [fm.pins[0].gpio, fm.pins[0].mode, fm.pins[0].out],
       "buttons": {}, "spi": None,
       "display": [type(b.display).__name__, b.display.width, b.display.height],
       "serial": [b.serial_in is sys.stdin.buffer, b.serial_out is sys.stdout.buffer]})
for n, p in b.buttons_pins().items():
    out["buttons"][n] = [p.gpio, p.mode, p.pull]
for c in fm.calls:
    if c[0] == "spi":
        out["spi"] = [c[1], c[2]["baudrate"], c[2]["sck"].gpio, c[2]["mosi"].gpio,
                      c[2]["miso"].gpio if "miso" in c[2] else None]
d = b.display
spi = d.spi
out["display_pins"] = {"cs": d.cs.gpio, "dc": d.dc.gpio, "rst": d.rst.gpio,
                       "busy": d.busy_pin.gpio}
out["rst_held"] = d.rst.value() == 0 and d._held is not None
b.data_dir = %(data_dir)r
b.mount()
b.mount()
out["data_dir"] = b.data_dir.split("/")[-1] in os.listdir(b.data_dir.rsplit("/", 1)[0])
b.led(True)
out["led"] = fm.pin(mod.PINS["led"]).out
out["rate_boot"] = spi.rate()
fm.levels[mod.PINS["vbus"]] = 1
n0 = len(fm.calls)
b.idle_sleep(20)
out["usb_sleeps"] = [c for c in fm.calls[n0:]]
out["rate_usb"] = spi.rate()
fm.levels[mod.PINS["vbus"]] = 0
b.awake_ms = 0  # light sleep at once (the wait for still buttons: test_rp2board_ring.py)
n0 = len(fm.calls)
b.idle_sleep(20)
out["battery_sleeps"] = [c[0] for c in fm.calls[n0:]]
out["rate_battery"] = spi.rate()
fm.levels[mod.PINS["vbus"]] = 1
n0 = len(fm.calls)
b.power_off()  # on USB
out["off_usb"] = [c[0] for c in fm.calls[n0:] if c[0] != "spi.init"]
if "en_3v3" in mod.PINS:
    out["latch_after_off_usb"] = fm.pin(mod.PINS["en_3v3"]).out
    b.idle_sleep(10)
    out["latch_after_idle"] = fm.pin(mod.PINS["en_3v3"]).out
fm.levels[mod.PINS["vbus"]] = 0
for gpio, level in %(levels)r:  # every button let go
    fm.levels.pop(gpio, None)
slices = []
adc_off = []
def press_later(ms):  # a press during the 4th slice of sleep
    slices.append(ms)
    adc_off.append(fm.mem32[0x4004C000])  # the sampler's ADC (CS) while it sleeps
    if len(slices) == 4 and %(press)r:
        fm.levels[%(press)r[0]] = %(press)r[1]
fm.on_sleep.append(press_later)
n0 = len(fm.calls)
b.power_off()  # on battery
out["off_battery"] = [c[0] for c in fm.calls[n0:] if c[0] != "spi.init"]
out["slices"] = slices
out["adc_off"] = sorted(set(adc_off))
out["adc_after_off"] = fm.mem32[0x4004C000]
out["rate_after_off"] = spi.rate()
out["wake_after_off"] = b.wake_button()
out["led_after_off"] = fm.pin(mod.PINS["led"]).out
if "en_3v3" in mod.PINS:
    out["latch_after_off"] = fm.pin(mod.PINS["en_3v3"]).out
    b.idle_sleep(10)
    out["latch_after_idle2"] = fm.pin(mod.PINS["en_3v3"]).out
out["irqs"] = sorted(p.gpio for p in fm.pins if p.handler is not None)
out["panel_asleep"] = d.awake is False
out["vbus_pin"] = [b._vbus.gpio, b._vbus.mode, b._vbus.pull]
print(json.dumps(out))
"""


def _run_board(module, levels, tmp_path, early=False, press=None):
    code = BOARD_SCRIPT % {
        "module": module,
        "levels": levels,
        "early": early,
        "press": press,
        "data_dir": str(tmp_path / "data"),
    }
    r = mp.run(code, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


PULL_UP, PULL_DOWN, IN, OUT = 1, 2, 0, 1


def test_badger_board(tmp_path):
    res = _run_board("board_badger2040", [(13, 1)], tmp_path)  # B held at power-up
    assert res["name"] == "badger2040" and res["active_low"] is False
    assert res["first_pin"] == [10, OUT, 1]  # the power latch is the first thing, driven high
    assert res["wake"] == "b" and res["wake_again"] is None  # once
    assert res["buttons"] == {
        "a": [12, IN, PULL_DOWN],
        "b": [13, IN, PULL_DOWN],
        "c": [14, IN, PULL_DOWN],
        "up": [15, IN, PULL_DOWN],
        "down": [11, IN, PULL_DOWN],
    }
    assert res["spi"] == [0, 12_000_000, 18, 19, 16]  # every pin named (MISO: unconnected)
    assert res["display"] == ["UC8151", 296, 128]
    assert res["display_pins"] == {"cs": 17, "dc": 20, "rst": 21, "busy": 26}
    assert res["rst_held"] is True  # the panel in reset while the app loads (epd.hold_reset)
    assert res["serial"] == [True, True]
    assert res["data_dir"] is True
    assert res["led"] == 1
    assert res["usb_sleeps"] == []  # on USB a plain sleep: the serial link keeps running
    assert res["battery_sleeps"] == ["lightsleep", "spi.init"]
    # power off on USB: the latch is released, the board keeps running on USB, and the loop's
    # next idle_sleep takes the latch again (USB unplugged later must not kill it mid-game)
    assert res["off_usb"] == [] and res["latch_after_off_usb"] == 0
    assert res["latch_after_idle"] == 1
    # on battery: latch released (the board goes dark); if it still runs (a button held
    # through the auto-off), the next turn of the loop holds the power again
    assert res["off_battery"] == [] and res["latch_after_off"] == 0
    assert res["latch_after_idle2"] == 1
    assert res["led_after_off"] == 0 and res["panel_asleep"] is True
    # VBUS sense keeps Pimoroni's pull-down: undriven, it reads battery (hardware/README.md)
    assert res["vbus_pin"] == [24, IN, PULL_DOWN]


def test_badger_boot_sample_is_the_wake_button(tmp_path):
    """boot.py's early(): the latch before anything else, then the buttons; the app's Board()
    reports the button held then, even if it was let go since."""
    res = _run_board("board_badger2040", [(15, 1)], tmp_path, early=True)  # Up held at power-up
    assert res["early"] == "up"
    assert res["early_pins"][0] == [10, OUT, -1, 1]  # GPIO 10 high, first of all
    # then the Badger W probe's I2C0 (GPIO 4 and 5, inputs again after it), then the buttons
    assert {p[0] for p in res["early_pins"][1:5]} == {4, 5}
    assert [p[0] for p in res["early_pins"][5:]][:4] == [12, 13, 14, 15]  # a, b, c, up
    assert all(p[1:3] == [IN, PULL_DOWN] for p in res["early_pins"][5:])
    assert res["wake"] == "up" and res["wake_again"] is None


def test_spi_clock_survives_light_sleep(tmp_path):
    """MicroPython v1.28 on rp2: lightsleep() leaves clk_peri at 125 MHz (48 MHz at boot) and
    keeps the SPI divider: without a re-init the panel is clocked 2.6x too fast."""
    for module, hz in (("board_badger2040", 12_000_000), ("board_pico_epd", 10_000_000)):
        res = _run_board(module, [], tmp_path, press=[5, 0])
        # pico-sdk's divider never exceeds the rate asked: 48 MHz / 4 = 12 MHz, / 6 = 8 MHz
        assert hz * 0.8 <= res["rate_boot"] <= hz
        assert res["rate_usb"] == res["rate_boot"]  # no light sleep on USB
        assert hz * 0.8 <= res["rate_battery"] <= hz, (module, res["rate_battery"])
        assert hz * 0.8 <= res["rate_after_off"] <= hz, (module, res["rate_after_off"])


def test_pico_epd_board(tmp_path):
    res = _run_board("board_pico_epd", [(6, 0)], tmp_path, press=[4, 0])  # Down held (active low)
    assert res["name"] == "pico-epd" and res["active_low"] is True
    assert res["wake"] == "down" and res["wake_again"] is None
    assert res["buttons"] == {
        "a": [2, IN, PULL_UP],
        "b": [3, IN, PULL_UP],
        "c": [4, IN, PULL_UP],
        "up": [5, IN, PULL_UP],
        "down": [6, IN, PULL_UP],
    }
    # every pin named: without miso= SPI(1) would take GP8, the panel's DC, as its MISO
    assert res["spi"] == [1, 10_000_000, 10, 11, 28]
    assert res["display"] == ["SSD1680", 296, 128]
    assert res["display_pins"] == {"cs": 9, "dc": 8, "rst": 12, "busy": 13}
    assert res["rst_held"] is True  # the panel in reset while the app loads (epd.hold_reset)
    assert res["data_dir"] is True
    assert res["usb_sleeps"] == []
    assert res["battery_sleeps"] == ["lightsleep", "spi.init"]
    assert res["off_usb"] == []  # on USB power_off returns at once
    # on battery: light sleep in short slices until a press (C, during the 4th slice) ends it;
    # never machine.deepsleep (no GPIO wakes it on rp2) nor pin IRQs (they set no wake source)
    assert res["off_battery"] == ["lightsleep"] * 4
    assert res["slices"] == [25] * 4
    # the sampler's ADC stopped for the hours off (its current saved), free running again after
    assert res["adc_off"] == [0] and res["adc_after_off"] == 0x4009
    assert res["wake_after_off"] == "c"
    assert res["vbus_pin"] == [24, IN, PULL_DOWN]  # as the Badger's (hardware/README.md)
    assert res["irqs"] == []
    assert res["led_after_off"] == 0 and res["panel_asleep"] is True


def test_pico_epd_boot_sample(tmp_path):
    res = _run_board("board_pico_epd", [(3, 0)], tmp_path, early=True, press=[4, 0])
    assert res["early"] == "b" and res["wake"] == "b"
    assert 10 not in [p[0] for p in res["early_pins"]]  # GPIO 10 is the panel's SCK here
    assert all(p[1:3] == [IN, PULL_UP] for p in res["early_pins"])


BOOT_SCRIPT = """
import sys, json
from fakes import fake_machine as fm
sys.modules["machine"] = fm
from fakes import fake_rp2
sys.modules["_rp2"] = fake_rp2
fm.levels[12] = 1   # Badger A held
fm.levels[2] = 0    # Pico build A held
before = set(sys.modules)
from knockfw import board
board.BOARD_FILE = %(board_file)r   # boot.py reads the choice through knockfw.board
with open(%(boot)r) as f:
    exec(f.read())
loaded = sorted(set(sys.modules) - before)
from knockfw import rp2board
latched = rp2board._latched[0]     # the Buttons boot.py started: a press now is kept
pin = rp2board._latched[1]["up"]
fake_rp2.entry(300)
fm.levels[pin.gpio] = 0 if latched._low else 1     # pressed (the Pico build's are active low)
fake_rp2.entry(200)
fake_rp2.entry(190)                                 # (a level counts once two entries see it)
print(json.dumps({"loaded": loaded,
                  "irqs": sorted([p.gpio, p.trigger, p.hard] for p in fm.pins
                                 if p.handler is not None),
                  "events": latched.poll(1000),
                  "pins": [[p.gpio, p.mode, p.out] for p in fm.pins],
                  "early": rp2board._early, "chosen": board.chosen(),
                  "chosen_module": board.module(board.chosen()).__name__}))
"""


@pytest.mark.parametrize(
    "content, name",
    [
        ({"board": "badger2040"}, "badger2040"),
        ({"board": "pico-epd"}, "pico-epd"),
        ({"board": "pico_epd"}, "pico-epd"),
        ("pico-epd", "pico-epd"),
        ({"board": "badger2040w"}, "badger2040"),  # a board it does not know: the first
        ({}, "badger2040"),
        (None, "badger2040"),
        ("{broken", "badger2040"),
    ],
)
def test_boot_py(tmp_path, content, name):
    """firmware/boot.py: the board file's early() before any of the app; the same board as
    knockfw/board.py picks; harmless on the Pico build (its GPIO 10 is the panel's SCK)."""
    bf = tmp_path / "board.json"
    if content == "{broken":
        bf.write_text(content)
    elif content is not None:
        bf.write_text(json.dumps(content))
    code = BOOT_SCRIPT % {
        "board_file": str(bf),
        "boot": os.path.join(FW, "boot.py"),
    }
    r = mp.run(code, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "boot.py:" not in r.stdout
    res = json.loads(r.stdout.strip().splitlines()[-1])
    heavy = [
        m
        for m in res["loaded"]
        if m.split(".")[-1]
        in (
            "app",
            "uc8151",
            "ssd1680",
            "epd",
            "epdconv",
            "epdinvert",
            "framebuf",
            "store",
            "journal",
            "ui",
            "screens",
            "link",
        )
    ]
    assert heavy == []  # nothing of the app, not even the display driver
    # what chooses the board (knockfw.board, with the boards' names from knockcore.proto), the
    # board file, its shared base and the buttons: no more of the app (the boards' contract is
    # the package's own module, knockfw)
    assert "knockcore.proto" in res["loaded"]
    assert {m for m in res["loaded"] if m.startswith("knockfw.")} == {
        "knockfw.board",
        "knockfw.buttons",
        res["chosen_module"],
        "knockfw.rp2board",
    }, res["loaded"]
    # ... but the buttons: every press from here on is sampled into the rings (here Up, made
    # while the app would still be importing, comes out of the app's first poll); no pin IRQs
    assert "knockfw.buttons" in res["loaded"]
    assert res["irqs"] == []
    assert res["events"] == [["up", "press"]]
    boards = [m for m in res["loaded"] if m.startswith("knockfw.board_")]
    assert res["chosen"] == name
    assert boards == ["knockfw.board_" + name.replace("-", "_")]
    if isinstance(content, dict):  # the laptop reads board.json as the firmware does
        assert deploy.board_of(json.dumps(content).encode()) == name
    assert res["early"] == "a"
    if name == "pico-epd":
        assert 10 not in [p[0] for p in res["pins"]]
    else:  # the Badger (also the default when board.json is missing or broken)
        assert res["pins"][0] == [10, OUT, 1]


def test_boot_py_never_raises(tmp_path):
    code = """
import sys
sys.modules["machine"] = None   # importing machine fails
with open(%r) as f:
    exec(f.read())
print("still booting")
""" % os.path.join(FW, "boot.py")
    r = mp.run(code, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "boot.py:" in r.stdout and r.stdout.strip().endswith("still booting")


def test_pins_md_matches_board_files():
    r = subprocess.run(
        [sys.executable, os.path.join(mp.ROOT, "hardware", "tools", "gen_pins.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    sys.path.insert(0, os.path.join(mp.ROOT, "hardware", "tools"))
    try:
        import gen_pins
    finally:
        sys.path.pop(0)
    text = gen_pins.render()
    for fname, _title, _kind in gen_pins.BOARDS:
        pins, _ = gen_pins.read_pins(os.path.join(FW, "knockfw", fname))
        for name, gpio in pins.items():
            assert "| %d |" % gpio in text and "`%s`" % name in text
    # pins are unique per board, and the buttons are all there
    for fname, _title, _kind in gen_pins.BOARDS:
        pins, _ = gen_pins.read_pins(os.path.join(FW, "knockfw", fname))
        assert len(set(pins.values())) == len(pins)
        assert {"a", "b", "c", "up", "down", "cs", "dc", "rst", "busy"} <= set(pins)


def test_wiring_diagrams_regenerate(tmp_path):
    from PIL import Image

    script = os.path.join(mp.ROOT, "hardware", "tools", "draw_wiring.py")
    r = subprocess.run([sys.executable, script, str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    for name in ("wiring_pico_epd29.png", "badger2040_buttons.png"):
        fresh = Image.open(tmp_path / name)
        committed = Image.open(os.path.join(mp.ROOT, "hardware", name))
        assert fresh.size == committed.size
        assert fresh.size[0] >= 600 and fresh.getbbox() is not None


@pytest.mark.parametrize("doc", ["README.md", "BOM.md", "PINS.md", "POWER.md", "ENCLOSURE.md"])
def test_hardware_docs_exist(doc):
    path = os.path.join(mp.ROOT, "hardware", doc)
    with open(path) as f:
        text = f.read()
    assert len(text) > 300
    if doc == "POWER.md":
        assert "bench/bench_battery.py --write" in text  # its figures: the bench's own block


BADGER_BOOT_SCRIPT = """
import sys, json
from fakes import fake_machine as fm
with open(%(boot)r) as f:
    src = f.read()
path = list(sys.path)
sys.modules["machine"] = fm
from fakes import fake_rp2
sys.modules["_rp2"] = fake_rp2
fm.levels[13] = 1   # B held
# (the unix port's own machine module is what an empty path finds: the fake stands in for it)
exec(src.replace("import machine  #", "machine = sys.modules['machine']  #"))
print(json.dumps({"pins": [[p.gpio, p.mode, p.out] for p in fm.pins],
                  "path_kept": sys.path == path,
                  "registered": sorted(n for n in ("machine", "time", "os", "json", "binascii",
                                                   "array") if n in sys.modules),
                  "irqs": sorted(p.gpio for p in fm.pins if p.handler is not None),
                  "sampling": [(fake_rp2.channels[0].ctrl >> 15) & 63,
                               fake_rp2.channels[1].read]}))
"""


def test_badger_boot_py_takes_the_latch_first(tmp_path):
    """The Badger's own /boot.py (deploy puts firmware/boot_badger.py there): its first
    statements drive GPIO 10 high, before any file is read or any path looked up (sys.path is
    empty while `import machine` runs); then the board file's early() latches the buttons."""
    src = open(os.path.join(FW, "boot_badger.py")).read()
    code = [ln.strip() for ln in src.splitlines() if ln.strip() and not ln.startswith("#")]
    assert code[:6] == [
        "import sys",
        "_path = sys.path[:]",
        "sys.path.clear()",
        "try:",
        "import machine  # after the path is emptied: the built-in at once",
        "machine.Pin(10, machine.Pin.OUT, value=1)",
    ]
    # the path is given back whatever happens there (the app is imported through it)
    assert "finally:\n    sys.path.extend(_path)" in src
    sys.path.insert(0, os.path.join(mp.ROOT, "hardware", "tools"))
    try:
        import gen_pins
    finally:
        sys.path.pop(0)
    pins, _ = gen_pins.read_pins(os.path.join(FW, "knockfw", "board_badger2040.py"))
    assert pins["en_3v3"] == 10  # the one pin boot_badger.py names is the board file's latch
    from knockbox.build import manifest

    m = manifest.load()
    boots = {
        b: [e.src for e in m.entries("device", b) if e.dest == "boot.py"]
        for b in ("badger2040", "pico-epd")
    }
    assert boots == {
        "badger2040": [os.path.join(FW, "boot_badger.py")],
        "pico-epd": [os.path.join(FW, "boot.py")],
    }
    r = mp.run(
        BADGER_BOOT_SCRIPT % {"boot": os.path.join(FW, "boot_badger.py")},
        paths=mp.SOURCE_PATHS + [HERE],
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "boot.py:" not in r.stdout
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["pins"][0] == [10, OUT, 1]  # the latch, first of all
    assert res["path_kept"] is True
    # the built-ins in sys.modules: the app's `import time` etc. then look nothing up on flash
    assert res["registered"] == ["array", "binascii", "json", "machine", "os", "time"]
    assert res["irqs"] == []  # then early(): the buttons sampled (DMA), no pin IRQs
    assert res["sampling"] == [36, 0x400140F4]  # paced by the ADC, reading GPIO 8-15 (INTR1)


def _boot_after(setup):
    """The Badger's boot.py run with setup (a line of the fake's GPIO) in place of B held: its
    early() button and the buttons' pads as boot.py left them."""
    script = BADGER_BOOT_SCRIPT.replace("fm.levels[13] = 1   # B held", setup).replace(
        'print(json.dumps({"pins"',
        'from knockfw import rp2board\nprint(json.dumps({"early": rp2board._early, "pads": '
        '[fm.mem32[0x4001C004 + 4 * g] for g in range(11, 16)], "pins"',
    )
    r = mp.run(
        script % {"boot": os.path.join(FW, "boot_badger.py")},
        paths=mp.SOURCE_PATHS + [HERE],
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_pin_another_firmware_left_driving_is_no_waking_press(tmp_path):
    """A soft reset keeps the GPIO as the last firmware set them (`knockbox deploy` restarting a
    Pico that held the Waveshare build, whose panel reset line is GPIO 12, the Badger's A, driven
    high): boot.py's first read of GPIO_IN counts only the pins that are not outputs, so the
    board does not wake to a press nobody made."""
    res = _boot_after("fm.Pin(12, fm.Pin.OUT, value=1)  # the panel's reset line, left high")
    assert res["early"] == ""
    # nor a pull-up it left (the Waveshare build's panel BUSY is GPIO 13, the Badger's B): the
    # pads are set as reset leaves them, pulled down, before the first look
    res = _boot_after("")
    assert res["pads"] == [0x56] * 5 and res["early"] == ""
