"""The bot's version and the commit it was built from, shown by ``/admin``, the start line and the
``cardbot_build_info`` metric.

The version is ``pyproject.toml``'s ``version``, one per release in CHANGELOG.md: the checkout's own file when the
bot runs from a checkout (an editable install's metadata is only as new as its last install), else the installed
package's. The commit is ``CARDBOT_COMMIT`` where the build set it (the Docker image: ``--build-arg COMMIT=...``),
else the checkout's ``HEAD`` read from its git folder (no ``git`` process), else ``unknown``.
"""

from __future__ import annotations

import functools
import os
import platform
import tomllib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
"""The folder above the package: a checkout when it holds ``pyproject.toml`` and ``.git``."""
COMMIT_SHOWN = 12
"""Hex digits of a commit shown: enough to name one among many thousands."""


@functools.cache
def version() -> str:
    try:
        declared = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
            "version"
        ]
        if isinstance(declared, str) and (CHECKOUT / "bot" / "version.py").is_file():
            return declared
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError):
        pass
    try:
        return package_version("cardbot")
    except PackageNotFoundError:
        return "unknown"


@functools.cache
def commit() -> str:
    given = os.environ.get("CARDBOT_COMMIT", "").strip()
    if given:
        return given[:COMMIT_SHOWN]
    try:
        found = git_head(CHECKOUT)
    except (OSError, ValueError):
        found = None
    return found[:COMMIT_SHOWN] if found else "unknown"


def described() -> str:
    """``0.3.0 (commit 1a2b3c4d5e6f)``: what the start line says."""
    return f"{version()} (commit {commit()})"


def git_head(checkout: Path) -> str | None:
    """The commit ``checkout``'s ``HEAD`` names, read from its git folder (a worktree's too), or None."""
    dot_git = checkout / ".git"
    if dot_git.is_file():  # a worktree or a submodule: "gitdir: PATH"
        text = dot_git.read_text(encoding="utf-8").strip()
        if not text.startswith("gitdir:"):
            return None
        git_dir = (checkout / text.removeprefix("gitdir:").strip()).resolve()
    elif dot_git.is_dir():
        git_dir = dot_git
    else:
        return None
    head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    if not head.startswith("ref:"):
        return head or None  # detached
    ref = head.removeprefix("ref:").strip()
    common = git_dir
    if (git_dir / "commondir").is_file():
        common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    for folder in (git_dir, common):
        if (folder / ref).is_file():
            return (folder / ref).read_text(encoding="utf-8").strip() or None
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha
    return None


def python() -> str:
    return platform.python_version()
