"""Counter-based seeded chance.

A campaign's generator is just ``(seed, draws)``: the n-th 64-bit word is a pure function of the
seed and n (SplitMix64's output function), so the generator state fits in the game state, needs no
hidden mutable object, and a replay never draws: ``decide`` draws through a :class:`Chance` cursor
and records both the outcome and the new draw count in the event it emits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
SEED_BITS = 64


class Rng(msgspec.Struct, frozen=True, array_like=True):
    """The generator as carried in state: a seed and how many words have been drawn."""

    seed: int
    draws: int = 0

    def advanced_to(self, draws: int) -> Rng:
        return Rng(self.seed, draws)


def word(seed: int, index: int) -> int:
    """The ``index``-th 64-bit word of ``seed``'s stream."""
    z = (seed + (index + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Chance:
    """A draw cursor over an :class:`Rng`, used only inside ``decide`` and ``setup``."""

    __slots__ = ("draws", "seed")

    def __init__(self, rng: Rng) -> None:
        self.seed = rng.seed
        self.draws = rng.draws

    @property
    def rng(self) -> Rng:
        return Rng(self.seed, self.draws)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection so no outcome is favoured."""
        if n <= 0:
            raise ValueError(f"Cannot draw below {n}.")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = word(self.seed, self.draws)
            self.draws += 1
            if value < limit:
                return value % n

    def die(self, sides: int = 6) -> int:
        """One roll of a die numbered 1 to ``sides``."""
        return self.below(sides) + 1

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(self.die(sides) for _ in range(count))

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A Fisher-Yates shuffle of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)
