import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
import _paths  # noqa: E402,F401  (tests/, its stubs... on sys.path: bench/_paths.py)

# Property tests (hypothesis): the suite runs the same examples every time, so that CI passes or
# fails on the code, not on the draw; HYPOTHESIS_PROFILE=explore draws new ones (run it now and
# then: that is how a counterexample of test_properties was found).
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))

# The commands' language follows the locale (knockbox.commands.common): the suite runs in an
# English one whatever the developer's, and the Russian tests ask for --lang ru or set LANG.
for _var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"


# Markers, so that a quick run is one flag (`./test -m "not emu"`): `emu` for every test on the
# emulated Pico (tests/emu: most of the suite's time), `browser` for every test that opens a page
# in Chromium, `slow` for the rest that take more than a few seconds each (marked in their module).
EMU_DIR = os.path.join(HERE, "emu") + os.sep


def pytest_collection_modifyitems(config, items):
    for item in items:
        if str(item.path).startswith(EMU_DIR):
            item.add_marker(pytest.mark.emu)
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def db(tmp_path):
    """A history file in tmp_path that does not exist yet (the command under test creates it).
    The one `db`: a module's history with games in it is a fixture named for what it holds."""
    return str(tmp_path / "h.sqlite3")


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, headless, through Playwright (tests/kit/browser.py), for a module's
    pages."""
    from kit import browser

    with browser.Chromium() as b:
        yield b
