from __future__ import annotations

import pytest

from domain.core.engine import replay
from domain.core.errors import InvalidOptions
from domain.core.game import check_seats, options_of
from domain.core.hashing import state_hash
from domain.gil_ennis import GAME
from domain.gil_ennis.content import CONTENT
from domain.gil_ennis.events import DiceRolled, DreamsShuffled
from domain.gil_ennis.game import GilEnnisOptions
from domain.gil_ennis.inventory import dice
from domain.gil_ennis.state import TOTAL_DICE, pool
from tests.domain.gil_ennis.helpers import COOP, SOLO, created, fresh


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


def test_each_character_rolls_five_dice_one_hand_three_backpack_one_pocket() -> None:
    state = GAME.initial(created())
    events = GAME.setup(state)
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert [e.character for e in rolls] == ["gil", "ennis"]
    after = fresh()
    for roll, card in zip(rolls, (after.gil, after.ennis), strict=True):
        assert len(roll.faces) == 5
        assert all(1 <= f <= 6 for f in roll.faces)
        assert card.hand == roll.faces[0]
        assert sorted(card.backpack) == sorted(roll.faces[1:4])
        assert card.pocket == roll.faces[4]
        assert len(dice(card)) == 5


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
    state = GAME.initial(created(COOP, seed=5))
    events = GAME.setup(state)
    assert isinstance(events[-1], DreamsShuffled)
    assert events[-1].draws == fresh(COOP, seed=5).rng.draws > 0
    stream = [(1, created(COOP, seed=5))] + [(i + 2, e) for i, e in enumerate(events)]
    assert state_hash(replay(GAME, stream)) == state_hash(fresh(COOP, seed=5))


def test_nobody_acts_before_setup_and_the_journey_starts_with_a_hike() -> None:
    before = GAME.initial(created())
    assert before.phase == "setup"
    assert GAME.to_act(before) == ()
    after = fresh()
    assert (after.phase, after.day) == ("hike", 0)
    assert GAME.to_act(after) == ("player",)
