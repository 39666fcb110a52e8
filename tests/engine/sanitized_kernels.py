"""Run in a child process by tests/engine/test_kernel_sanitized.py: both kernels, built with AddressSanitizer and
UndefinedBehaviorSanitizer into the folder given as the first argument, take the boundary fuzz's inputs
(malformed and intact) and the differential comparison against the Python reference. A sanitizer that finds an
error ends this process with its report; a clean run prints what it did.

Usage: python -m tests.engine.sanitized_kernels BUILD_DIR [INPUTS]
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType


def _load(name: str, path: Path) -> None:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module  # engine.<game>.ai.kernel finds it here


def main(build: Path, inputs: int) -> None:
    for game in ("king", "konchinka"):
        _load(f"engine.{game}.ai._kernel", next((build / game).glob("_kernel*")))

    from engine.king.ai import kernel as king_kernel
    from engine.konchinka.ai import kernel as konchinka_kernel
    from tests.engine.kernel_inputs import (
        call_king,
        call_konchinka,
        king_input,
        king_positions,
        konchinka_input,
        konchinka_positions,
    )

    assert king_kernel.BACKEND == "c" and konchinka_kernel.BACKEND == "c"
    assert str(build) in str(sys.modules["engine.king.ai._kernel"].__file__)
    rng = random.Random(34)
    compared = 0
    for k in range(inputs):
        malformed = k % 3 != 0
        state = rng.choice(king_positions())
        args = king_input(state, rng, malformed)
        call_king(*args)
        if not malformed:
            legal = list(state.legal_actions())
            me = state.current_player
            assert king_kernel.king_values(state, me, legal, 1) == king_kernel.king_values(
                state, me, legal, 1, pure=True
            )
            compared += 1
        position = rng.choice(konchinka_positions())
        kargs = konchinka_input(position, rng, malformed)
        call_konchinka(*kargs)
        if not malformed:
            actions = list(position.legal_actions())
            me = kargs[1]
            assert konchinka_kernel.konchinka_values(
                position, me, actions, 4, 1
            ) == konchinka_kernel.konchinka_values(position, me, actions, 4, 1, pure=True)
            compared += 1
    dealt = deal_tables(sys.modules["engine.king.ai._kernel"], rng, inputs)
    print(f"sanitized kernels: {inputs} inputs a game, {compared} compared with Python, {dealt} deal tables")


def deal_tables(kernel: ModuleType, rng: random.Random, count: int) -> int:
    """Exact-deal tables (engine/ai/csrc/deal.h) of random problems, up to the largest the kernel takes, built and
    drawn by the sanitized kernel and compared with the Python reference; and a few it must refuse."""
    from engine.ai.deal import MAX_SIZE, CompiledDealTable, DealTable

    for _ in range(count):
        seats = rng.randint(1, 4)
        sizes = [rng.randint(0, MAX_SIZE) for _ in range(seats)]
        n = min(sum(sizes), 32)
        mask = sum(1 << c for c in rng.sample(range(52), n))
        allowed = [mask & (rng.getrandbits(52) | (mask if rng.random() < 0.7 else 0)) for _ in sizes]
        unlikely = [mask & rng.getrandbits(52) for _ in sizes]
        python = DealTable(mask, sizes, allowed, unlikely, 0.1)
        compiled = CompiledDealTable(kernel, mask, sizes, allowed, unlikely, 0.1)
        assert python.total == compiled.total
        for _ in range(3):
            seed = rng.getrandbits(64)
            dealt = python.deal(seed)
            assert (None if dealt is None else tuple(dealt)) == compiled.deal(seed)
    for bad in ((1 << 33) - 1, (9,)), (1, (1, 0, 0, 0, 0)), (1 << 52, (1,)):
        try:
            kernel.deal_table(bad[0], bad[1], (bad[0],) * len(bad[1]), (0,) * len(bad[1]), 0.1)
        except ValueError:
            continue
        raise AssertionError(f"the kernel took a deal it cannot: {bad}")
    return count


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 150)
