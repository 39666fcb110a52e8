"""The statistics the arena reports: Wilson intervals of proportions, t intervals of means, percentiles."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes, e.g. split ties, and an effective
    fractional number of trials are allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (Cornish–Fisher, exact to ~1e-3)."""
    if df <= 0:
        return math.inf
    if df == 1:
        return 12.706
    if df == 2:
        return 4.303
    z = Z95
    g1 = (z**3 + z) / 4.0
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96.0
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384.0
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% interval from the t approximation."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, -math.inf, math.inf)
    half = t_quantile_975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` percentile (0..100) with linear interpolation between order statistics."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
