"""A decision point's estimate in a worker: from observations of what its seat knew, the same
figures as the analysis of the true states (whose own tests permute what the seat could not
see), and the worker is handed nothing the seat could not see."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from domain.analysis.analyse import point
from domain.analysis.decisions import decisions
from domain.analysis.levels import AnalysisLevel
from domain.bots.knowledge import knowledge_of
from domain.core.rng import Chance, Rng
from domain.games import GAMES
from server.analysis.work import analysis_seed, decode, estimate, observe
from tests.domain.analysis.journeys import journey

pytestmark = pytest.mark.slow

SHALLOW = AnalysisLevel(search=1, playouts=3)


@pytest.mark.parametrize(("name", "seats"), [("gil-ennis", ("gil", "ennis")), ("machina", None)])
def test_an_observed_point_is_estimated_as_the_true_one(
    name: str, seats: tuple[str, ...] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = GAMES[name]
    found = decisions(game, list(journey(name, "random", 11, seats)))
    seed = analysis_seed("c-1")
    monkeypatch.setattr("server.analysis.work.analysis_level", lambda level: SHALLOW)
    for decision in found[:: max(1, len(found) // 6)]:
        observed = observe(game, "c-1", decision)
        # What crosses to the worker is the observation, pickled as the pool sends it.
        handed = pickle.loads(pickle.dumps(observed))
        served = decode(estimate(handed, 2, seed))
        truth = point(game, knowledge_of(game), decision, SHALLOW, seed)
        assert served == truth, decision.version


def test_the_observation_keeps_what_the_seat_saw_and_replaces_what_it_did_not() -> None:
    game = GAMES["gil-ennis"]
    found = decisions(game, list(journey("gil-ennis", "random", 11, ("gil", "ennis"))))
    decision = found[len(found) // 2]
    observed = observe(game, "c-1", decision)
    assert game.view(observed.seen, decision.seat) == game.view(decision.state, decision.seat)
    assert game.view(observed.seen_after, decision.seat) == game.view(decision.after, decision.seat)
    assert observed.seen != decision.state, "the hidden part is sampled, not the true one"


@pytest.mark.parametrize(
    ("name", "seats"), [("gil-ennis", ("gil", "ennis")), ("machina", None), ("eila", None)]
)
def test_what_a_worker_is_handed_does_not_depend_on_what_the_seat_could_not_see(
    name: str, seats: tuple[str, ...] | None
) -> None:
    """Another world the seat could have been in (what it could not see drawn anew: face-down
    piles, the campaign's generator) hands the worker the very same observation."""
    game = GAMES[name]
    knowledge = knowledge_of(game)
    found = decisions(game, list(journey(name, "random", 11, seats)))
    assert found
    changed = 0
    for decision in found[:: max(1, len(found) // 6)]:
        other = Rng(99, 0, f"permuted/{decision.version}")
        elsewhere = dataclasses.replace(
            decision,
            state=knowledge.sample(decision.state, decision.seat, Chance(other)),
            after=knowledge.sample(decision.after, decision.seat, Chance(other)),
        )
        changed += elsewhere.state != decision.state
        assert observe(game, "c-1", elsewhere) == observe(game, "c-1", decision)
    assert changed, "some world drawn anew differs from the true one"
