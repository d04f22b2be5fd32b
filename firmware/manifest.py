# What goes on the device, in one place (micropython-lib style). Read by `knockbox deploy`, the
# simulator's build, the size benchmarks and the tests through host/knockbox/build/manifest.py; compiled
# by host/knockbox/build/mpy.py. Paths are relative to this folder, or to home(name): the folder Python
# imports package name from (in a checkout shared/, firmware/, host/; installed from a wheel or
# an sdist, site-packages, where this file is knockbox/firmware/manifest.py): the device gets the
# very code the laptop runs.
#
#   package(name, base_path=".", opt=3, only=None, march=None)
#       every .py under base_path/name, compiled to /name/**/*.mpy (packages go to the device's
#       root, not /lib: sys.path on rp2 is ['', '.frozen', '/lib'] and the working folder is /,
#       so an import finds them with its first lookup)
#   module(path, base_path=None, opt=3, only=None, march=None, board=None)
#       one file, compiled to /<path>.mpy; naming a file a package already lists gives it
#       its own options (the later entry wins); without base_path, a file of a package listed
#       above is taken from where that package is, anything else from this folder
#   version(path, base_path=None, only=None)
#       the module at path (found as module() finds it) compiled from `VERSION = "<V>"`, V the
#       knockbox package's version (pyproject.toml's `version`), not from its own text
#   table(path, base_path=None, only=None)
#       the module at path (found as module() finds it), a string table (`TABLE = """..."""`),
#       compiled from its TABLE packed: each Cyrillic letter one byte instead of UTF-8's two
#       (knockbox.build.mpy.pack_table; knockfw.strings unpacks it), not from its own text
#   root(path, base_path=".", only=None, board=None, dest=None)
#       copied as source to the device's root (MicroPython runs /boot.py, then /main.py), as
#       dest if given; a board= root file takes the place of the every-board one of its dest
#
#   only="device"   on the Pico only (deploy, the size budget); only="sim": the unix port only
#                   (the simulator, the tests). Without it a file is on both.
#   march="armv6m"  native code (@micropython.viper / .native): compiled with -march=armv6m for
#                   the Pico (RP2040) and for the unix port's own architecture (x64 on a PC) in
#                   the simulator's build; march={"device": ..., "sim": ...} names both.
#   board="badger2040" a file only that board needs (its pins and its panel's driver): deploy
#                   copies a board only its own (`knockbox deploy --board`), the size budget
#                   counts each board's build; the simulator and the tests get every file.
#   opt=N           mpy-cross -O level (3 everywhere: no asserts, no line numbers).

package("knockcore", base_path=home("knockcore"))
package("knockfw", base_path=home("knockfw"))

# the simulator's device side (the unix port's board, its file-backed littlefs and its entry
# point) is not firmware: it lives with the simulator, in host/knockbox/simulate/device/
SIM = home("knockbox") + "/knockbox/simulate/device"
module("simboard.py", base_path=SIM, only="sim")
module("simflash.py", base_path=SIM, only="sim")

# each board's own files: its pins and its panel's controller
module("knockfw/board_badger2040.py", board="badger2040")
module("knockfw/uc8151.py", board="badger2040")
module("knockfw/board_pico_epd.py", board="pico-epd")
module("knockfw/ssd1680.py", board="pico-epd")

# the e-ink drivers' framebuffer conversions: @micropython.viper, native code for the RP2040,
# each board's own
module("knockfw/epdconv.py", march="armv6m", board="badger2040")
module("knockfw/epdinvert.py", march="armv6m", board="pico-epd")

# text: its glyph loops in @micropython.viper, native code for the RP2040 (its other functions
# stay bytecode)
module("knockfw/text.py", march="armv6m")

# the journal's boot scan (line checks and CRC-32): @micropython.viper, native code too
module("knockfw/jscan.py", march="armv6m")

# the version of the knockbox that builds it: the settings' about line and the serial hello
version("knockfw/version.py")

# the Russian string tables, packed (a letter one byte); knockfw.strings, which unpacks them in
# @micropython.viper code when they are loaded, native code for the RP2040
table("knockfw/strings_ru.py")
table("knockfw/messages_ru.py")
module("knockfw/strings.py", march="armv6m")

# /boot.py: the board file's early() before the app is imported; the Badger's own takes its power
# latch first of all, before any file is read
root("boot.py", only="device")
root("boot_badger.py", only="device", board="badger2040", dest="boot.py")
root("main.py", only="device")
root("sim_main.py", base_path=SIM, only="sim")
