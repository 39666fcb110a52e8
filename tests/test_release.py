"""The version is one, everywhere: pyproject.toml's, the installed package's (what the start line, ``/admin`` and
``cardbot_build_info`` show) and CHANGELOG.md's newest release, which has upgrade notes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from bot.version import version

ROOT = Path(__file__).resolve().parents[1]


def test_the_changelog_the_package_and_pyproject_name_the_same_release() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, flags=re.M)
    assert releases and releases[0] == declared, "CHANGELOG.md's newest release is pyproject.toml's version"
    assert version() == declared, "the installed package is another version: reinstall (pip install -e .)"
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    newest = changelog.split(f"## {releases[0]}", 1)[1].split("\n## ", 1)[0]
    if len(releases) > 1:
        assert f"### Upgrading from {releases[1]}" in newest
