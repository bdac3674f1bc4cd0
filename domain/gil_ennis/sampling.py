"""A Gil & Ennis state a seat could be in: everything is on the table except the dream deck's
order and the dice still to be rolled."""

from __future__ import annotations

import msgspec

from domain.core.rng import Chance
from domain.core.sampling import hidden_order, unknown_future
from domain.gil_ennis.state import GilEnnisState


def sample(state: GilEnnisState, seat: str | None, chance: Chance) -> GilEnnisState:
    return msgspec.structs.replace(
        state, deck=hidden_order(state.deck, chance), rng=unknown_future(chance)
    )
