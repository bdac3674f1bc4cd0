"""Every view says whose move it is and what is asked, in the game's words."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.engine import evolve
from domain.core.turn import Turn
from domain.machina import GAME
from domain.machina.content_load import CONTENT
from domain.machina.state import MachinaState
from tests.domain.machina.helpers import DUO, created, fresh

EXPLORING = (
    "Round 1, explorer phase: spend your stamina to move, attack, search, explore or exit, "
    "then end your turn"
)


def _check(state: MachinaState, *, settled: bool = True) -> Turn:
    seen = {GAME.view(state, seat).turn for seat in (*state.seats, None)}
    assert len(seen) == 1
    turn = seen.pop()
    assert turn.to_act == GAME.to_act(state)
    if not settled:
        assert bool(turn.asked) == bool(turn.to_act)
    elif GAME.outcome(state) == "running":
        assert turn.asked and turn.waiting
        assert turn.asked[0].isupper() and turn.waiting.startswith("to ")
    else:
        assert turn == Turn()
    # Built from the table: the order of the face-down decks does not show.
    hidden = msgspec.structs.replace(
        state, map_deck=state.map_deck[::-1], monster_deck=state.monster_deck[::-1]
    )
    assert GAME.view(hidden, None).turn == turn
    return turn


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    seats=st.sampled_from(CONTENT.seat_layouts),
    data=st.data(),
)
def test_every_state_of_random_expeditions_says_who_acts_and_what_is_asked(
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
    assert _check(state) == Turn()


def test_the_first_round_asks_each_explorer_to_take_their_turn() -> None:
    turn = _check(fresh(DUO))
    assert turn == Turn(DUO, EXPLORING, "to take their turn")


def test_a_chapter_tile_waiting_names_itself() -> None:
    tile = next(iter(sorted(CONTENT.chapter_tiles)))
    state = msgspec.structs.replace(fresh(DUO), phase="placing", pending=tile)
    name = CONTENT.chapter_tiles[tile].name
    turn = GAME.view(state, None).turn
    assert turn.asked == f"Connect the chapter tile {name} to the play area"
    assert turn.waiting == f"to connect the chapter tile {name}"


def test_seats_rounds_and_chapters_have_the_names_players_know() -> None:
    info = GAME.info
    assert info.seat_names["ada"] == "Ada Quell"
    assert info.round_name == "round"
    assert info.chapter_names["orrery"] == "The Orrery"
