"""The tests' own helpers, shared by the test modules, the benchmarks (bench/) and tools/: run code
under the MicroPython unix port (mp, device, epd_mp), the CLI in-process (clirun), stand-in devices
(ptydevice, evenings, fake_store), games and pages (gamegen, worked, pages, catalog, textref),
Chromium (browser). tests/ is on sys.path (bench/_paths.py, which tests/conftest.py, the benches
and the tools import first): `from kit import mp`."""
