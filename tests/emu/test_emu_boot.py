"""Deploy and boot on the emulated RP2040: `knockbox deploy` puts the firmware on a blank
MicroPython v1.28 board and restarts it; the app boots and its first screen, decoded from the
SPI stream with the UC8151 model, is the unix port's rendering pixel for pixel (upright)."""

import json
import re

from knockbox.link.rawrepl import RawRepl
from kit import device as unix  # tests/kit/device.py: the same firmware on MicroPython's unix port
import emu_frames


def reference(tmp_path, name, actions=()):
    """The unix port's rendering of the screen after `actions` (tests/mp_scripts/app_driver)."""
    out = str(tmp_path / ("ref-" + name))
    unix.run_script(list(actions) + [["shot", name]], out)
    return emu_frames.pbm_image("%s/%s.pbm" % (out, name))


LISTED = [
    "/kb/knockfw/app.mpy",
    "/kb/knockcore/game.mpy",
    "/knockfw/ui_menu.mpy",
    False,
    "/knockfw",
    "/knockcore",
]


def boot_modules(dev):
    """Where the app's modules came from, as the device says after its first screen: [app's
    and knockcore.game's __file__, ui_menu's imported now, the view still on sys.path, the
    packages' __path__] (LISTED: through the imports' view, dropped since)."""
    b = RawRepl(dev.tty)  # Ctrl-C, no soft reset: the app's modules stay loaded
    try:
        return json.loads(
            b.run(
                "import sys, json\n"
                "m = sys.modules\n"
                "import knockfw.ui_menu\n"
                "print(json.dumps([m['knockfw.app'].__file__, m['knockcore.game'].__file__,"
                " m['knockfw.ui_menu'].__file__, '/kb' in sys.path,"
                " m['knockfw'].__path__, m['knockcore'].__path__]))"
            ).strip()
        )
    finally:
        b.close()


def test_pico_build_boots_through_the_listing_too(device_factory):
    """The Pico build's boot.py has knockcore in before the view is mounted (knockfw.board
    reads the boards' names from knockcore.proto): its modules come through the view too."""
    dev = device_factory(board="pico-epd")
    assert dev.wait_refresh(0, 120), "no refresh after boot"
    dev.wait_quiet(300)
    assert boot_modules(dev) == LISTED


def test_deploy_boot_first_frame(deployed, device, tmp_path):
    out = deployed["deploy"]
    assert out.startswith("exit 0"), out
    m = re.search(r"(\d+) of (\d+) files changed", out)
    assert m and m.group(1) == m.group(2) and int(m.group(1)) >= 20, out  # all of them: blank
    assert "restarted the app" in out
    empty = reference(tmp_path, "empty")

    # the boot right after the deploy (first boot: the data folder is made)
    first = emu_frames.decode(deployed["spi"], deployed["gpio"])
    assert first.frames, "no frame after the deploy"
    assert first.errors == []
    assert first.frames[-1].diff(empty) == 0, first.frames[-1].ascii()

    # an instance started from the deployed flash image boots to the same screen
    assert device.wait_refresh(0, 120), "no refresh after boot"
    device.wait_quiet(300)
    r = device.frames()
    assert r.errors == []
    assert len(r.frames) == 1 and r.frames[0].kind == "full"
    assert r.frames[0].diff(empty) == 0, r.frames[0].ascii()

    # the boot's modules were looked up in the listing of what deploy copied (knockfw/
    # rp2board.py), which is gone once they are in: later imports look on the flash
    assert boot_modules(device) == LISTED
