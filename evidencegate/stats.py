"""Statistics: the one bootstrap the evaluations use.

A percentile bootstrap over items. :func:`resample_indices` draws ``resamples`` samples of
``n`` item indices with replacement from ``random.Random(seed)``; a statistic is computed on
each draw and :func:`percentile_interval` turns those values into an interval, with the
quantiles of :func:`quantile` (linear interpolation between order statistics). A paired
comparison of two arms computes both on the same draws (the ablation's
:func:`~evidencegate.evals.metrics.paired_bootstrap`); the judge benchmark's intervals
(:func:`~evidencegate.evals.meta.bootstrap_interval`) use the same draws and quantiles.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

__all__ = ["bootstrap", "percentile_interval", "quantile", "resample_indices"]


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics.

    ``quantile([1, 2, 3, 4], 0.5) == 2.5``; ValueError on an empty sequence.
    """
    if not values:
        raise ValueError("quantile of an empty sequence")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must be within [0, 1] (got {q})")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def resample_indices(n: int, resamples: int, seed: int) -> list[list[int]]:
    """``resamples`` draws of ``n`` item indices with replacement, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    population = range(n)
    return [rng.choices(population, k=n) for _ in range(resamples)]


def percentile_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float] | None:
    """The central ``level`` interval of ``values`` (None when there are none)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be within (0, 1) (got {level})")
    if not values:
        return None
    tail = (1.0 - level) / 2
    return quantile(values, tail), quantile(values, 1.0 - tail)


def bootstrap(
    n: int,
    statistic: Callable[[Sequence[int]], float | None],
    *,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of ``statistic`` over ``n`` items.

    ``statistic`` gets the drawn item indices of one resample and returns its value, or None
    when it is undefined on that resample (left out). None when it is undefined on every one.
    """
    values = [
        value
        for draw in resample_indices(n, resamples, seed)
        if (value := statistic(draw)) is not None
    ]
    return percentile_interval(values, level)
