"""A rating over a pool of players: the Bradley–Terry model fitted to pairwise results, with bootstrap intervals.

Each result is a pair of players and the first one's share (1 a win, ½ a tie, 0 a loss). The model says player
``i`` beats ``j`` with probability ``p_i / (p_i + p_j)``; the log-strengths are fitted by Newton's method (the log-likelihood is
concave), with a little prior (``prior`` virtual ties of each player against a fixed player of strength 1) so that a player
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


Tally = dict[tuple[str, str], tuple[float, float]]
"""(a, b) with a < b -> (a's shares summed, results): the results of one pair of players added up."""


def tally(results: Iterable[Result]) -> Tally:
    """The results added up by pair (a result of a player against itself is left out)."""
    out: dict[tuple[str, str], tuple[float, float]] = {}
    for a, b, share in results:
        if a == b:
            continue
        key, first = ((a, b), share) if a < b else ((b, a), 1.0 - share)
        won, count = out.get(key, (0.0, 0.0))
        out[key] = (won + first, count + 1.0)
    return out


def fit(
    results: Iterable[Result] | Tally, anchor: str | None = None, prior: float = 0.5, tolerance: float = 1e-9
) -> dict[str, float]:
    """Each player's rating (Elo scale) fitted to ``results`` (or their tally) by Newton's method on the
    log-likelihood; the ``anchor`` player (default: the first in sorted order) rates 0."""
    pairs = results if isinstance(results, dict) else tally(results)
    names = sorted({name for key in pairs for name in key})
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    theta = [0.0] * n
    for _ in range(200):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for i in range(n):
            s = 1.0 / (1.0 + math.exp(-theta[i]))  # the prior's ties against a player of log-strength 0
            grad[i] += prior * (0.5 - s)
            hess[i][i] -= prior * s * (1.0 - s)
        for (a, b), (won, count) in pairs.items():
            i, j = index[a], index[b]
            s = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            grad[i] += won - count * s
            grad[j] -= won - count * s
            w = count * s * (1.0 - s)
            hess[i][i] -= w
            hess[j][j] -= w
            hess[i][j] += w
            hess[j][i] += w
        step = _solve(hess, [-g for g in grad])
        theta = [t + d for t, d in zip(theta, step, strict=True)]
        if max((abs(d) for d in step), default=0.0) < tolerance:
            break
    base = theta[index[anchor]] if anchor in index else (theta[0] if n else 0.0)
    return {name: ELO * (theta[index[name]] - base) for name in names}


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """``x`` with ``matrix · x = rhs`` (Gaussian elimination with partial pivoting; the matrix is overwritten)."""
    n = len(rhs)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(matrix[r][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        for r in range(col + 1, n):
            f = matrix[r][col] / matrix[col][col]
            if f:
                for c in range(col, n):
                    matrix[r][c] -= f * matrix[col][c]
                rhs[r] -= f * rhs[col]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rhs[r] - sum(matrix[r][c] * x[c] for c in range(r + 1, n))) / matrix[r][r]
    return x


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
    tallies = [tally(g) for g in groups]
    draws: dict[str, list[float]] = {}
    for _ in range(rounds):
        total: dict[tuple[str, str], tuple[float, float]] = {}
        for _ in tallies:
            for key, (won, count) in tallies[rng.randrange(len(tallies))].items():
                w, c = total.get(key, (0.0, 0.0))
                total[key] = (w + won, c + count)
        for name, rating in fit(total, anchor, prior, 1e-7).items():
            draws.setdefault(name, []).append(rating)
    return {name: (percentile(v, 2.5), percentile(v, 97.5)) for name, v in sorted(draws.items())}
