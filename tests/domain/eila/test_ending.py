from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from domain.eila import EilaGame, chapter_outcome
from domain.eila.events import ChapterLost, ChapterWon, TimeMarked
from tests.domain.eila.helpers import Table, chapter, chapter_zero, habit, make_game, option

FOOD_AND_HABITS = {
    "001": [option("A", [{"habit": "H1"}, {"item": ["I01"]}, {"gain": "food", "max": 2}])],
}
HABITS = [habit("H1", option("A", [{"habit": "H2"}])), habit("H2"), habit("H3")]


def _pack(tmp_path: Path, *, chapters: int = 2, hearts: int = 3) -> EilaGame:
    found = [chapter_zero(FOOD_AND_HABITS, hearts=hearts)]
    found += [chapter(n, [[option("A", [{"gain": "food", "max": 1}])]]) for n in range(1, chapters)]
    return make_game(tmp_path, found, habits=HABITS)


def _play_day_one(table: Table) -> None:
    table.do("A:")
    table.do("Take 2 Food (of +2)")
    while table.state.phase != "night":
        table.do("A:")


def test_the_chapter_is_won_the_moment_the_goal_is_achieved(tmp_path: Path) -> None:
    table = Table(_pack(tmp_path))
    _play_day_one(table)
    table.do("Submit 1 Food")
    assert chapter_outcome(table.state) == "running"
    events = table.do("Submit 1 Food")
    assert events == [events[0], ChapterWon(0)]
    assert chapter_outcome(table.state) == "won"
    assert table.state.time_track == ()  # no need to finish the night


def test_a_win_saves_items_and_habits_and_records_progress(tmp_path: Path) -> None:
    table = Table(_pack(tmp_path))
    _play_day_one(table)
    table.do("Submit 1 Food")
    table.do("Submit 1 Food")
    assert table.state.progress == (0,)
    assert table.state.saved_items == ("I01",)
    assert table.state.saved_habits == ("H1", "H2")
    assert table.labels() == ["Begin chapter 1", "Abandon the campaign"]
    assert table.game.outcome(table.state) == "running"
    table.do("Begin chapter 1")
    assert (table.state.chapter, table.state.attempt) == (1, 1)
    assert chapter_outcome(table.state) == "running"
    assert table.state.items == ("I01",)
    # Before chapter 2, saved habit cards stay in the save box: not in any deck.
    assert table.state.habit_deck == ("H3",)
    assert "H1" not in table.state.upcoming


def test_winning_the_last_chapter_wins_the_campaign(tmp_path: Path) -> None:
    table = Table(_pack(tmp_path), chapter=1)
    table.do("A:")
    table.do("Take 1 Food (of +1)")
    table.do("Submit 1 Food")
    assert table.game.outcome(table.state) == "won"
    assert table.legal() == []
    assert table.game.to_act(table.state) == ()


def _lose_to_hearts(table: Table) -> list[object]:
    events: list[object] = []
    while table.state.phase != "lost":
        label = "End the night's" if table.state.phase == "night" else "A:"
        if table.resolving:
            label = "Take no"
        events += table.do(label)
    return events


def test_running_out_of_hp_loses_the_chapter(tmp_path: Path) -> None:
    table = Table(_pack(tmp_path))
    events = _lose_to_hearts(table)
    assert events[-1] == ChapterLost(0, "hp")
    assert table.state.time_track == ("heart", "heart", "heart")
    assert chapter_outcome(table.state) == "lost"
    assert table.labels() == ["Try chapter 0 again", "Abandon the campaign"]


def test_filling_the_seventh_slot_of_the_time_track_loses(tmp_path: Path) -> None:
    table = Table(_pack(tmp_path, hearts=9))
    table.give(energy=8)
    events = _lose_to_hearts(table)
    assert events[-2:] == [TimeMarked("energy"), ChapterLost(0, "time")]
    assert len(table.state.time_track) == 7
    assert table.state.hp == 9


def test_a_loss_resets_the_chapter_for_another_try(tmp_path: Path) -> None:
    table = Table(_pack(tmp_path))
    table.do("A:")
    table.do("Take 2 Food (of +2)")
    assert table.state.items == ("I01",)
    table.state = replace(table.state, hp=1)
    _lose_to_hearts(table)
    table.do("Try chapter 0 again")
    fresh = Table(_pack(tmp_path / "again")).state
    assert table.state.attempt == 2
    assert chapter_outcome(table.state) == "running"
    # Cards acquired in the chapter went back; the event cards are as at set-up.
    assert table.state.items == ()
    for field in (
        "upcoming",
        "present",
        "future",
        "past",
        "blue_deck",
        "red_deck",
        "habit_deck",
        "resources",
        "hp",
        "day",
        "time_track",
        "submitted",
    ):
        assert getattr(table.state, field) == getattr(fresh, field), field


def test_from_chapter_two_saved_habits_go_under_the_green_deck_in_a_chosen_order(
    tmp_path: Path,
) -> None:
    table = Table(_pack(tmp_path, chapters=3))
    _play_day_one(table)
    table.do("Submit 1 Food")
    table.do("Submit 1 Food")
    table.do("Begin chapter 1")
    table.do("A:")
    table.do("Take 1 Food (of +1)")
    table.do("Submit 1 Food")
    table.do("Begin chapter 2")
    assert table.state.phase == "arranging"
    assert table.labels() == [
        "Put H1 (Card H1) next at the bottom of the green deck",
        "Put H2 (Card H2) next at the bottom of the green deck",
        "Abandon the campaign",
    ]
    table.do("Put H2")
    assert table.state.present == "201"
    assert table.state.upcoming == ("H2", "H1")
