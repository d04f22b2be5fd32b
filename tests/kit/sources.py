"""A copy of this checkout's sources, as an sdist or a wheel is built from one: without git's,
the venv's, the builds' and the caches' files (setuptools leaves its build/ folder in the tree it
builds, so a test builds from a copy), and the wheel built from them as pip builds one from an
sdist, offline, with this venv's setuptools.

    sources.copy(dest)   # dest: a folder that does not exist yet
    subprocess.run(sources.PIP_WHEEL + ["-w", DIST, SOURCES_OR_SDIST], ...)
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_ANYWHERE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "node_modules",
)
_AT_ROOT = {"build", "dist", "out"}  # the builds' folders; host/knockbox/build/ is a package


def NOT_SOURCES(folder, names):
    """copytree's ignore: what a checkout holds that is not its sources."""
    skip = set(_ANYWHERE(folder, names))
    if os.path.abspath(folder) == ROOT:
        skip |= _AT_ROOT & set(names)
    return skip


PIP_WHEEL = [
    sys.executable,
    "-m",
    "pip",
    "wheel",
    "--no-deps",
    "--no-build-isolation",
    "--disable-pip-version-check",
]


def copy(dest):
    shutil.copytree(ROOT, dest, ignore=NOT_SOURCES)
