# Runs one case of a MicroPython cases module (tests/kit/mp.py run_case; pytest tests name it):
#     micropython run_case.py MODULE CASE [ARG ...]
# A cases module (tests/mp_scripts/*_cases.py) defines independent case_*() functions that raise
# on failure (each sets up what it needs, e.g. a fresh littlefs with simflash.mount(dev,
# fresh=True)) and, if its cases take arguments, setup(args), called first with ARG ... It runs
# nothing when imported. Prints "ok CASE" when the case passed.
import sys

mod = __import__(sys.argv[1])
if hasattr(mod, "setup"):
    mod.setup(sys.argv[3:])
getattr(mod, sys.argv[2])()
print("ok", sys.argv[2])
