"""The analysis of a campaign: chances in [0, 1] with intervals, turning points in the game's
words, luck told apart from choices, from what each seat knew, the same for the same seed."""

from __future__ import annotations

from itertools import islice
from typing import Any

import msgspec
import pytest

from domain.analysis.analyse import MIN_COST, analyse, point, points, summarise
from domain.analysis.decisions import Decision, decisions
from domain.analysis.levels import AnalysisLevel
from domain.analysis.report import Analysis
from domain.bots.knowledge import knowledge_of
from domain.core.game import Game
from domain.core.rng import Rng
from domain.eila.state import EilaState
from domain.games import GAMES
from tests.domain.analysis.journeys import journey

pytestmark = pytest.mark.slow

GIL_ENNIS = GAMES["gil-ennis"]
SHALLOW = AnalysisLevel(search=1, playouts=3)
"""Few playouts: what is tested is the shape of the figures, not their precision."""


@pytest.fixture(scope="module")
def analysed() -> tuple[list[Decision], Analysis]:
    """A small Gil & Ennis journey, played carelessly (at random) by two seats, analysed end to
    end (shallowly: the default level takes about 20 s of CPU for a journey)."""
    stream = list(journey("gil-ennis", "random", 11, ("gil", "ennis")))
    return decisions(GIL_ENNIS, stream), analyse(GIL_ENNIS, stream, level=SHALLOW, seed=4)


def test_every_decision_point_gets_a_chance_in_0_1_with_its_interval(
    analysed: tuple[list[Decision], Analysis],
) -> None:
    found, analysis = analysed
    assert [p.version for p in analysis.points] == [d.version for d in found]
    for estimate in analysis.points:
        for chance in (estimate.after_played, estimate.after_preferred):
            assert 0.0 <= chance.low <= chance.p <= chance.high <= 1.0
            assert chance.playouts == SHALLOW.playouts
        assert estimate.cost == pytest.approx(estimate.after_preferred.p - estimate.after_played.p)
    assert analysis.outcome in ("won", "lost")
    assert (analysis.game, analysis.ruleset, analysis.level) == (
        "gil-ennis",
        GIL_ENNIS.info.ruleset,
        0,
    )
    assert (analysis.search_level, analysis.playouts) == (1, 3)


def test_a_turning_point_prefers_a_legal_action_and_says_so_in_the_games_words(
    analysed: tuple[list[Decision], Analysis],
) -> None:
    found, analysis = analysed
    by_version = {d.version: d for d in found}
    assert analysis.turning_points, "careless play should cost something somewhere"
    costs = [t.cost for t in analysis.turning_points]
    assert costs == sorted(costs, reverse=True) and min(costs) >= MIN_COST
    for turning in analysis.turning_points:
        state = by_version[turning.version].state
        legal = {a.id: a.label for a in GIL_ENNIS.legal_actions(state, turning.seat)}
        assert legal.get(turning.preferred.id) == turning.preferred.label
        assert turning.preferred.id != turning.played.id
        assert turning.words == (
            f"{turning.preferred.label}: {turning.after_preferred.p:.0%} "
            f"instead of {turning.after_played.p:.0%}"
        )


def test_luck_is_measured_only_where_the_seat_could_not_foresee_the_outcome(
    analysed: tuple[list[Decision], Analysis],
) -> None:
    found, analysis = analysed
    uncertain = {p.version for p in analysis.points if p.uncertain}
    assert uncertain and len(uncertain) < len(analysis.points)
    for luck in analysis.luck:
        assert luck.version in uncertain
        assert luck.swing == pytest.approx(luck.after.p - luck.before.p) and luck.swing < 0
    # A move whose events the seat could foresee is not luck: Gil & Ennis rolls dice and turns
    # dream cards, and nothing else it does is hidden.
    for decision, estimate in zip(found, analysis.points, strict=True):
        if not estimate.uncertain:
            assert decision.state.rng.draws == decision.after.rng.draws


def test_the_same_stream_level_and_seed_give_the_same_analysis(
    analysed: tuple[list[Decision], Analysis],
) -> None:
    found, analysis = analysed
    again = list(points(GIL_ENNIS, found[5:9], level=SHALLOW, seed=4))
    assert again == list(analysis.points[5:9])
    encoded = msgspec.json.encode(analysis)
    assert msgspec.json.decode(encoded, type=Analysis) == analysis
    other = list(points(GIL_ENNIS, found[5:9], level=SHALLOW, seed=5))
    assert other != again


def test_an_analysis_stopped_between_points_keeps_what_it_found(
    analysed: tuple[list[Decision], Analysis],
) -> None:
    found, analysis = analysed
    first = list(islice(points(GIL_ENNIS, found, level=SHALLOW, seed=4), 3))
    partial = summarise(GIL_ENNIS, found, first, level=SHALLOW, seed=4)
    assert partial.points == analysis.points[:3]


def _hidden_swapped(state: Any, key: int) -> Any:
    """The same table with other secrets: every face-down pile turned a quarter and another key
    for the campaign's generator (what the seat could not see)."""

    def turned(cards: tuple[str, ...]) -> tuple[str, ...]:
        at = (len(cards) + 3) // 4
        return (*cards[at:], *cards[:at])

    changes: dict[str, Any] = {"rng": Rng(key, state.rng.draws, "elsewhere")}
    for name in ("deck", "map_deck", "monster_deck", "horror_deck", "item_deck", "future", "past"):
        if name in state.__struct_fields__:
            changes[name] = turned(getattr(state, name))
    if isinstance(state, EilaState):
        top, bottom = state.known_on_top, len(state.upcoming) - state.known_at_bottom
        middle = turned(state.upcoming[top:bottom])
        changes["upcoming"] = (*state.upcoming[:top], *middle, *state.upcoming[bottom:])
    return msgspec.structs.replace(state, **changes)


@pytest.mark.parametrize(
    ("name", "seats"), [("gil-ennis", ("player",)), ("eila", None), ("machina", ("ada", "bram"))]
)
def test_the_estimates_never_depend_on_what_the_seat_could_not_see(
    name: str, seats: tuple[str, ...] | None
) -> None:
    game: Game = GAMES[name]
    found = decisions(game, list(journey(name, "random", 2, seats)))
    knowledge = knowledge_of(game)
    checked = 0
    for decision in found[1 :: max(1, len(found) // 4)][:4]:
        secret = _hidden_swapped(decision.state, 987654321)
        assert secret != decision.state
        seat = decision.seat
        assert game.view(secret, seat) == game.view(decision.state, seat)
        swapped = Decision(
            decision.version,
            secret,
            seat,
            decision.played,
            decision.events,
            decision.after_version,
            decision.after,
        )
        assert point(game, knowledge, swapped, SHALLOW, 7) == point(
            game, knowledge, decision, SHALLOW, 7
        )
        checked += 1
    assert checked >= 3
