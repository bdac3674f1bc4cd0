"""Whether luck was seen between two states: a die, a shuffle, or a card leaving a face-down pile;
never a card put into one, nor a move that drew nothing."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.engine import evolve
from domain.core.events import CampaignCreated
from domain.core.game import Game
from domain.core.luck import hides_piles, luck_seen
from domain.games import get_game


def started(name: str) -> tuple[Game, Any]:
    game = get_game(name)
    created = CampaignCreated(name, game.info.ruleset, 9, "salt", game.info.seat_layouts[0], {})
    state = evolve(game, None, created)
    for event in game.setup(state):
        state = evolve(game, state, event)
    return game, state


def test_a_state_compared_with_itself_has_seen_nothing() -> None:
    game, state = started("gil-ennis")
    assert not luck_seen(game, state, state)


def test_a_die_or_a_shuffle_moves_the_generator() -> None:
    game, state = started("gil-ennis")
    later = msgspec.structs.replace(state, rng=state.rng.advanced_to(state.rng.draws + 1))
    assert luck_seen(game, state, later)
    assert luck_seen(game, later, state), "going back to before a draw knows it as well"


def test_a_card_drawn_from_the_deck_is_seen_and_one_put_in_is_not() -> None:
    game, state = started("gil-ennis")
    assert state.deck, "the dream deck lies face down after set-up"
    drawn = msgspec.structs.replace(state, deck=state.deck[1:])
    assert luck_seen(game, state, drawn)
    assert not luck_seen(game, drawn, state), "a card put back turns nothing up"


@pytest.mark.parametrize("name", ["gil-ennis", "eila", "machina"])
def test_every_game_names_its_face_down_piles(name: str) -> None:
    game, state = started(name)
    assert hides_piles(game, state)
