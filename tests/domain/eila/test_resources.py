from __future__ import annotations

from pathlib import Path

from domain.eila.events import FearTaken, ResourcePaid
from domain.eila.state import Resources
from tests.domain.eila.helpers import Table, chapter_zero, make_game, option


def _one_option(tmp_path: Path, *effects: dict[str, object]) -> Table:
    return Table(
        make_game(
            tmp_path,
            [
                chapter_zero(
                    {
                        "001": [option("A", list(effects)), option("B", [])],
                    }
                )
            ],
        )
    )


def test_plus_x_offers_zero_to_x(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "coin", "max": 3})
    table.do("A:")
    takes = [label for label in table.labels() if label.startswith("Take")]
    assert takes == [f"Take {n} Coin (of +3)" for n in ("3", "2", "1", "no")]
    table.do("Take 1 Coin (of +3)")
    assert table.state.resources.coin == 1


def test_plus_x_is_capped_by_free_tangible_space(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "food", "max": 3})
    table.give(coin=4, stone=3)  # 7 of 8 tangible spaces taken
    table.do("A:")
    assert [la for la in table.labels() if la.startswith("Take")] == [
        "Take 1 Food (of +3)",
        "Take no Food (of +3)",
    ]


def test_storage_is_shared_per_kind(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "energy", "max": 3})
    table.give(food=8, knowledge=6)  # tangible space full, intangible has room for 2
    table.do("A:")
    assert "Take 2 Energy (of +3)" in table.labels()
    assert "Take 3 Energy (of +3)" not in table.labels()


def test_fear_must_be_taken_in_full(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "fear", "max": 2})
    events = table.do("A:")
    assert FearTaken(2, 0) in events
    assert table.state.resources.fear == 2


def test_fear_without_space_forces_discarding_other_intangibles(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "fear", "max": 2})
    table.give(knowledge=5, energy=2)  # one free intangible space, two Fear coming
    table.do("A:")
    assert table.labels()[:2] == [
        "Discard 1 Knowledge to make room for Fear",
        "Discard 1 Energy to make room for Fear",
    ]
    # No other discard: making room is that discard. Converting is still allowed before it.
    assert not any(label.startswith("Discard 1 ") for label in table.labels()[2:])
    events = table.do("Discard 1 Energy")
    assert FearTaken(2, 0) in events
    assert table.state.resources == Resources(knowledge=5, energy=1, fear=2)


def test_fear_past_the_maximum_costs_one_hp_each(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "fear", "max": 3})
    table.give(fear=7)
    hp = table.state.hp
    events = table.do("A:")
    assert FearTaken(1, 2) in events
    assert table.state.resources.fear == 8
    assert table.state.hp == hp - 2


def test_minus_x_needs_the_full_amount(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"lose": "coin", "amount": 2})
    table.give(coin=1)
    assert not any(label.startswith("A:") for label in table.labels())
    table.give(coin=2)
    events = table.do("A:")
    assert ResourcePaid("coin", 2) in events
    assert table.state.resources.coin == 0


def test_minus_fear_is_open_with_less_fear(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"lose": "fear", "amount": 2})
    table.give(fear=1)
    events = table.do("A:")
    assert ResourcePaid("fear", 1) in events
    assert table.state.resources.fear == 0


def test_any_resource_but_fear_can_be_discarded_at_any_time(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "coin", "max": 1})
    table.give(food=1, energy=1, fear=3)
    assert [la for la in table.labels() if la.startswith("Discard")] == [
        "Discard 1 Food",
        "Discard 1 Energy",
    ]
    table.do("Discard 1 Food")
    assert table.state.resources == Resources(energy=1, fear=3)
    table.do("A:")  # also while an effect waits for its choice
    assert "Discard 1 Energy" in table.labels()


def test_fear_is_taken_once_a_conversion_at_its_pause_makes_room(tmp_path: Path) -> None:
    """ "When you acquire Fear but there is insufficient storage space, you must discard other
    resources to make room for it": a conversion that makes the room is enough."""
    table = _one_option(tmp_path, {"gain": "fear", "max": 1}, {"gain": "coin", "max": 1})
    table.give(knowledge=5, fear=3)  # intangible storage full
    table.do("A:")
    assert "Discard 1 Knowledge to make room for Fear" in table.labels()
    events = table.do("Convert 5 Knowledge into 1 Magical Stone")
    assert FearTaken(1, 0) in events
    assert table.state.resources == Resources(stone=1, fear=4)
    # The option goes on to its next effect; no discard is asked for.
    assert table.labels()[:2] == ["Take 1 Coin (of +1)", "Take no Coin (of +1)"]


def test_fear_asks_only_for_the_room_a_conversion_left_missing(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "fear", "max": 7})
    table.give(knowledge=5, energy=3)  # 7 Fear coming, no room: 5 made by the conversion
    table.do("A:")
    table.do("Convert 5 Knowledge into 1 Magical Stone")
    assert table.state.resources.fear == 0
    assert [la for la in table.labels() if "make room" in la] == [
        "Discard 1 Energy to make room for Fear"
    ]
    assert FearTaken(7, 0) not in table.do("Discard 1 Energy")
    assert FearTaken(7, 0) in table.do("Discard 1 Energy")
    assert table.state.resources == Resources(stone=1, energy=1, fear=7)


def test_a_discard_at_a_gain_pause_makes_room_for_more_of_the_gain(tmp_path: Path) -> None:
    table = _one_option(tmp_path, {"gain": "food", "max": 2})
    table.give(coin=8)  # tangible storage full
    table.do("A:")
    assert [la for la in table.labels() if la.startswith("Take")] == ["Take no Food (of +2)"]
    table.do("Discard 1 Coin")
    table.do("Discard 1 Coin")
    assert next(la for la in table.labels() if la.startswith("Take")) == "Take 2 Food (of +2)"
