"""The habits of a released project: a licence, a changelog whose newest section is the version
being built, and one version on the laptop and the device."""

import os
import re
import sys

from kit import mp

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI (pyproject's dev extra)
    import tomli as tomllib

ROOT = mp.ROOT


def _pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def test_the_licence_is_the_one_pyproject_names():
    project = _pyproject()
    assert project["license"] == "MIT"
    assert "LICENSE" in project["license-files"]
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        assert f.readline().strip() == "MIT License"


def test_the_changelog_has_a_section_for_this_version():
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        heads = re.findall(r"^## (\d+\.\d+\.\d+) - (\d{4}-\d\d-\d\d)$", f.read(), re.M)
    assert heads, "CHANGELOG.md has no '## X.Y.Z - YYYY-MM-DD' section"
    assert heads[0][0] == _pyproject()["version"]
    versions = [tuple(int(n) for n in v.split(".")) for v, _ in heads]
    assert versions == sorted(versions, reverse=True), "newest first"
    assert [d for _, d in heads] == sorted((d for _, d in heads), reverse=True)


def test_the_device_reports_the_laptops_version(tmp_path):
    """What deploy puts on the device (knockfw/version.mpy) says the installed knockbox's
    version, which is pyproject's: the device's settings and its hello to `sync` show it."""
    from knockbox.build.manifest import package_version

    assert package_version() == _pyproject()["version"]
    path = mp.build(str(tmp_path), target="device", modules=["knockfw.version"])
    r = mp.run("from knockfw.version import VERSION; print(VERSION)", paths=[path])
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == package_version()
