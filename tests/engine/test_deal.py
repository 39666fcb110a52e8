"""Exact draws of hidden hands (engine/ai/deal.py) and their compiled twin (engine/ai/csrc/deal.h, in Кинг's kernel):
the tables count every deal that fits, and the kernel counts and draws the very deals the Python reference does,
from the same seeds. (Кинг's worlds drawn with these odds, checked by χ²: tests/engine/test_world_sampling.py.)
"""

from __future__ import annotations

import math
import random

import pytest

from engine.ai.deal import CompiledDealTable, DealTable
from engine.cards import parse_cards
from engine.king.ai.worlds import UNLIKELY_ODDS
from tests.engine.test_kernel_built import require_kernels


def test_a_table_counts_every_deal() -> None:
    """24 cards into three hands of 8 with nothing known: 24! / (8!)³ deals; one void makes them fewer, exactly."""
    mask = sum(1 << c.index for c in parse_cards("7c 8c 9c Tc Jc Qc Kc Ac 7d 8d 9d Td Jd Qd Kd Ad"))
    mask |= sum(1 << c.index for c in parse_cards("7s 8s 9s Ts Js Qs Ks As"))
    free = DealTable(mask, [8, 8, 8], [mask] * 3, [0] * 3, UNLIKELY_ODDS)
    assert free.total == math.factorial(24) // math.factorial(8) ** 3
    spades = sum(1 << c.index for c in parse_cards("7s 8s 9s Ts Js Qs Ks As"))
    void = DealTable(mask, [8, 8, 8], [mask & ~spades, mask, mask], [0] * 3, UNLIKELY_ODDS)
    # the spades go to seats 1 and 2, then the 16 others fill the room left
    ways = sum(math.comb(8, j) * math.comb(16, 8) * math.comb(8, 8 - j) for j in range(9))
    assert void.total == ways


def test_the_kernel_counts_and_draws_random_problems_as_python_does() -> None:
    require_kernels()
    from engine.king.ai import _kernel

    rng = random.Random(1)
    for _ in range(150):
        n = rng.randint(0, 24)
        mask = sum(1 << c for c in rng.sample(range(52), n))
        cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 3)))
        sizes = [b - a for a, b in zip([0, *cuts], [*cuts, n], strict=True)]
        if max(sizes) > 8:
            continue
        allowed = [mask & (rng.getrandbits(52) | (mask if rng.random() < 0.5 else 0)) for _ in sizes]
        unlikely = [mask & rng.getrandbits(52) for _ in sizes]
        python = DealTable(mask, sizes, allowed, unlikely, UNLIKELY_ODDS)
        compiled = CompiledDealTable(_kernel, mask, sizes, allowed, unlikely, UNLIKELY_ODDS)
        assert python.total == compiled.total
        for _ in range(10):
            seed = rng.getrandbits(64)
            dealt = python.deal(seed)
            assert (None if dealt is None else tuple(dealt)) == compiled.deal(seed)


def test_the_kernel_refuses_a_problem_it_cannot_take() -> None:
    require_kernels()
    from engine.king.ai import _kernel

    mask = (1 << 9) - 1
    fine = (mask, (3, 3, 3), (mask,) * 3, (0,) * 3, 0.1)
    assert _kernel.deal_total(_kernel.deal_table(*fine)) == math.factorial(9) // math.factorial(3) ** 3
    for bad in (
        (mask, (9, 0, 0), (mask,) * 3, (0,) * 3, 0.1),  # a hand larger than Кинг's
        (mask, (2, 2, 2, 2, 1), (mask,) * 5, (0,) * 5, 0.1),  # five seats
        (mask, (3, 3, 3), (mask,) * 2, (0,) * 3, 0.1),  # a seat without its allowed cards
        (1 << 52, (1, 0, 0), (1 << 52,) * 3, (0,) * 3, 0.1),  # no card 52
        (-1, (3, 3, 3), (mask,) * 3, (0,) * 3, 0.1),
        (mask, (3, 3, 3), (mask,) * 3, (0,) * 3, 2.0),  # odds above 1
    ):
        with pytest.raises(ValueError):
            _kernel.deal_table(*bad)
    with pytest.raises(ValueError):
        _kernel.deal((1, 2), 5)  # not a table
