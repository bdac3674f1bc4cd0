"""A chance of winning counted over playouts, with its sample size and a Wilson interval."""

from __future__ import annotations

import math

import msgspec

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


class Estimate(msgspec.Struct, frozen=True, gc=False):
    """``won`` of ``playouts`` sampled continuations were won: ``p`` and its 95% interval."""

    won: int
    playouts: int
    p: float
    low: float
    high: float


def counted(won: int, playouts: int) -> Estimate:
    low, high = wilson(won, playouts)
    return Estimate(won, playouts, won / playouts if playouts else 0.0, low, high)


def known(won: bool) -> Estimate:
    """A campaign that has ended: no playout needed, the chance is certain."""
    p = 1.0 if won else 0.0
    return Estimate(int(won), 0, p, p, p)


def wilson(won: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``won`` successes in ``n`` trials (``(0, 1)`` for none):
    unlike the normal approximation it stays inside [0, 1] and is honest at 0 and n."""
    if n == 0:
        return 0.0, 1.0
    p = won / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # Exact at the ends and around the share, whatever the floating point rounding.
    low = 0.0 if won == 0 else min(p, centre - half)
    high = 1.0 if won == n else max(p, centre + half)
    return low, high
