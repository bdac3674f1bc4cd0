"""The uniformly random bot: any seat that may act, then any of its legal actions.

Its choices come from its own seeded generator, apart from the campaign's, so the same bot seed and
campaign seed give the same playthrough.
"""

from __future__ import annotations

from typing import Any

from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng


class UniformRandom:
    def __init__(self, seed: int) -> None:
        self._chance = Chance(Rng(seed))

    def choose(self, game: Game, state: Any) -> tuple[str, LegalAction]:
        seats = game.to_act(state)
        if not seats:
            raise RuntimeError("No seat can act, yet the campaign is still running.")
        seat = seats[self._chance.below(len(seats))]
        legal = game.legal_actions(state, seat)
        return seat, legal[self._chance.below(len(legal))]
