from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.engine import evolve, states
from domain.core.hashing import state_hash
from domain.gil_ennis import GAME
from tests.domain.gil_ennis.helpers import COOP, SOLO, created

EVENT_BOUND = 400
"""At most 7 days of a bounded number of pitch actions each; far below this in practice."""


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    seats=st.sampled_from([SOLO, COOP]),
    worry=st.sampled_from([1, 3]),
    data=st.data(),
)
def test_random_legal_playthroughs_end_and_replay_exactly(
    seed: int, seats: tuple[str, ...], worry: int, data: st.DataObject
) -> None:
    first = created(seats, seed, {"worry": worry})
    state = evolve(GAME, None, first)
    stream: list[tuple[int, object]] = [(1, first)]
    hashes = [state_hash(state)]
    for event in GAME.setup(state):
        state = GAME.evolve(state, event)
        stream.append((len(stream) + 1, event))
        hashes.append(state_hash(state))
    while GAME.outcome(state) == "running":
        seats_now = GAME.to_act(state)
        assert seats_now, "A running journey must always have a seat to act."
        seat = data.draw(st.sampled_from(seats_now))
        choice = data.draw(st.sampled_from(GAME.legal_actions(state, seat)))
        events = GAME.decide(state, seat, choice.action)
        assert events
        for event in events:
            state = GAME.evolve(state, event)
            stream.append((len(stream) + 1, event))
            hashes.append(state_hash(state))
        assert len(stream) < EVENT_BOUND
    assert GAME.to_act(state) == ()
    replayed = [state_hash(s) for _, s in states(GAME, stream)]
    assert replayed == hashes
