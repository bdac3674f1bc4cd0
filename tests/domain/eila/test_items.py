"""The Appendix's item kinds (pocket watch, flower, gems sold at any time) and the timing of
support spells such as S02's healing, which cannot come after the last HP is lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec.structs import replace

from domain.eila.events import AbilityUsed, ChapterLost, DawnPeeked
from tests.domain.eila.helpers import Json, Table, chapter_zero, dice, face, make_game, option
from tests.domain.eila.kit import ENEMIES, ITEMS, SUPPORTS


def _table(tmp_path: Path, cards: dict[str, list[Json]], **state: Any) -> Table:
    game = make_game(
        tmp_path,
        [chapter_zero(cards, hearts=3)],
        ruleset=dice([face(3)]),
        items=ITEMS,
        supports=SUPPORTS,
        enemies=ENEMIES,
    )
    table = Table(game)
    table.state = replace(table.state, **state)
    return table


TO_THE_FUTURE = {f"00{n}": [option("A", [], "future")] for n in range(1, 6)}


def _to_dawn(table: Table) -> list[Any]:
    table.give(energy=1)
    while table.state.phase != "night":
        table.do("A:")
    return table.do("End the night's submissions")


def test_appendix_a_pocket_watch_shows_the_first_card_of_the_next_day(tmp_path: Path) -> None:
    table = _table(tmp_path, TO_THE_FUTURE, items=("I08",))
    events = _to_dawn(table)
    assert events[-1] == DawnPeeked() and table.state.phase == "dawn"
    first = table.state.upcoming[0]
    view = table.game.view(table.state, "player")
    assert view.upcoming_known_on_top == (first,)
    assert table.labels()[:2] == [
        f"Face {first} (Card {first}) first today",
        f"Put {first} (Card {first}) last, to face it at the end of the day",
    ]
    table.do(f"Face {first}")
    assert table.state.present == first


def test_appendix_a_pocket_watch_may_push_that_card_to_the_end_of_the_day(tmp_path: Path) -> None:
    table = _table(tmp_path, TO_THE_FUTURE, items=("I08",))
    _to_dawn(table)
    first = table.state.upcoming[0]
    table.do(f"Put {first}")
    assert table.state.present != first
    assert table.state.upcoming[-1] == first
    assert table.game.view(table.state, "player").upcoming_known_at_bottom == (first,)


def test_without_a_pocket_watch_the_day_begins_at_once(tmp_path: Path) -> None:
    table = _table(tmp_path, TO_THE_FUTURE)
    _to_dawn(table)
    assert table.state.phase == "day" and table.state.present


def test_appendix_a_flower_heals_but_not_after_the_last_hp_is_lost(tmp_path: Path) -> None:
    cards = {"001": [option("A", [{"broken_heart": 1}]), option("B", [{"broken_heart": 2}])]}
    table = _table(tmp_path, cards, items=("I07",), hp=2)
    table.do("A:")
    assert "Use Pressed Flower" in table.labels()
    table.do("Use Pressed Flower")
    assert table.state.hp == 2 and table.state.items == ()
    table = _table(tmp_path / "late", cards, items=("I07",), hp=2)
    events = table.do("B:")
    assert events[-1] == ChapterLost(0, "hp")
    assert "Use Pressed Flower" not in table.labels()


def test_appendix_s02_heals_but_not_after_the_last_hp_is_lost(tmp_path: Path) -> None:
    cards = {"001": [option("A", [{"broken_heart": 1}]), option("B", [{"broken_heart": 2}])]}
    table = _table(tmp_path, cards, supports=("S02",), hp=3)
    table.give(stone=2)
    assert "Cast Mending Glow" not in table.labels()  # nothing to heal
    table.do("A:")
    assert table.do("Cast Mending Glow") == [AbilityUsed("S02")]
    assert table.state.hp == 3 and table.state.resources.stone == 1
    table = _table(tmp_path / "late", cards, supports=("S02",), hp=2)
    table.give(stone=2)
    table.do("B:")
    assert table.state.phase == "lost"
    assert "Cast Mending Glow" not in table.labels()


def test_a_gem_is_sold_at_any_time(tmp_path: Path) -> None:
    table = _table(tmp_path, {}, items=("I09",))
    table.do("Use Ruby")
    assert table.state.resources.coin == 3 and table.state.items == ()


def test_a_spell_for_the_night_only_at_night(tmp_path: Path) -> None:
    table = _table(tmp_path, {}, supports=("S04",))
    table.give(energy=2)
    assert "Cast Owl Study" not in table.labels()
    while table.state.phase != "night":
        table.do("A:")
    table.do("Cast Owl Study")
    assert (table.state.resources.energy, table.state.resources.knowledge) == (1, 2)
