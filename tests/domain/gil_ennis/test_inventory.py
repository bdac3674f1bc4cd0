from __future__ import annotations

import pytest

from domain.core.errors import IllegalAction, NotYourTurn
from domain.gil_ennis.actions import Hike, Organize
from domain.gil_ennis.inventory import organize_moves, push_in
from domain.gil_ennis.state import pool
from tests.domain.gil_ennis.helpers import COOP, build, card, of_type, play


def test_added_die_fills_an_empty_hand() -> None:
    assert push_in(card(0, (3,), 2), 5) == (card(5, (3,), 2), 0)


def test_added_die_pushes_the_hand_die_into_the_backpack() -> None:
    assert push_in(card(4, (3,), 2), 6) == (card(6, (4, 3), 2), 0)


def test_push_down_through_a_full_backpack_falls_into_an_empty_pocket() -> None:
    assert push_in(card(4, (3, 2, 1), 0), 6) == (card(6, (3, 2, 1), 4), 0)


def test_push_down_with_no_room_left_drops_the_pushed_die_to_the_pool() -> None:
    assert push_in(card(4, (3, 2, 1), 5), 6) == (card(6, (3, 2, 1), 5), 4)


def test_organize_moves_one_die_one_level_into_an_empty_slot() -> None:
    moves = organize_moves(card(0, (3, 2), 0))
    assert ("backpack", 3, "hand", 0) in moves
    assert ("backpack", 2, "pocket", 0) in moves
    # HAND to POCKET skips a level and is never offered.
    assert not [m for m in organize_moves(card(5, (), 0)) if m[2] == "pocket"]


def test_organize_swaps_dice_of_adjacent_levels_only() -> None:
    moves = organize_moves(card(6, (3, 3, 1), 2))
    swaps = {m for m in moves if m[3]}
    assert swaps == {
        ("hand", 6, "backpack", 3),
        ("hand", 6, "backpack", 1),
        ("backpack", 3, "pocket", 2),
        ("backpack", 1, "pocket", 2),
    }
    # A full backpack takes no moved die; HAND and POCKET are full too.
    assert all(m[3] for m in moves)


def test_organizing_is_one_movement_per_character_per_round() -> None:
    state = build(COOP, phase="pitch", day=1, gil=card(6, (3, 1), 2), ennis=card(5, (4,), 1))
    state, _ = play(state, "gil", Organize("gil", "hand", 6, "backpack", 3))
    assert state.gil == card(3, (6, 1), 2, organized=True)
    assert of_type(state, Organize, "gil") == []
    assert of_type(state, Organize, "ennis")
    with pytest.raises(IllegalAction):
        play(state, "gil", Organize("gil", "hand", 3, "backpack", 6))


def test_organizing_is_allowed_again_next_round() -> None:
    state = build(phase="hike", day=1, gil=card(6, (3,), 2, organized=True), ennis=card(5, (4,), 1))
    state, _ = play(state, "player", Hike())
    assert of_type(state, Organize)


def test_organizing_keeps_every_die() -> None:
    state = build(phase="pitch", day=1, gil=card(6, (3, 1), 0), ennis=card(5, (4,), 1))
    before = pool(state)
    for move in of_type(state, Organize):
        after, _ = play(state, "player", move)
        assert pool(after) == before


def test_organizing_another_characters_dice_is_not_your_turn() -> None:
    state = build(COOP, phase="pitch", day=1, gil=card(6, (3,), 2), ennis=card(5, (4,), 1))
    with pytest.raises(NotYourTurn):
        play(state, "gil", Organize("ennis", "hand", 5, "backpack", 4))
