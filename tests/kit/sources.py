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
NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "out",
    ".*_cache",
    ".hypothesis",
    "node_modules",
)
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
