"""Timeline lines speak in whole words and count their units."""

from __future__ import annotations

import msgspec
import pytest

from domain.machina import GAME
from domain.machina.events import Explored, ItemCharges, MonsterWounded
from domain.machina.state import Effect
from tests.domain.machina.helpers import fresh


@pytest.mark.parametrize(
    ("side", "word"), [("n", "north"), ("e", "east"), ("s", "south"), ("w", "west")]
)
def test_exploring_names_the_direction_in_full(side: str, word: str) -> None:
    line = GAME.describe(Explored("ada", side, 1), fresh())
    assert line == f"Round 1: Ada Quell explores a new map tile to the {word}"


def test_one_hit_and_one_charge_are_singular() -> None:
    state = fresh()
    assert (
        GAME.describe(ItemCharges("spanner", 1), state)
        == "Round 1: Heavy Spanner has 1 charge left"
    )
    assert (
        GAME.describe(ItemCharges("spanner", 2), state)
        == "Round 1: Heavy Spanner has 2 charges left"
    )
    wounded = GAME.describe(MonsterWounded(99, 1), state)
    assert wounded == "Round 1: monster #99 takes 1 hit"


def test_effects_in_force_are_shown_in_words() -> None:
    state = msgspec.structs.replace(fresh(), horror_effects=(Effect("hit_cost", 2),))
    (shown,) = GAME.view(state, None).horror_effects
    assert (shown.kind, shown.amount, shown.text) == ("hit_cost", 2, "each hit costs 2 health")
