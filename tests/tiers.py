"""The slow tier: ``FULL_TESTS=1`` plays the long scenarios at full size.

The tests marked ``slow`` (the fuzz of forged presses, the soak, the load benchmark's smoke run, the kill property,
the engines' random parties, a database locked for 25 s, calls hung for 15 s, the bot players in pure Python)
run on every change in a short version that still exercises everything they check; with ``FULL_TESTS=1`` they run
at the size that finds the rare case (``FULL_TESTS=1 .venv/bin/python -m pytest -q -rP -m slow -n auto --dist
loadgroup``, see the README).
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

FULL = os.environ.get("FULL_TESTS", "") not in ("", "0")


def size(short: T, full: T) -> T:
    """``full`` in the slow tier, ``short`` on every run."""
    return full if FULL else short
