"""Whether the chances an analysis gives are honest: of the positions given about p%, about p%
should have been won. Positions are put in deciles of their estimate; each decile says how many
it holds, the mean chance given and the share won, with a Wilson interval."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

import msgspec

from domain.analysis.figures import wilson
from domain.core.rng import Chance, Rng

DECILES = 10
T = TypeVar("T")


class Decile(msgspec.Struct, frozen=True, gc=False):
    low: float
    """The decile holds estimates in [low, low + 0.1) (the last one holds 1.0 too)."""
    positions: int
    said: float
    """The mean estimate of its positions."""
    won: int
    share: float
    share_low: float
    share_high: float


def deciles(positions: Iterable[tuple[float, bool]]) -> tuple[Decile, ...]:
    """``(estimate, won)`` pairs tallied by decile of the estimate; empty deciles left out."""
    said: list[list[float]] = [[] for _ in range(DECILES)]
    won = [0] * DECILES
    for p, outcome in positions:
        index = min(DECILES - 1, int(p * DECILES))
        said[index].append(p)
        won[index] += outcome
    found = []
    for index in range(DECILES):
        n = len(said[index])
        if n == 0:
            continue
        low, high = wilson(won[index], n)
        found.append(
            Decile(index / DECILES, n, sum(said[index]) / n, won[index], won[index] / n, low, high)
        )
    return tuple(found)


def picked(found: Sequence[T], count: int, seed: int) -> list[T]:
    """``count`` decision points of a campaign drawn without replacement from ``seed`` (all of
    them when there are fewer), in order."""
    if len(found) <= count:
        return list(found)
    order = Chance(Rng(seed, 0, "calibration/picked")).shuffled(range(len(found)))
    return [found[index] for index in sorted(order[:count])]
