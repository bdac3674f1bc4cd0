"""The decision points of a recorded stream, each with the legal action that was played."""

from __future__ import annotations

import itertools

import pytest

from domain.analysis.decisions import decisions
from domain.core import engine
from domain.core.events import Rewound
from domain.games import GAMES
from tests.domain.analysis.journeys import journey


@pytest.mark.parametrize(
    ("name", "bot", "seats"),
    [
        ("gil-ennis", "random", ("gil", "ennis")),
        ("eila", "random", None),
        ("machina", "random", ("ada", "bram")),
    ],
)
def test_each_move_played_is_found_as_a_legal_action_that_repeats_its_events(
    name: str, bot: str, seats: tuple[str, ...] | None
) -> None:
    game = GAMES[name]
    stream = list(journey(name, bot, 3, seats))
    assert [version for version, _ in stream] == list(range(1, len(stream) + 1))
    found = decisions(game, stream)
    assert found
    states = dict(engine.states(game, stream))
    for decision in found:
        assert decision.state == states[decision.version]
        assert decision.played in game.legal_actions(decision.state, decision.seat)
        assert tuple(game.decide(decision.state, decision.seat, decision.played.action)) == (
            decision.events
        )
        assert decision.after == states[decision.after_version]
    # Consecutive: each move leads to the next decision point, and the last to the end.
    for earlier, later in itertools.pairwise(found):
        assert earlier.after_version == later.version
    assert found[-1].after_version == stream[-1][0]


def test_a_rewind_drops_the_decisions_it_undid() -> None:
    game = GAMES["gil-ennis"]
    stream = list(journey("gil-ennis", "random", 5, ("gil", "ennis")))
    found = decisions(game, stream)
    back_to = found[3].version
    cut = found[6].version
    # Play on from the rewind as the campaign had: the same events, renumbered.
    rewound = [*stream[:cut], (cut + 1, Rewound(to=back_to))]
    replayed = [(cut + 2 + n, event) for n, (_, event) in enumerate(stream[back_to:])]
    again = decisions(game, rewound + replayed)
    assert [d.version for d in again[:3]] == [d.version for d in found[:3]]
    assert again[3].version == cut + 1
    assert [d.played.id for d in again] == [d.played.id for d in found]
