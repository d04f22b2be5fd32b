"""Board files (knockfw.board_badger, knockfw.board_pico_epd) and hardware/.

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

import mp

HERE = os.path.dirname(os.path.abspath(__file__))
FW = os.path.join(mp.ROOT, "firmware")
def device_modules():
    """Every file that goes on the Pico (firmware/manifest.py's device build: the firmware but
    the simulator's board, the core, main.py), relative to firmware/."""
    from knockbox.manifest import load

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
        "ignore_errors = True\n" % (typings, os.path.join(mp.ROOT, "shared"), site,
                                     tmp_path / "cache"))
    mypy = os.path.join(mp.BIN, "mypy")
    r = subprocess.run([mypy, "--config-file", str(cfg)] + CHECKED, cwd=FW,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found in %d source files" % len(CHECKED) in r.stdout
    # and the check has teeth: a misspelt machine attribute is caught
    bad = tmp_path / "fw" / "knockfw"
    bad.mkdir(parents=True)
    with open(os.path.join(FW, "knockfw", "rp2board.py")) as f:
        src = f.read().replace("machine.lightsleep(ms)", "machine.lightslep(ms)")
    (bad / "rp2board.py").write_text(src)
    for name in ("__init__.py", "uc8151.py", "epd.py", "board_badger.py"):
        with open(os.path.join(FW, "knockfw", name)) as f:
            (bad / name).write_text(f.read())
    r = subprocess.run([mypy, "--config-file", str(cfg), "knockfw/rp2board.py"],
                       cwd=str(tmp_path / "fw"), capture_output=True, text=True, timeout=300)
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


def test_only_board_files_and_power_import_machine():
    allowed = {"board_badger.py", "board_pico_epd.py", "board_sim.py", "power.py",
               "rp2board.py"}
    files = glob.glob(os.path.join(FW, "knockfw", "**", "*.py"), recursive=True)
    files.append(os.path.join(FW, "main.py"))
    offenders = [os.path.relpath(p, FW) for p in files
                 if os.path.exists(p) and os.path.basename(p) not in allowed
                 and _imports_machine(p)]
    assert offenders == []
    # the check itself works
    assert _imports_machine(os.path.join(FW, "knockfw", "board_badger.py"))


BOARD_SCRIPT = """
import sys, json, os
from fakes import fake_machine as fm
sys.modules["machine"] = fm
for gpio, level in %(levels)r:
    fm.levels[gpio] = level
from knockfw import %(module)s as mod
b = mod.Board()
out = {"name": b.name, "active_low": b.active_low, "wake": b.wake_button(),
       "first_pin": [fm.pins[0].gpio, fm.pins[0].mode, fm.pins[0].out],
       "buttons": {}, "spi": None,
       "display": [type(b.display).__name__, b.display.width, b.display.height],
       "serial": [b.serial_in is sys.stdin.buffer, b.serial_out is sys.stdout.buffer]}
for n, p in b.buttons_pins().items():
    out["buttons"][n] = [p.gpio, p.mode, p.pull]
for c in fm.calls:
    if c[0] == "spi":
        out["spi"] = [c[1], c[2]["baudrate"], c[2]["sck"].gpio, c[2]["mosi"].gpio]
d = b.display
out["display_pins"] = {"cs": d.cs.gpio, "dc": d.dc.gpio, "rst": d.rst.gpio,
                       "busy": d.busy_pin.gpio}
b.data_dir = %(data_dir)r
b.mount()
b.mount()
out["data_dir"] = b.data_dir.split("/")[-1] in os.listdir(b.data_dir.rsplit("/", 1)[0])
b.led(True)
out["led"] = fm.pin(mod.PINS["led"]).out
fm.levels[mod.PINS["vbus"]] = 1
b.idle_sleep(20)
usb_calls = len(fm.calls)
fm.levels[mod.PINS["vbus"]] = 0
b.idle_sleep(20)
out["sleeps"] = [c for c in fm.calls[usb_calls - 1:] if c[0] != "spi"]
b.power_off()
out["after_off"] = [c[0] for c in fm.calls if c[0] != "spi"]
out["led_after_off"] = fm.pin(mod.PINS["led"]).out
if "en_3v3" in mod.PINS:
    out["latch_after_off"] = fm.pin(mod.PINS["en_3v3"]).out
out["irqs"] = sorted(p.gpio for p in fm.pins if p.handler is not None)
print(json.dumps(out))
"""


def _run_board(module, levels, tmp_path):
    code = BOARD_SCRIPT % {"module": module, "levels": levels,
                           "data_dir": str(tmp_path / "data")}
    r = mp.run(code, paths=mp.SOURCE_PATHS + [HERE])
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_badger_board(tmp_path):
    res = _run_board("board_badger", [(13, 1)], tmp_path)  # B held at power-up
    assert res["name"] == "badger2040" and res["active_low"] is False
    assert res["first_pin"] == [10, 1, 1]  # the power latch is the first thing, driven high
    assert res["wake"] == "b"
    pull_down = 2
    assert res["buttons"] == {"a": [12, 0, pull_down], "b": [13, 0, pull_down],
                              "c": [14, 0, pull_down], "up": [15, 0, pull_down],
                              "down": [11, 0, pull_down]}
    assert res["spi"] == [0, 12_000_000, 18, 19]
    assert res["display"] == ["UC8151", 296, 128]
    assert res["display_pins"] == {"cs": 17, "dc": 20, "rst": 21, "busy": 26}
    assert res["serial"] == [True, True]
    assert res["data_dir"] is True
    assert res["led"] == 1
    assert res["sleeps"] == [["lightsleep", 20]]  # on USB a plain sleep, on battery lightsleep
    assert res["latch_after_off"] == 0 and res["led_after_off"] == 0


def test_pico_epd_board(tmp_path):
    res = _run_board("board_pico_epd", [(6, 0)], tmp_path)  # Down held (active low)
    assert res["name"] == "pico-epd" and res["active_low"] is True
    assert res["wake"] == "down"
    pull_up = 1
    assert res["buttons"] == {"a": [2, 0, pull_up], "b": [3, 0, pull_up], "c": [4, 0, pull_up],
                              "up": [5, 0, pull_up], "down": [6, 0, pull_up]}
    assert res["spi"] == [1, 10_000_000, 10, 11]
    assert res["display"] == ["SSD1680", 296, 128]
    assert res["display_pins"] == {"cs": 9, "dc": 8, "rst": 12, "busy": 13}
    assert res["data_dir"] is True
    assert res["sleeps"] == [["lightsleep", 20]]
    assert res["after_off"][-1] == "deepsleep"  # on battery: deepest sleep, buttons wake it
    assert res["irqs"] == [2, 3, 4, 5, 6]
    assert res["led_after_off"] == 0


def test_pins_md_matches_board_files():
    r = subprocess.run([sys.executable, os.path.join(mp.ROOT, "hardware", "tools", "gen_pins.py"),
                        "--check"], capture_output=True, text=True)
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
        assert "MEASURED_AWAKE_S_PER_HAND" in text  # the placeholder the benchmark fills
