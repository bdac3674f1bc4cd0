"""Every view says whose move it is and what is asked, in the rulebook's words."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.engine import evolve
from domain.core.turn import Turn
from domain.gil_ennis import GAME
from domain.gil_ennis.state import GilEnnisState
from tests.domain.gil_ennis.helpers import COOP, SOLO, build, created, fresh, rolled

PACKING = "Pack your five dice: one in the HAND, one in the POCKET, three in the BACKPACK"


def _turn_seen(state: GilEnnisState) -> Turn:
    """The turn every seat and a spectator see; they must agree."""
    seen = {GAME.view(state, seat).turn for seat in (*state.seats, None)}
    assert len(seen) == 1
    return seen.pop()


def _check(state: GilEnnisState, *, settled: bool = True) -> None:
    """``settled``: the state a whole command leaves (inside one, nobody may be asked yet)."""
    turn = _turn_seen(state)
    assert turn.to_act == GAME.to_act(state)
    if not settled:
        assert bool(turn.asked) == bool(turn.to_act)
    elif GAME.outcome(state) == "running":
        assert turn.asked and turn.waiting
        assert turn.asked[0].isupper()
        assert turn.waiting.startswith("to ")
    else:
        assert turn == Turn()
    # Built from public facts only: the dream deck's order does not show.
    shuffled = msgspec.structs.replace(state, deck=state.deck[::-1])
    assert GAME.view(shuffled, None).turn == turn


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    seats=st.sampled_from([SOLO, COOP]),
    data=st.data(),
)
def test_every_state_of_random_journeys_says_who_acts_and_what_is_asked(
    seed: int, seats: tuple[str, ...], data: st.DataObject
) -> None:
    state = evolve(GAME, None, created(seats, seed))
    for event in GAME.setup(state):
        state = GAME.evolve(state, event)
    _check(state)
    while GAME.outcome(state) == "running":
        seat = data.draw(st.sampled_from(GAME.to_act(state)))
        choice = data.draw(st.sampled_from(GAME.legal_actions(state, seat)))
        steps = GAME.play(state, seat, choice.action)
        for _, state in steps[:-1]:
            _check(state, settled=False)
        state = steps[-1][1]
        _check(state)
    assert _turn_seen(state) == Turn()


def test_set_up_asks_each_character_to_pack_their_five_dice() -> None:
    state = rolled(COOP, seed=3)
    turn = GAME.view(state, "gil").turn
    assert turn.to_act == GAME.to_act(state) != ()
    assert turn.asked == PACKING
    assert turn.waiting == "to pack their dice"


def test_a_solo_player_is_told_whose_dice_to_pack() -> None:
    state = rolled(SOLO, seed=3)
    assert state.gil.rolled and state.ennis.rolled
    turn = GAME.view(state, None).turn
    assert turn.to_act == ("player",)
    assert turn.asked == (
        "Pack Gil's and Ennis's five dice: one in the HAND, one in the POCKET, "
        "three in the BACKPACK"
    )
    assert turn.waiting == "to pack Gil's and Ennis's dice"


def test_the_first_hike_names_the_next_campsite() -> None:
    turn = GAME.view(fresh(COOP), "ennis").turn
    assert turn.to_act == COOP
    assert turn.asked == "HIKE: move on to the next campsite, Hollow Creek"
    assert turn.waiting == "to hike to Hollow Creek"


def test_breakfast_asks_to_eat() -> None:
    turn = GAME.view(build(phase="break", step="eat", day=2), None).turn
    assert turn.asked == "BREAK: eat (reduce a POCKET die by 1)"
    assert turn.waiting == "to eat breakfast"


def test_a_finished_journey_asks_nothing() -> None:
    assert GAME.view(build(result="won"), None).turn == Turn()
