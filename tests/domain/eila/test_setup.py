from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.core.errors import InvalidOptions
from domain.core.game import check_seats, options_of
from domain.eila import GAME
from domain.eila.state import Resources
from tests.domain.eila.helpers import Table


def test_chapter_zero_set_up_follows_the_rulebook() -> None:
    table = Table(GAME)
    state = table.state
    assert (state.chapter, state.attempt, state.day) == (0, 1, 1)
    # The green deck, in number order, is the upcoming deck; its top card is revealed.
    assert state.present == "001"
    assert state.upcoming == ("002", "003", "004", "005")
    assert state.blue_deck == ("006", "007", "008")
    assert state.red_deck == ("009", "010", "011")
    assert state.habit_deck == GAME.pack.habits
    assert state.future == state.past == state.time_track == ()
    # Chapter 0 has no prologue: no starting resources, and an empty save box.
    assert state.resources == Resources()
    assert state.items == state.saved_items == state.saved_habits == ()


def test_goal_hearts_fill_hp_on_each_side_of_the_goal_card() -> None:
    chapter = GAME.pack.chapters[0]
    normal = Table(GAME).state
    advanced = Table(GAME, mode="advanced").state
    assert normal.hp == normal.max_hp == chapter.normal.hearts
    assert advanced.hp == advanced.max_hp == chapter.advanced.hearts
    assert chapter.normal.submit == (("food", 2),)
    assert GAME.view(normal, "player").goal == chapter.normal.submit
    assert GAME.view(advanced, "player").goal == chapter.advanced.submit


def test_chapter_one_starts_with_prologue_resources_and_an_empty_save_box() -> None:
    state = Table(GAME, chapter=1).state
    prologue = dict(GAME.pack.chapters[1].prologue)
    assert state.chapter == 1
    assert state.resources == Resources(**prologue)
    assert state.items == state.saved_items == ()
    assert state.present == GAME.pack.chapters[1].green[0]


def test_options_are_checked() -> None:
    options: Any = options_of(GAME, {"mode": "advanced", "chapter": 1})
    assert (options.mode, options.chapter) == ("advanced", 1)
    for refused in ({"mode": "hard"}, {"chapter": 6}, {"chapter": True}, {"colour": "red"}):
        with pytest.raises(InvalidOptions):
            options_of(GAME, refused)
    with pytest.raises(InvalidOptions):
        check_seats(GAME, ("player", "friend"))
    assert GAME.info.seat_layouts == (("player",),)


def test_set_up_draws_no_chance(tmp_path: Path) -> None:
    assert Table(GAME, seed=1).state == Table(GAME, seed=1).state
    assert Table(GAME, seed=1).state.rng.draws == 0
