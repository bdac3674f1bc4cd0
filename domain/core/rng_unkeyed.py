"""The generator before keyed chance, frozen for the rulesets played by it (``gil-ennis/1``,
``eila-1``): SplitMix64's output function over the seed and the draw counter, unsalted.

It was replaced because observed dice narrow its seed down (:mod:`domain.core.rng`); it stays
for the campaigns recorded under it, which must draw, and hash, exactly as they did. A game of
such a ruleset states ``generator`` (:func:`domain.core.engine.evolve` keys a campaign's
generator through it) and draws through :func:`chance_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec

from domain.core.rng import Chance, Rng

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class UnkeyedRng(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """The generator as carried in state then: a seed and how many words have been drawn."""

    seed: int
    draws: int = 0

    def advanced_to(self, draws: int) -> UnkeyedRng:
        return UnkeyedRng(self.seed, draws)


def generator(seed: int, salt: str) -> UnkeyedRng:
    """A campaign's generator from its creation or reseeding: the salt was not used then."""
    return UnkeyedRng(seed)


def word(seed: int, index: int) -> int:
    """The ``index``-th 64-bit word of ``seed``'s stream."""
    z = (seed + (index + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class UnkeyedChance:
    """A draw cursor over an :class:`UnkeyedRng`, as :class:`~domain.core.rng.Chance` is."""

    __slots__ = ("draws", "seed")

    def __init__(self, rng: UnkeyedRng) -> None:
        self.seed = rng.seed
        self.draws = rng.draws

    @property
    def rng(self) -> UnkeyedRng:
        return UnkeyedRng(self.seed, self.draws)

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


def chance_of(rng: Rng | UnkeyedRng) -> Chance | UnkeyedChance:
    """A draw cursor over the generator a state carries, keyed or not."""
    if type(rng) is UnkeyedRng:
        return UnkeyedChance(rng)
    assert isinstance(rng, Rng)
    return Chance(rng)
