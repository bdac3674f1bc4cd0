"""What a search needs from a game with hidden information: a full state a seat could be in.

A seat sees its view and the public content, and remembers what it was shown. A bot that searches
must not read the rest of the state: the order of face-down decks, the tiles still face down, and
the campaign's generator, which would tell it every future die. A game's sampler replaces all of
that by a random completion consistent with what the seat knows, drawn from the bot's own
generator, and rekeys the campaign's generator from it, so the sampled world's future is as unknown
to the bot as the real one.

Two states that differ only in what ``seat`` cannot see give the same samples for the same
generator: a sampler first puts every hidden pile in a canonical order, then shuffles it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from domain.core.rng import SEED_BITS, Chance, Rng

SAMPLED_SALT = "sampled"


class Sampler(Protocol):
    def __call__(self, state: Any, seat: str | None, chance: Chance) -> Any:
        """A full state consistent with what ``seat`` may know of ``state``, from ``chance``."""
        ...


def hidden_order(cards: Sequence[str], chance: Chance) -> tuple[str, ...]:
    """A face-down pile's cards in an order drawn from ``chance``, whatever their real order."""
    return chance.shuffled(sorted(cards))


def unknown_future(chance: Chance) -> Rng:
    """A campaign generator keyed from ``chance``: the dice and shuffles still to come, as unknown
    to the bot as the real ones."""
    return Rng(chance.below(1 << SEED_BITS), 0, SAMPLED_SALT)
