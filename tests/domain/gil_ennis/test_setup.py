from __future__ import annotations

import pytest

from domain.core.engine import evolve, replay
from domain.core.errors import InvalidOptions
from domain.core.game import check_seats, options_of
from domain.core.hashing import state_hash
from domain.core.rng import Chance
from domain.gil_ennis import GAME
from domain.gil_ennis.actions import Assign, Hike
from domain.gil_ennis.content import CONTENT
from domain.gil_ennis.events import DiceAssigned, DiceDrawn, DreamsShuffled
from domain.gil_ennis.game import GilEnnisOptions
from domain.gil_ennis.inventory import dice
from domain.gil_ennis.rules import placing
from domain.gil_ennis.state import TOTAL_DICE, Character, pool
from tests.domain.gil_ennis.helpers import (
    COOP,
    SOLO,
    actions,
    build,
    card,
    created,
    fresh,
    of_type,
    play,
    rolled,
)


def test_seat_layouts_are_solo_player_or_gil_and_ennis() -> None:
    assert GAME.info.seat_layouts == (("player",), ("gil", "ennis"))


def test_worry_level_starts_at_normal_three_by_default() -> None:
    assert fresh().worry_level == 3


@pytest.mark.parametrize(
    ("options", "level"),
    [
        ({"worry": 1}, 1),
        ({"worry": 3}, 3),
        ({"difficulty": "easy"}, 1),
        ({"difficulty": "normal"}, 3),
    ],
)
def test_worry_option_sets_easy_or_normal_start(options: dict[str, str | int], level: int) -> None:
    assert options_of(GAME, dict(options), GilEnnisOptions).worry_level == level
    assert fresh(options=dict(options)).worry_level == level


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ({"worry": 2}, SOLO),
        ({"worry": True}, SOLO),
        ({"difficulty": "hard"}, SOLO),
        ({"worry": 1, "difficulty": "normal"}, SOLO),
        ({"speed": 1}, SOLO),
        ({}, ("gil",)),
        ({}, ("player", "ennis")),
    ],
)
def test_options_and_seats_refuse_anything_else(
    options: dict[str, str | int], seats: tuple[str, ...]
) -> None:
    with pytest.raises(InvalidOptions):
        options_of(GAME, dict(options))
        check_seats(GAME, seats)


def test_set_up_rolls_five_dice_per_character_and_waits_for_the_players_to_assign_them() -> None:
    # "Roll 5 dice for each character, and assign a die to each inventory slot."
    state = rolled()
    drawn = [e for e in GAME.setup(evolve(GAME, None, created())) if isinstance(e, DiceDrawn)]
    assert [e.character for e in drawn] == ["gil", "ennis"]
    for roll, who in zip(drawn, (state.gil, state.ennis), strict=True):
        assert len(roll.faces) == 5 and all(1 <= f <= 6 for f in roll.faces)
        assert who.rolled == roll.faces and dice(who) == ()
    assert state.phase == "setup"
    assert {type(a) for a in actions(state)} == {Assign}


def test_assigning_puts_the_chosen_dice_in_hand_and_pocket_and_the_rest_in_the_backpack() -> None:
    state = build(phase="setup", gil=Character(rolled=(6, 5, 3, 3, 1)), ennis=Character())
    offered = [(a.hand, a.pocket) for a in of_type(state, Assign)]
    # Every distinct (HAND, POCKET) pair, high to low: 4 values for HAND, then what is left.
    assert offered == [
        (6, 5), (6, 3), (6, 1), (5, 6), (5, 3), (5, 1),
        (3, 6), (3, 5), (3, 3), (3, 1), (1, 6), (1, 5), (1, 3),
    ]  # fmt: skip
    after, events = play(state, "player", Assign("gil", 1, 6))
    assert events == [DiceAssigned("gil", 1, (5, 3, 3), 6)]
    assert after.gil == card(1, (5, 3, 3), 6)


def test_set_up_assignment_belongs_to_each_characters_seat_in_coop() -> None:
    state = rolled(COOP)
    assert {a.character for a in of_type(state, Assign, "gil")} == {"gil"}
    assert {a.character for a in of_type(state, Assign, "ennis")} == {"ennis"}
    assert GAME.to_act(state) == COOP


def test_the_journey_starts_once_both_characters_are_packed() -> None:
    state = rolled()
    state, _ = play(state, "player", of_type(state, Assign)[0])
    assert state.phase == "setup"
    assert {a.character for a in of_type(state, Assign)} == {"ennis"}
    state, _ = play(state, "player", of_type(state, Assign)[-1])
    assert (state.phase, state.day) == ("hike", 0)
    assert len(dice(state.gil)) == len(dice(state.ennis)) == 5
    assert actions(state) == [Hike()]


def test_five_dice_of_one_value_are_packed_at_once() -> None:
    class Loaded(Chance):
        def die(self, sides: int = 6) -> int:
            self.draws += 1
            return 4

    state = evolve(GAME, None, created())
    events = placing.setup_events(state, Loaded(state.rng))
    assert events[1] == DiceAssigned("gil", 4, (4, 4, 4), 4)


def test_remaining_dice_form_the_pool() -> None:
    # 14 dice: one worry die and ten in the inventories leave three.
    assert pool(fresh()) == TOTAL_DICE - 1 - 10 == 3


def test_the_six_dream_cards_are_shuffled_face_down() -> None:
    state = fresh()
    assert sorted(state.deck) == sorted(card.id for card in CONTENT.dreams)
    assert state.discard == ()
    shuffles = {fresh(seed=seed).deck for seed in range(8)}
    assert len(shuffles) > 1


def test_setup_records_every_draw_so_the_stream_replays() -> None:
    state = evolve(GAME, None, created(COOP, seed=5))
    events = GAME.setup(state)
    assert isinstance(events[-1], DreamsShuffled)
    assert events[-1].draws == rolled(COOP, seed=5).rng.draws > 0
    stream = [(1, created(COOP, seed=5))] + [(i + 2, e) for i, e in enumerate(events)]
    assert state_hash(replay(GAME, stream)) == state_hash(rolled(COOP, seed=5))


def test_nobody_acts_before_setup_and_the_journey_starts_with_a_hike() -> None:
    before = evolve(GAME, None, created())
    assert before.phase == "setup"
    assert GAME.to_act(before) == ()
    after = fresh()
    assert (after.phase, after.day) == ("hike", 0)
    assert GAME.to_act(after) == ("player",)
