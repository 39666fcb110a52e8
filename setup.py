"""The compiled parts of the package: each game's playout kernel for its bot players.

A game that has one keeps its C source in ``engine/<game>/ai/csrc``; it is built as the extension
``engine.<game>.ai._kernel``, with the headers every kernel shares (``engine/ai/csrc``). Every kernel is
``optional``: a machine without a C compiler still installs, and the bot players then think in pure Python
(:mod:`engine.ai.kernel`). The rest of the configuration is in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup

SHARED = Path("engine/ai/csrc")


def kernels() -> list[Extension]:
    found = []
    for csrc in sorted(Path("engine").glob("*/ai/csrc")):
        if csrc == SHARED:
            continue
        game = csrc.parent.parent.name
        found.append(
            Extension(
                f"engine.{game}.ai._kernel",
                sources=[p.as_posix() for p in sorted(csrc.glob("*.c"))],
                depends=[p.as_posix() for p in sorted([*csrc.glob("*.h"), *SHARED.glob("*.h")])],
                include_dirs=[SHARED.as_posix(), csrc.as_posix()],
                extra_compile_args=["-O2", "-std=c11", "-ffp-contract=off", "-fno-fast-math"],
                libraries=["m"],
                optional=True,
            )
        )
    return found


setup(ext_modules=kernels())
