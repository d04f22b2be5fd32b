"""What pyproject.toml cannot say about the packages: firmware/'s loose files.

The installed packages are knockcore (shared/), knockbox (host/) and knockfw (firmware/), each
with its subpackages. Beside knockfw, firmware/ holds files that belong to no package: manifest.py
(what goes on the device), boot.py and main.py (what the Pico runs first). They are installed as
knockbox.firmware (firmware/ mapped to it: its own files, not its subfolders), where an installed
knockbox finds them (knockbox.build.engines.firmware_root(); a checkout's, installed with pip install -e,
takes them from firmware/). The worked examples (examples/*.json, which the README replays) go
the same way, as knockbox.examples (knockbox.build.engines.examples_root()). Everything else is in
pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

SOURCES = {"knockcore": "shared", "knockbox": "host", "knockfw": "firmware"}  # package: folder

packages = ["knockbox.firmware", "knockbox.examples"]
package_dir = {"knockbox.firmware": "firmware", "knockbox.examples": "examples"}
for name, folder in SOURCES.items():
    packages += find_namespace_packages(folder, include=[name, name + ".*"])
    package_dir[name] = folder + "/" + name

setup(packages=packages, package_dir=package_dir)
