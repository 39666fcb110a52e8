"""A rating over a pool of players: the Bradley–Terry model fitted to pairwise results, with bootstrap intervals.

Each result is a pair of players and the first one's share (1 a win, ½ a tie, 0 a loss). The model says player
``i`` beats ``j`` with probability ``p_i / (p_i + p_j)``; the strengths are fitted by Hunter's MM iteration (2004),
with a little prior (``prior`` virtual ties of each player against a fixed player of strength 1) so that a player
who won or lost everything still gets a finite rating. Ratings are printed on the Elo scale
(``400 · log10 p``) relative to an anchor player. The intervals come from resampling whole groups of results
(e.g. every result of one duplicate deal), since the results of one deal are not independent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from engine.stats import percentile

Result = tuple[str, str, float]
"""(player a, player b, a's share of the result: 1 won, 0.5 tied, 0 lost)."""

ELO = 400.0 / math.log(10.0)
"""Natural log-strength to Elo points."""


def fit(
    results: Iterable[Result], anchor: str | None = None, prior: float = 0.5, tolerance: float = 1e-10
) -> dict[str, float]:
    """Each player's rating (Elo scale) fitted to ``results``; the ``anchor`` player (default: the first in
    sorted order) rates 0."""
    names: dict[str, int] = {}
    pairs: dict[tuple[int, int], list[float]] = {}
    for a, b, share in results:
        if a == b:
            continue
        i, j = names.setdefault(a, len(names)), names.setdefault(b, len(names))
        key, first = ((i, j), share) if i < j else ((j, i), 1.0 - share)
        entry = pairs.setdefault(key, [0.0, 0.0])
        entry[0] += first
        entry[1] += 1.0
    n = len(names)
    wins = [prior / 2.0] * n
    games: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), (won, count) in pairs.items():
        wins[i] += won
        wins[j] += count - won
        games[i].append((j, count))
        games[j].append((i, count))
    p = [1.0] * n
    for _ in range(100_000):
        new = []
        for i in range(n):
            denom = prior / (p[i] + 1.0) + sum(count / (p[i] + p[j]) for j, count in games[i])
            new.append(wins[i] / denom)
        change = max(abs(math.log(x / y)) for x, y in zip(new, p, strict=True)) if n else 0.0
        p = new
        if change < tolerance:
            break
    ordered = sorted(names)
    base = names[anchor] if anchor in names else (names[ordered[0]] if ordered else 0)
    return {name: ELO * math.log(p[names[name]] / p[base]) for name in ordered}


def bootstrap(
    groups: Sequence[Sequence[Result]],
    rounds: int = 200,
    seed: int = 1,
    anchor: str | None = None,
    prior: float = 0.5,
) -> dict[str, tuple[float, float]]:
    """Each player's 95% interval: the ratings refitted to ``rounds`` resamplings (with replacement) of the
    groups, their 2.5 and 97.5 percentiles."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {}
    for _ in range(rounds):
        picked = [groups[rng.randrange(len(groups))] for _ in groups]
        for name, rating in fit((r for g in picked for r in g), anchor, prior, 1e-7).items():
            draws.setdefault(name, []).append(rating)
    return {name: (percentile(v, 2.5), percentile(v, 97.5)) for name, v in sorted(draws.items())}
