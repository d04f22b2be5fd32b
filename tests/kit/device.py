"""Runs the real firmware (compiled with mpy-cross -O3, as on the Pico) under the MicroPython
unix port with a 192 KB heap, driven by tests/mp_scripts/app_driver.py."""

import atexit
import json
import os
import shutil
import tempfile

from kit import mp

_BUILD = {}


def build():
    """Compile the manifest's unix-port build (knockcore, knockfw with the simulator's board) once
    per test process; returns the folder of .mpy files (the path to run them)."""
    if "dir" not in _BUILD:
        d = tempfile.mkdtemp(prefix="knockbox-mpy-")
        atexit.register(shutil.rmtree, d, True)
        _BUILD["dir"] = mp.build(d)
    return _BUILD["dir"]


def run_script(actions, out_dir, flash=None, heap=mp.HEAP, timeout=300, cut_at=None):
    """Play the actions on the device; returns the driver's JSON report."""
    os.makedirs(out_dir, exist_ok=True)
    script = os.path.join(out_dir, "script.jsonl")
    with open(script, "w", encoding="utf-8") as f:
        for act in actions:
            f.write(json.dumps(act, ensure_ascii=False) + "\n")
    if flash is None:  # a fresh device unless the test hands over an image to keep
        flash = os.path.join(out_dir, "flash.img")
        if os.path.exists(flash):
            os.remove(flash)
    p = mp.run_file(
        os.path.join(mp.TESTS, "mp_scripts", "app_driver.py"),
        [script, out_dir, flash] + ([str(cut_at)] if cut_at else []),
        paths=[build()],
        heap=heap,
        timeout=timeout,
    )
    if p.returncode != 0:
        raise AssertionError("firmware failed:\n" + p.stdout[-2000:] + p.stderr[-3000:])
    lines = [json.loads(x) for x in p.stdout.strip().splitlines() if x.startswith("{")]
    report = lines[-1]
    report["games"] = [x for x in lines[:-1] if "gid" in x]
    report["events"] = [x for x in lines[:-1] if "gid" not in x]
    return report


def pbm_to_png(pbm, png, scale=2):
    from PIL import Image

    data = open(pbm, "rb").read()
    start = data.index(b"\n", data.index(b"\n") + 1) + 1
    img = Image.frombytes("1", (296, 128), data[start:]).point(lambda v: 255 - v)
    img.convert("L").resize((296 * scale, 128 * scale), Image.NEAREST).save(png)


def ink(pbm):
    """The panel as rows of 0/1 (1 = black)."""
    data = open(pbm, "rb").read()
    start = data.index(b"\n", data.index(b"\n") + 1) + 1
    raw = data[start:]
    return [[(raw[y * 37 + x // 8] >> (7 - x % 8)) & 1 for x in range(296)] for y in range(128)]


def check_layout(name, boxes):
    """Every string drawn (boxes: [x, y, w, h, s] from the driver's screenshot .json) is on the
    296x128 panel and no two overlap."""
    assert boxes, name
    for x, y, w, h, s in boxes:
        assert 0 <= x and x + w <= 296 and 0 <= y and y + h <= 128, (name, s, x, y, w, h)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            overlap_y = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            assert overlap_x <= 0 or overlap_y <= 0, (name, a[4], b[4])
