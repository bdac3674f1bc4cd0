"""Counter-based seeded chance that cannot be read ahead.

A campaign's generator is ``(seed, draws, salt)``: the n-th 64-bit word is BLAKE2b keyed with the
campaign's key, over the counter n (8 bytes, big-endian), cut to 8 bytes. The key is BLAKE2b-256 of
the seed (8 bytes, big-endian) and the salt (UTF-8), so it holds the 128 secret bits of both, and no
number of observed dice, shuffles or draws narrows it down short of guessing the key. The generator
still fits in the game state, needs no hidden mutable object, and a replay never draws: ``decide``
draws through a :class:`Chance` cursor and records both the outcome and the new draw count in the
event it emits.

The engine (:mod:`domain.core.engine`) keys each campaign's generator from its
``campaign/created`` or ``campaign/reseeded`` event, which carry the seed and the salt.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from hashlib import blake2b
from typing import TypeVar

import msgspec

T = TypeVar("T")

SEED_BITS = 64
_KEY_PERSON = b"tabletale-key"
_WORD_PERSON = b"tabletale-word"


class Rng(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """The generator as carried in state: its seed and salt, and how many words have been drawn."""

    seed: int
    draws: int = 0
    salt: str = ""

    def advanced_to(self, draws: int) -> Rng:
        return Rng(self.seed, draws, self.salt)


@lru_cache(maxsize=1024)
def key(seed: int, salt: str = "") -> bytes:
    """The 32-byte key of ``seed`` and ``salt``'s stream."""
    material = seed.to_bytes(8, "big") + salt.encode()
    return blake2b(material, digest_size=32, person=_KEY_PERSON).digest()


def keyed_word(stream_key: bytes, index: int) -> int:
    """The ``index``-th 64-bit word of the stream keyed by ``stream_key``."""
    digest = blake2b(index.to_bytes(8, "big"), digest_size=8, key=stream_key, person=_WORD_PERSON)
    return int.from_bytes(digest.digest(), "big")


def word(seed: int, index: int, salt: str = "") -> int:
    """The ``index``-th 64-bit word of ``seed`` and ``salt``'s stream."""
    return keyed_word(key(seed, salt), index)


class Chance:
    """A draw cursor over an :class:`Rng`, used only inside ``decide`` and ``setup``."""

    __slots__ = ("_key", "draws", "salt", "seed")

    def __init__(self, rng: Rng) -> None:
        self.seed = rng.seed
        self.salt = rng.salt
        self.draws = rng.draws
        self._key = key(rng.seed, rng.salt)

    @property
    def rng(self) -> Rng:
        return Rng(self.seed, self.draws, self.salt)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection so no outcome is favoured."""
        if n <= 0:
            raise ValueError(f"Cannot draw below {n}.")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = keyed_word(self._key, self.draws)
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
