"""Where a game's playout kernel comes from: compiled where possible, pure Python otherwise.

A game whose bot players roll out many worlds may ship a compiled kernel: the extension
``engine.<game>.ai._kernel``, built by ``pip install`` from ``engine/<game>/ai/csrc`` where a C compiler exists
(pyproject.toml lists one per game). It plays the rules of one deal, the normal players' policies and the
rollouts of the game's pure-Python reference bit for bit alike — the same values and the same step counts —,
so a decision does not depend on which path made it. :func:`load` gives a game its kernel, or None when the
extension is missing or the environment sets ``CARDBOT_PURE_PYTHON=1``; the game then plays the same rollouts in
Python.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final

PURE_PYTHON_ENV: Final = "CARDBOT_PURE_PYTHON"
"""Set to 1, the bot players think in pure Python even where the kernels are built (CI runs the tests so too)."""


def pure_python_forced() -> bool:
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def load(module: str) -> ModuleType | None:
    """The compiled kernel ``module`` (e.g. ``engine.<game>.ai._kernel``), or None: not built here, or pure
    Python forced."""
    if pure_python_forced():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def backend_of(kernel: ModuleType | None) -> str:
    """``"c"`` for a loaded kernel, ``"python"`` for none."""
    return "c" if kernel is not None else "python"
