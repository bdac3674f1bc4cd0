from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from domain.eila.events import ChapterLost, EffectSkipped, HeartGained, ItemsDiscarded
from tests.domain.eila.helpers import Table, chapter_zero, habit, make_game, option


def _table(tmp_path: Path, *effects: dict[str, object], **kw: object) -> Table:
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
            **kw,
        )
    )


def test_blue_card_goes_to_the_future(tmp_path: Path) -> None:
    table = _table(tmp_path, {"blue": "007"})
    table.do("A:")
    assert table.state.future == ("007",)
    assert table.state.blue_deck == ("006", "008")


def test_red_card_goes_on_top_of_the_upcoming_deck(tmp_path: Path) -> None:
    table = _table(tmp_path, {"red": "010"})
    table.do("A:")
    assert table.state.present == "010"
    assert table.state.red_deck == ("009", "011")


def test_habit_card_goes_on_top_of_the_upcoming_deck(tmp_path: Path) -> None:
    table = _table(tmp_path, {"habit": "H2"}, habits=[habit("H1"), habit("H2")])
    table.do("A:")
    assert table.state.present == "H2"
    assert table.state.habit_deck == ("H1",)


def test_acquiring_an_item_already_held_is_ignored(tmp_path: Path) -> None:
    table = _table(tmp_path, {"item": ["I01"]})
    table.state = replace(table.state, items=("I01",))
    events = table.do("A:")
    assert any(isinstance(e, EffectSkipped) for e in events)
    assert table.state.items == ("I01",)


def test_either_item_is_a_choice(tmp_path: Path) -> None:
    table = _table(tmp_path, {"item": ["I01", "I02"]})
    table.do("A:")
    assert table.labels()[:2] == ["Acquire Basket", "Acquire Lantern"]
    table.do("Acquire Lantern")
    assert table.state.items == ("I02",)


def test_either_item_with_one_held_gives_the_other(tmp_path: Path) -> None:
    table = _table(tmp_path, {"item": ["I01", "I02"]})
    table.state = replace(table.state, items=("I01",))
    table.do("A:")
    assert table.state.items == ("I01", "I02")


def test_discard_a_specific_item(tmp_path: Path) -> None:
    table = _table(tmp_path, {"discard_item": ["I01"], "count": 1})
    table.state = replace(table.state, items=("I01", "I02"))
    assert ItemsDiscarded(("I01",)) in table.do("A:")
    assert table.state.items == ("I02",)


def test_discard_either_of_two_items(tmp_path: Path) -> None:
    table = _table(tmp_path, {"discard_item": ["I01", "I02"], "count": 1})
    table.state = replace(table.state, items=("I01", "I02", "I03"))
    table.do("A:")
    assert table.labels()[:2] == ["Discard Basket", "Discard Lantern"]
    table.do("Discard Lantern")
    assert table.state.items == ("I01", "I03")


def test_discard_two_of_several_items(tmp_path: Path) -> None:
    table = _table(tmp_path, {"discard_item": ["I01", "I02", "I03"], "count": 2})
    table.state = replace(table.state, items=("I01", "I02", "I03", "I04"))
    table.do("A:")
    assert table.labels()[:3] == [
        "Discard Basket and Lantern",
        "Discard Basket and Rope",
        "Discard Lantern and Rope",
    ]
    table.do("Discard Basket and Rope")
    assert table.state.items == ("I02", "I04")


def test_gaining_hp_never_passes_the_maximum(tmp_path: Path) -> None:
    table = _table(tmp_path, {"heart": 2})
    table.state = replace(table.state, hp=table.state.max_hp - 1)
    assert HeartGained(1) in table.do("A:")
    assert table.state.hp == table.state.max_hp


def test_losing_the_last_hp_loses_the_chapter(tmp_path: Path) -> None:
    table = _table(tmp_path, {"broken_heart": 1}, {"gain": "food", "max": 2})
    table.state = replace(table.state, hp=1)
    events = table.do("A:")
    assert events[-1] == ChapterLost(0, "hp")
    # The rest of the option never ran.
    assert table.state.phase == "lost" and table.state.resources.food == 0
