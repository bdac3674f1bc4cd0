"""A Machina state a seat could be in.

Face down: the map tile, monster, horror and item decks, each shuffled when it was formed, so a
seat knows which cards they hold (the content less what has been drawn or discarded) but not their
order; and the dice still to be rolled. The chapter deck is laid out in the scenario's order, which
the scenario card gives, so it stays as it is.
"""

from __future__ import annotations

import msgspec

from domain.core.rng import Chance
from domain.core.sampling import hidden_order, unknown_future
from domain.machina.state import MachinaState


def sample(state: MachinaState, seat: str | None, chance: Chance) -> MachinaState:
    return msgspec.structs.replace(
        state,
        map_deck=hidden_order(state.map_deck, chance),
        monster_deck=hidden_order(state.monster_deck, chance),
        horror_deck=hidden_order(state.horror_deck, chance),
        item_deck=hidden_order(state.item_deck, chance),
        rng=unknown_future(chance),
    )
