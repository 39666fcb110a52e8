"""Where a C compiler exists, the compiled kernels must be built: their tests fail rather than skip.

``pip install`` builds the kernels as optional extensions (pyproject.toml): a failed build leaves a working
install whose «мастер» thinks in pure Python. On a machine with a compiler that is a defect to see, not a skip
to overlook; on one without (or with ``CARDBOT_PURE_PYTHON=1``) the kernels' tests skip and say why.
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType

import pytest

from engine.ai.kernel import PURE_PYTHON_ENV, pure_python_forced

KERNELS = ("engine.king.ai._kernel", "engine.konchinka.ai._kernel")


def c_compiler() -> str | None:
    """The C compiler setuptools would use (``$CC``, else ``cc``), or gcc or clang, found on PATH; None if none."""
    for name in (os.environ.get("CC", "").split(" ")[0], "cc", "gcc", "clang"):
        if name and (path := shutil.which(name)):
            return path
    return None


def require_kernels() -> tuple[ModuleType, ModuleType]:
    """Both compiled kernels; the calling test skips (with the reason) where no compiler or pure Python is forced,
    and fails where a compiler exists but a kernel does not import."""
    if pure_python_forced():
        pytest.skip(f"{PURE_PYTHON_ENV}=1: the bot players think in pure Python here")
    modules = []
    for name in KERNELS:
        try:
            modules.append(importlib.import_module(name))
        except ImportError as error:
            compiler = c_compiler()
            if compiler is None:
                pytest.skip(f"no C compiler on PATH: {name} is not built here")
            pytest.fail(
                f"{name} does not import ({error}) though a C compiler is here ({compiler}): "
                "rebuild it with `pip install --no-deps -e .` and read the compiler's errors"
            )
    return modules[0], modules[1]


def test_the_kernels_are_built_where_a_compiler_exists() -> None:
    king, konchinka = require_kernels()
    assert king.VERSION >= 1 and konchinka.VERSION >= 1
