"""Timeline lines a first-time player understands: taking nothing says so, cards are cards."""

from __future__ import annotations

from domain.eila import GAME
from domain.eila.events import CardPlaced, HeartGained, ResourceTaken
from tests.domain.eila.helpers import Table


def test_taking_nothing_of_a_gain_says_so_plainly() -> None:
    state = Table(GAME, seed=1).state
    assert GAME.describe(ResourceTaken("energy", 0), state) == (
        "Chapter 0, day 1: Eila takes no Energy"
    )
    assert GAME.describe(ResourceTaken("energy", 2), state) == (
        "Chapter 0, day 1: Eila takes 2 Energy"
    )
    assert GAME.describe(HeartGained(0), state) == "Chapter 0, day 1: Eila regains no HP"


def test_a_placed_card_is_called_a_card() -> None:
    state = Table(GAME, seed=1).state
    assert GAME.describe(CardPlaced("001", "future"), state) == (
        "Chapter 0, day 1: Card 001 goes to the Future"
    )
