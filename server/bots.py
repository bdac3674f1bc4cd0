"""Bots that pick among a seat's legal actions, for simulations, benchmarks and load tests.

Their choices come from their own seeded generator, apart from the campaign's, so the same bot seed
and campaign seed give the same playthrough.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng

Policy = Callable[[Any, list[LegalAction]], LegalAction]


class RandomBot:
    """Chooses uniformly among the seats that may act, then among that seat's legal actions."""

    def __init__(self, seed: int, policy: Policy | None = None) -> None:
        self._chance = Chance(Rng(seed))
        self._policy = policy

    def choose(self, game: Game, state: Any) -> tuple[str, LegalAction]:
        seats = game.to_act(state)
        if not seats:
            raise RuntimeError("No seat can act, yet the campaign is still running.")
        seat = seats[self._chance.below(len(seats))]
        legal = game.legal_actions(state, seat)
        if self._policy is not None:
            return seat, self._policy(state, legal)
        return seat, legal[self._chance.below(len(legal))]
