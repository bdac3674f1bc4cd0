"""Random legal playthroughs with one to four explorers end, and replay to the same hashes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.engine import evolve, states
from domain.core.hashing import state_hash
from domain.machina import GAME
from domain.machina.board import within_area
from domain.machina.content_load import CONTENT
from tests.domain.machina.helpers import created
from tests.support.random_play import Picks

ACTION_BOUND = 4_000
"""Each round every explorer spends stamina or ends their turn, and the clock bounds the rounds;
random play ends far below this (within about 300 actions with four explorers). The actions come
from a seeded picker, not one hypothesis draw each, so a game that did not end would reach this
bound and fail rather than run out of hypothesis' buffer and be dropped."""
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@pytest.mark.parametrize("seats", CONTENT.seat_layouts, ids=lambda seats: f"{len(seats)}-explorers")
@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, picker=SEEDS)
def test_random_legal_playthroughs_end_and_replay_exactly(
    seats: tuple[str, ...], seed: int, picker: int
) -> None:
    play_to_the_end(seats, seed, Picks(picker))


def play_to_the_end(seats: tuple[str, ...], seed: int, picks: Picks) -> int:
    """Plays random legal actions until the expedition ends, checking each; returns how many."""
    first = created(seats, seed)
    state = evolve(GAME, None, first)  # as the server does: the engine keys the generator
    stream: list[tuple[int, object]] = [(1, first)]
    hashes = [state_hash(state)]
    for event in GAME.setup(state):
        state = GAME.evolve(state, event)
        stream.append((len(stream) + 1, event))
        hashes.append(state_hash(state))
    taken = 0
    while GAME.outcome(state) == "running":
        seats_now = GAME.to_act(state)
        assert seats_now, "A running expedition always has an explorer to act."
        seat = picks.pick(seats_now)
        choice = picks.pick(GAME.legal_actions(state, seat))
        steps = GAME.play(state, seat, choice.action)
        assert [e for e, _ in steps] == GAME.decide(state, seat, choice.action)
        for event, after in steps:
            assert GAME.evolve(state, event) == after
            state = after
            stream.append((len(stream) + 1, event))
            hashes.append(state_hash(state))
        # The play area never passes 2x2 map tiles, in size or in shape.
        assert within_area(state.tiles, CONTENT.ruleset.area_halves)
        taken += 1
        assert taken < ACTION_BOUND, f"The expedition did not end within {ACTION_BOUND} actions."
    assert GAME.to_act(state) == ()
    assert state.clock <= CONTENT.scenario.clock
    replayed = [state_hash(s) for _, s in states(GAME, stream)]
    assert replayed == hashes
    return taken
