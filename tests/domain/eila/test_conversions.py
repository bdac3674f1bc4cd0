from __future__ import annotations

from pathlib import Path

from domain.eila import GAME
from tests.domain.eila.helpers import Table, chapter_zero, make_game, option


def test_the_four_food_example(tmp_path: Path) -> None:
    """Once all 4 Food are stored, 4 Food become 2 Energy (Take acquires them all at once, so
    the effect cannot be split by a conversion)."""
    table = Table(
        make_game(
            tmp_path,
            [
                chapter_zero(
                    {
                        "001": [option("A", [{"gain": "food", "max": 4}])],
                    }
                )
            ],
        )
    )
    table.do("A:")
    assert table.resolving
    table.do("Take 4 Food (of +4)")
    assert "Convert 2 Food into 1 Energy" in table.labels()
    table.do("Convert 2 Food into 1 Energy")
    table.do("Convert 2 Food into 1 Energy")
    assert (table.state.resources.food, table.state.resources.energy) == (0, 2)


def test_conversion_needs_the_resources_in_storage_and_room(tmp_path: Path) -> None:
    table = Table(make_game(tmp_path, [chapter_zero()]))
    table.give(food=1, knowledge=5)
    assert not any(label.startswith("Convert 2 Food") for label in table.labels())
    assert "Convert 5 Knowledge into 1 Magical Stone" in table.labels()
    table.give(food=2, knowledge=2, energy=3, fear=3)  # intangible storage full
    assert not any(label.startswith("Convert") for label in table.labels())


def test_conversions_are_allowed_at_night() -> None:
    table = Table(GAME)
    while table.state.phase != "night":
        table.do(table.labels()[0])
    table.give(food=2)
    assert "Convert 2 Food into 1 Energy" in table.labels()


def test_the_conversion_table_is_ruleset_data() -> None:
    ids = [c.id for c in GAME.pack.ruleset.conversions]
    assert "food-energy" in ids and "knowledge-stone" in ids
    food = GAME.pack.conversions["food-energy"]
    assert (food.give_amount, food.get_amount) == (2, 1)
