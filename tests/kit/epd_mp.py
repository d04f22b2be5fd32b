"""Running the e-ink drivers under the MicroPython unix port on fake SPI/pins, with the harness
(tests/fakes/harness.py) imported as h: for test_display_refresh.py and
test_display_controllers.py.
"""

import json

from kit import mp

PATHS = mp.SOURCE_PATHS + [mp.TESTS]  # tests/fakes, as a package
KINDS = ["uc8151", "ssd1680"]


def run_mp(code):
    """Run `code` under micropython with the harness imported as h; return the JSON it prints."""
    script = "import json\nfrom fakes import harness as h\n" + code
    r = mp.run(script, paths=PATHS)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])
