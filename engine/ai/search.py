"""Determinized Monte Carlo search (PIMC) over worlds consistent with one player's view.

The searching player cannot see the other hands, so it repeatedly *samples a world* — a full state that agrees
with everything its view shows (cards seen, voids shown in play, forced plays not made) — and, in that world,
plays every candidate action followed by a playout to a horizon (the end of the deal, or a few plies: see
each game's ``ai/rollouts.py``). The action with the best average value over the worlds is chosen. All candidate actions meet the same worlds and the same
playout randomness (common random numbers), so their differences are measured with little noise, and a
candidate that is clearly worse than the leader (paired difference below zero by a wide margin) stops being
played out, which leaves the budget to the close calls.

The search is written against the core ``State`` protocol; a game plugs in through :class:`SearchModel`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar

Action: TypeAlias = Any
T = TypeVar("T")


class SearchModel(Protocol):
    """What the search needs from a game, for one searching player and one view."""

    def sample_world(self, rng: random.Random) -> Any:
        """A world consistent with the view (a full state, or what the model's :meth:`evaluate` needs of one)."""
        ...

    def evaluate(self, world: Any, actions: Sequence[Action]) -> tuple[list[float], int]:
        """The value of each action in ``world`` for the searching player (higher is better: each action
        followed by a playout, each game's ``ai/rollouts.py``), and the playout steps that took."""
        ...


def resample(pool: Sequence[T], weights: Sequence[float], rng: random.Random) -> T:
    """One of ``pool``, drawn with odds proportional to ``weights`` (sampling-importance-resampling: the
    candidate worlds a model dealt, kept by how well each explains the play so far)."""
    pick = rng.random() * sum(weights)
    for weight, item in zip(weights, pool, strict=True):
        pick -= weight
        if pick < 0:
            return item
    return pool[-1]


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much a decision may cost, in work: at most ``worlds`` sampled worlds and about ``steps`` playout steps.

    A step is one action applied in a playout (the searched candidate included). Both limits are checked after
    each whole world, so the same view and rng give the same decision however busy the machine is, and on either
    path of :mod:`engine.ai.kernel`; the step cap keeps long playouts (early in a deal, many candidates) from
    costing more than short ones. ``time_ms`` is an optional wall-clock safety net, off by default: checked
    after each world, it may stop a decision early on a slow or busy machine, which is then no longer
    reproducible. One whole world is always searched. After ``prune_after`` worlds, a candidate whose paired difference to the leader is
    below zero by more than ``prune_z`` standard errors is no longer played out.
    """

    worlds: int = 64
    steps: int | None = None
    time_ms: float | None = None
    prune_after: int = 8
    prune_z: float = 2.5


@dataclass(slots=True)
class SearchResult:
    action: Action
    worlds: int
    playouts: int
    steps: int
    stopped_by: str
    """What ended the search: ``decided`` (one candidate left), ``worlds``, ``steps`` or ``time``."""
    means: dict[str, float]


def _paired_gap(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a[i] - b[i]``."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=False)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _mean(values: Sequence[float]) -> float:
    """The mean value over the worlds an action was played out in (every sampled world counts alike)."""
    if not values:
        return -math.inf
    return sum(values) / len(values)


def pimc(
    actions: Sequence[Action],
    model: SearchModel,
    rng: random.Random,
    budget: SearchBudget,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Choose among ``actions`` by determinized playouts; ties go to the earlier action (stable order)."""
    start = clock()
    deadline = math.inf if budget.time_ms is None else start + budget.time_ms / 1000.0
    max_steps = math.inf if budget.steps is None else budget.steps
    active = list(range(len(actions)))
    values: list[list[float]] = [[] for _ in actions]
    worlds = playouts = steps = 0
    stopped_by = "decided"
    while len(active) > 1:
        if worlds >= budget.worlds:
            stopped_by = "worlds"
            break
        if steps >= max_steps:
            stopped_by = "steps"
            break
        world = model.sample_world(rng)
        row, used = model.evaluate(world, [actions[i] for i in active])
        steps += used
        playouts += len(active)
        for i, v in zip(active, row, strict=True):
            values[i].append(v)
        worlds += 1
        if clock() > deadline:
            stopped_by = "time"
            break
        if worlds >= budget.prune_after and worlds % 4 == 0:
            best = max(active, key=lambda i: (_mean(values[i]), -i))
            survivors = []
            for i in active:
                if i == best:
                    survivors.append(i)
                    continue
                gap, se = _paired_gap(values[i][-worlds:], values[best][-worlds:])
                if gap + budget.prune_z * se >= 0.0:
                    survivors.append(i)
            # Pruned actions keep their value lists frozen; compare on the worlds they saw.
            active = survivors
    means = {str(getattr(actions[i], "code", actions[i])): _mean(values[i]) for i in range(len(actions))}
    choice = active[0] if len(active) == 1 else max(active, key=lambda i: (_mean(values[i]), -i))
    return SearchResult(
        action=actions[choice],
        worlds=worlds,
        playouts=playouts,
        steps=steps,
        stopped_by=stopped_by,
        means=means,
    )
