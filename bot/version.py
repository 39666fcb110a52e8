"""The bot's version: the installed package's (``pyproject.toml``'s ``version``, one per release in
CHANGELOG.md), shown by ``/admin``, the start line and the ``cardbot_build_info`` metric."""

from __future__ import annotations

import functools
import platform
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version


@functools.cache
def version() -> str:
    try:
        return package_version("cardbot")
    except PackageNotFoundError:
        return "unknown"


def python() -> str:
    return platform.python_version()
