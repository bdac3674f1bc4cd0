from __future__ import annotations

from typing import Any

from domain.gil_ennis import GAME
from domain.gil_ennis.actions import Eat, Stow, UsePower
from domain.gil_ennis.events import Ate, CampBroken, ForageRolled, JourneyEnded
from domain.gil_ennis.state import pool
from tests.domain.gil_ennis.helpers import COOP, actions, build, card, of_type, play


def _morning(seats: tuple[str, ...] = ("player",), **fields: Any) -> Any:
    return build(seats, phase="break", step="eat", day=2, **fields)


def test_each_character_eats_one_from_their_own_pocket() -> None:
    state = _morning(gil=card(3, (), 4), ennis=card(3, (), 2))
    after, events = play(state, "player", Eat())
    assert events[:2] == [Ate("gil", "gil", 4), Ate("ennis", "ennis", 2)]
    assert (after.gil.pocket, after.ennis.pocket) == (3, 1)


def test_a_pocket_die_of_one_is_eaten_up_and_returns_to_the_pool() -> None:
    state = _morning(gil=card(3, (), 1), ennis=card(3, (), 5))
    after, _ = play(state, "player", Eat())
    assert after.gil.pocket == 0
    assert pool(after) == pool(state) + 1


def test_an_empty_pocket_eats_from_the_other_characters_pocket() -> None:
    state = _morning(gil=card(3, (), 0), ennis=card(3, (), 5))
    after, events = play(state, "player", Eat())
    assert events[:2] == [Ate("gil", "ennis", 5), Ate("ennis", "ennis", 4)]
    assert after.ennis.pocket == 3


def test_with_no_pocket_die_left_the_wilderness_wins() -> None:
    state = _morning(gil=card(3, (4,), 0), ennis=card(3, (), 0))
    after, events = play(state, "player", Eat())
    assert events == [JourneyEnded("lost", "overcome")]
    assert GAME.outcome(after) == "lost"
    assert GAME.to_act(after) == ()
    assert actions(after) == []


def test_gil_eats_first_so_a_last_morsel_leaves_ennis_hungry() -> None:
    state = _morning(gil=card(3, (), 0), ennis=card(3, (), 1))
    after, events = play(state, "player", Eat())
    assert events == [Ate("gil", "ennis", 1), JourneyEnded("lost", "overcome")]
    assert after.result == "lost"


def test_no_forage_after_a_night_without_a_fulfilled_dream() -> None:
    state = _morning(gil=card(3, (), 4), ennis=card(3, (), 4), dreamed=False)
    after, events = play(state, "player", Eat())
    assert events[-1] == CampBroken()
    assert (after.phase, after.day) == ("hike", 2)


def test_forage_after_a_fulfilled_dream_rolls_a_pool_die_and_stows_it_through_the_hand() -> None:
    state = _morning(gil=card(3, (2,), 4), ennis=card(3, (), 4), dreamed=True)
    state, events = play(state, "player", Eat())
    rolled = events[-1]
    assert isinstance(rolled, ForageRolled) and 1 <= rolled.value <= 6
    assert state.step == "forage"
    assert of_type(state, Stow) == [Stow("gil"), Stow("ennis")]
    before = pool(state)
    state, _ = play(state, "player", Stow("gil"))
    assert state.gil == card(rolled.value, (3, 2), 3)
    assert pool(state) == before
    assert state.phase == "hike"


def test_no_forage_when_the_pool_is_empty() -> None:
    state = _morning(
        gil=card(3, (6, 6, 6), 4), ennis=card(3, (6, 6, 6), 4), dreamed=True, worry_level=19
    )
    # Ten inventory dice and four worry dice (6, 6, 6, 1) use all 14.
    assert pool(state) == 0
    _, events = play(state, "player", Eat())
    assert events[-1] == CampBroken()


def test_break_insights_are_used_before_eating() -> None:
    # door-in-the-riverbank's insight flips one of its owner's dice in the BREAK step.
    state = _morning(gil=card(3, (), 1, ("door-in-the-riverbank",)), ennis=card(3, (), 4))
    flip = UsePower("gil", "insight:door-in-the-riverbank", "pocket", 1, 6)
    assert flip in actions(state)
    state, _ = play(state, "player", flip)
    state, _ = play(state, "player", Eat())
    assert state.gil.pocket == 5


def test_either_coop_seat_serves_breakfast_and_chooses_who_stows() -> None:
    state = _morning(COOP, gil=card(3, (), 4), ennis=card(3, (), 4), dreamed=True)
    assert Eat() in actions(state, "gil") and Eat() in actions(state, "ennis")
    state, _ = play(state, "ennis", Eat())
    assert Stow("gil") in actions(state, "ennis")
    assert Stow("ennis") in actions(state, "gil")
