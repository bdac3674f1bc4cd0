"""Random legal playthroughs with one to four explorers end, and replay to the same hashes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.engine import evolve, states
from domain.core.hashing import state_hash
from domain.machina import GAME
from domain.machina.board import within_area
from domain.machina.content_load import CONTENT
from tests.domain.machina.helpers import created

ACTION_BOUND = 4_000
"""Each round every explorer spends stamina or ends their turn, and the clock bounds the rounds;
random play ends far below this."""


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    seats=st.sampled_from(CONTENT.seat_layouts),
    data=st.data(),
)
def test_random_legal_playthroughs_end_and_replay_exactly(
    seed: int, seats: tuple[str, ...], data: st.DataObject
) -> None:
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
        seat = data.draw(st.sampled_from(seats_now))
        choice = data.draw(st.sampled_from(GAME.legal_actions(state, seat)))
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
        assert taken < ACTION_BOUND
    assert GAME.to_act(state) == ()
    assert state.clock <= CONTENT.scenario.clock
    replayed = [state_hash(s) for _, s in states(GAME, stream)]
    assert replayed == hashes
