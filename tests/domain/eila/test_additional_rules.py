"""Additional Rules 01-02 (the areas beside the board), 05 (alternative endings), 07 ("if you
possess" events) and Advanced Mode's goal side and replacement event cards."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from domain.eila import GAME, chapter_outcome
from domain.eila.events import ChapterWon, ClauseChecked
from tests.domain.eila.helpers import (
    Json,
    Table,
    chapter,
    chapter_zero,
    dice,
    face,
    make_game,
    option,
)
from tests.domain.eila.kit import ITEMS, SUPPORTS


def _table(tmp_path: Path, effects: list[Json], **kw: object) -> Table:
    zero = chapter_zero({"001": [option("A", effects), option("B", [])]})
    game = make_game(tmp_path, [zero, chapter(1, [[option("A", [])]])], items=ITEMS)
    return Table(game, **kw)


def test_rule_01_the_item_and_support_area_and_the_chapter_element_area_are_in_the_view(
    tmp_path: Path,
) -> None:
    zero = chapter_zero({"001": [option("A", [{"item": ["I01"]}, {"support": "S01"}])]})
    game = make_game(tmp_path, [zero], items=ITEMS, supports=SUPPORTS, ruleset=dice([face(3)]))
    table = Table(game)
    table.do("A:")
    view = table.game.view(table.state, "player")
    assert [i.name for i in view.item_support_area.items] == ["Basket"]
    assert [s.id for s in view.item_support_area.supports] == ["S01"]
    area = view.chapter_element_area
    assert (area.mine, area.location, area.markets, area.quizzes_open) == (None, None, (), ())


def test_rule_05_an_event_card_wins_the_chapter_with_another_ending(tmp_path: Path) -> None:
    table = _table(tmp_path, [{"gain": "food", "max": 1}, {"ending": "B"}])
    table.do("A:")
    events = table.do("Take 1 Food (of +1)")
    assert events[-1] == ChapterWon(0, "B")
    assert chapter_outcome(table.state) == "won"
    assert table.state.endings == ("0B",)
    assert table.game.view(table.state, "player").endings == ("0B",)
    assert table.labels()[0] == "Begin chapter 1"


def test_rule_05_the_goal_card_gives_ending_a(tmp_path: Path) -> None:
    table = _table(tmp_path, [])
    table.give(food=2)
    while table.state.phase != "night":
        table.do("B:" if table.state.present == "001" else "A:")
    table.do("Submit 1 Food")
    assert table.do("Submit 1 Food")[-1] == ChapterWon(0, "A")
    assert table.state.endings == ("0A",)


def test_rule_07_each_if_you_possess_clause_is_checked_one_by_one(tmp_path: Path) -> None:
    clauses = [
        {"if": {"items": ["I01"]}, "then": [{"gain": "coin", "max": 1}]},
        {"if": {"items": ["I02"]}, "then": [{"gain": "food", "max": 1}]},
    ]
    table = _table(tmp_path, clauses)
    table.state = replace(table.state, items=("I02",))
    events = table.do("A:")
    assert events[1] == ClauseChecked(False)
    assert ClauseChecked(True) in events
    assert table.labels()[0] == "Take 1 Food (of +1)"


def test_rule_07_possessing_none_of_the_items_has_no_effect(tmp_path: Path) -> None:
    clauses = [{"if": {"items": ["I01"]}, "then": [{"broken_heart": 1}]}]
    table = _table(tmp_path, clauses)
    hp = table.state.hp
    table.do("A:")
    assert table.state.hp == hp and table.state.past == ("001",)


def test_rule_07_an_item_acquired_by_an_earlier_clause_counts_for_a_later_one(
    tmp_path: Path,
) -> None:
    clauses = [{"item": ["I01"]}, {"if": {"items": ["I01"]}, "then": [{"gain": "coin", "max": 1}]}]
    table = _table(tmp_path, clauses)
    table.do("A:")
    assert table.labels()[0] == "Take 1 Coin (of +1)"


def test_advanced_mode_uses_the_goal_cards_advanced_side(tmp_path: Path) -> None:
    table = _table(tmp_path, [], mode="advanced")
    assert table.state.max_hp == 2
    assert table.game.view(table.state, "player").goal == (("food", 3),)


def test_advanced_mode_replaces_event_cards_by_number(tmp_path: Path) -> None:
    zero = chapter_zero({"001": [option("A", [{"gain": "food", "max": 1}])]})
    hard = {
        "number": "001",
        "colour": "green",
        "name": "The Harder Dawn",
        "text": "Colder.",
        "options": [option("A", [{"gain": "fear", "max": 1}])],
    }
    game = make_game(tmp_path, [zero], advanced=[hard])
    normal = Table(game)
    assert normal.game.view(normal.state, "player").present.name == "Card 001"  # type: ignore[union-attr]
    advanced = Table(game, mode="advanced")
    view = advanced.game.view(advanced.state, "player")
    assert view.present is not None and view.present.name == "The Harder Dawn"
    advanced.do("A:")
    assert advanced.state.resources.fear == 1


def test_the_shipped_advanced_cards_are_the_rulebooks_numbers() -> None:
    by_chapter: dict[int, list[str]] = {}
    for number in sorted(GAME.pack.advanced):
        by_chapter.setdefault(int(number[0]), []).append(number)
    assert by_chapter.get(1) is None
    assert by_chapter[2] == ["216", "227", "236", "240", "242"]
    assert by_chapter[3] == ["331", "346", "349", "351"]


def test_rule_02_each_chapters_unique_element_is_set_up_from_its_content() -> None:
    """Chapter 2: the EQ and AQ decks face down. Chapter 3: M1 face up bottom-left with the
    token on its bottom-left grid; M2, M3 and M4 tiles shuffled face down into their slots;
    1 of the 3 MC tiles drawn, the other 2 out of play."""
    two = Table(GAME, chapter=2)
    area = GAME.view(two.state, "player").chapter_element_area
    assert [(d.name, d.count) for d in area.quiz_decks] == [("AQ", 5), ("EQ", 5)]
    mine = GAME.pack.chapters[3].mine
    assert mine is not None
    layouts = set()
    for seed in range(30):
        three = Table(GAME, seed=seed, chapter=3)
        assert three.state.mine is not None
        tiles, face_up = three.state.mine.tiles, three.state.mine.face_up
        assert tiles[0] == "M1" and face_up == (0,) and three.state.mine.token == (0, 0)
        assert (mine.slots[0].col, mine.slots[0].row) == (0, 0)
        for slot, tile in zip(mine.slots, tiles, strict=True):
            assert mine.tiles[tile].group == slot.group
        assert len(set(tiles)) == 9
        layouts.add(tiles)
    assert len({layout[-1] for layout in layouts}) == 3  # each MC tile turns up
    assert len({layout[1:3] for layout in layouts}) == 2  # both orders of the M2 tiles
