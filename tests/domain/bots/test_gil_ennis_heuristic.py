"""The Gil & Ennis heuristic plays whole journeys legally, from what its seat may see."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.bots import make_bot
from domain.bots.gil_ennis_heuristic import GilEnnisHeuristic, match_chance
from domain.bots.uniform_random import UniformRandom
from domain.core.game import Game
from domain.core.rng import Rng
from domain.gil_ennis import GAME
from domain.gil_ennis.actions import EndClimb, Place
from domain.gil_ennis.state import GilEnnisState
from tests.domain.bots.worlds import fresh, played
from tests.domain.gil_ennis.helpers import COOP, SOLO, build, card

GIL_ENNIS: Game = GAME


def _journey(seats: tuple[str, ...], seed: int, bot: Any, **options: Any) -> GilEnnisState:
    """A journey played to its end by ``bot``, checking every choice is legal for its seat."""
    state: GilEnnisState = fresh(GIL_ENNIS, seats, seed, options)
    for _ in range(2_000):
        if state.result != "running":
            return state
        seat, choice = bot.choose(GIL_ENNIS, state)
        assert seat in GAME.to_act(state)
        assert choice in GAME.legal_actions(state, seat)
        for event in GAME.decide(state, seat, choice.action):
            state = GAME.evolve(state, event)
    raise AssertionError("the journey did not end")


def test_the_heuristic_plays_journeys_to_the_end_solo_and_in_co_op() -> None:
    for seats in (SOLO, COOP):
        for seed in range(3):
            state = _journey(seats, seed, GilEnnisHeuristic(seed))
            assert state.result in ("won", "lost")


def test_the_heuristic_wins_where_random_play_does_not() -> None:
    seeds = range(8)
    heuristic = [_journey(SOLO, s, GilEnnisHeuristic(s), difficulty="easy") for s in seeds]
    chance = [_journey(SOLO, s, UniformRandom(s), difficulty="easy") for s in seeds]
    assert sum(s.result == "won" for s in heuristic) >= 3
    assert sum(s.result == "won" for s in heuristic) > sum(s.result == "won" for s in chance)


def test_the_heuristic_is_the_bot_called_heuristic_for_gil_and_ennis() -> None:
    assert isinstance(make_bot("heuristic", GIL_ENNIS, 7), GilEnnisHeuristic)


def _secrets_swapped(state: GilEnnisState, key: int, cut: int) -> GilEnnisState:
    """The same table with another dream deck order and another key for the campaign's dice."""
    at = cut % len(state.deck) if state.deck else 0
    return msgspec.structs.replace(
        state,
        deck=(*state.deck[at:], *state.deck[:at]),
        rng=Rng(key, state.rng.draws, "elsewhere"),
    )


@settings(max_examples=15, deadline=None)
@given(
    two_seats=st.booleans(),
    campaign=st.integers(0, 2**32),
    moves=st.integers(0, 60),
    key=st.integers(0, 2**63),
    cut=st.integers(1, 5),
    bot_seed=st.integers(0, 2**32),
)
def test_what_the_seat_cannot_see_does_not_change_the_choice(
    two_seats: bool, campaign: int, moves: int, key: int, cut: int, bot_seed: int
) -> None:
    seats = COOP if two_seats else SOLO
    state = played(GIL_ENNIS, fresh(GIL_ENNIS, seats, campaign), moves, seed=campaign)
    other = _secrets_swapped(state, key, cut)
    seat = GAME.to_act(state)[0]
    assert GAME.view(other, seat) == GAME.view(state, seat)
    first = GilEnnisHeuristic(bot_seed).decide(GIL_ENNIS, state, seat)
    second = GilEnnisHeuristic(bot_seed).decide(GIL_ENNIS, other, seat)
    assert first == second
    assert first in GAME.legal_actions(state, seat)
    assert GilEnnisHeuristic(bot_seed).choose(GIL_ENNIS, state) == GilEnnisHeuristic(
        bot_seed
    ).choose(GIL_ENNIS, other)


def test_powers_count_once_each_and_only_on_their_owners_dice() -> None:
    assert match_chance((3,), (2,), (), ("nudge",), ()) == 1.0
    assert match_chance((3,), (), (2,), ("nudge",), ()) == 0.0
    assert match_chance((3, 5), (2, 4), (), ("nudge",), ()) == 0.0
    assert match_chance((3, 5), (2,), (2,), ("nudge",), ("flip",)) == 1.0
    assert match_chance((6,), (1,), (), ("reroll",), ()) == 1 / 6


def test_on_the_final_night_it_changes_dice_first_when_placing_first_would_lose() -> None:
    # Gil's 4 matches the 4 at once, but then nothing makes a 5; nudging it to 5 and turning
    # Ennis's 3 over to a 4 matches both.
    state = build(
        SOLO,
        phase="final_night",
        day=7,
        gil=card(hand=4),
        ennis=card(hand=3),
        challenge=(4, 5),
        placed=(0, 0),
        used_game=("ability:gil/second-look", "ability:ennis/lucky-pebble"),
    )
    first = GilEnnisHeuristic(1).choose(GIL_ENNIS, state)[1].action
    assert not isinstance(first, (Place, EndClimb))
    for _ in range(10):
        if state.result != "running":
            break
        seat, choice = GilEnnisHeuristic(1).choose(GIL_ENNIS, state)
        for event in GAME.decide(state, seat, choice.action):
            state = GAME.evolve(state, event)
    assert state.result == "won"
