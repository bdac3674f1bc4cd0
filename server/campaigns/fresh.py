"""Where new campaign ids, seeds and salts come from, and the wall clock.

The campaign service takes these as parameters so that simulations and benchmarks can run with
deterministic ids and seeds and a clock that stands still.

Chance is keyed by a seed and a salt together (:mod:`domain.core.rng`). Luck the server draws gets
a fresh secret salt as well, so that nobody can work it out before the campaign ends. A seed the
creator chooses is known to its chooser anyway; it gets :data:`CHOSEN_SALT`, the same on every
server, so that the same game, ruleset, options, seats, seed and actions give the same campaign
anywhere. Its published hash still proves that the server played the seed it was given.
"""

from __future__ import annotations

import secrets
import time
import uuid

from domain.core.rng import SEED_BITS, word

CHOSEN_SALT = ""
"""The salt of every seed a creator chooses (at creation, or a fork's numeric ``reseed``)."""


class Fresh:
    """Where new ids, seeds and salts come from. Simulations pass a deterministic one."""

    def campaign_id(self) -> str:
        return uuid.uuid4().hex

    def seed(self) -> int:
        return secrets.randbits(SEED_BITS)

    def salt(self) -> str:
        return secrets.token_hex(8)


class Counted(Fresh):
    """Deterministic ids, seeds and salts for reproducible runs, each from its own counter."""

    def __init__(self, prefix: str, seed: int) -> None:
        self._prefix = prefix
        self._seed = seed
        self._ids = self._seeds = self._salts = 0

    def campaign_id(self) -> str:
        self._ids += 1
        return f"{self._prefix}-{self._ids:06d}"

    def seed(self) -> int:
        self._seeds += 1
        return word(self._seed, self._seeds)

    def salt(self) -> str:
        self._salts += 1
        return f"{self._prefix}-salt-{self._salts}"


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000
