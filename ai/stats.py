"""The arena's figures: win shares with a 95 % interval, and decision-time percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Share:
    """A mean over per-seat results with its 95 % interval (normal approximation)."""

    mean: float
    low: float
    high: float
    count: int


def share(values: Sequence[float]) -> Share:
    """The mean of `values` (each a seat's share of one game's win, 0..1) and its 95 % interval."""
    n = len(values)
    if n == 0:
        return Share(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return Share(mean, max(0.0, mean - half), min(1.0, mean + half), n)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The `fraction` percentile of `values` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]
