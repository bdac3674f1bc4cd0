"""The analysis of a campaign: an estimate at every decision point, then its turning points.

:func:`points` is a generator, one :class:`~domain.analysis.report.Point` per decision point, so
a caller may report progress between them and stop at any one (a stopped analysis keeps what it
yielded). :func:`summarise` turns the points into an :class:`~domain.analysis.report.Analysis`;
:func:`analyse` does both for a recorded stream.

Every figure is drawn from the analysis's own generator, keyed by its seed and the version of
the decision point: the same stream, level and seed give the same analysis, in any order and
whichever points were asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from domain.analysis.decisions import Decision, decisions
from domain.analysis.estimate import playouts
from domain.analysis.figures import Estimate, known
from domain.analysis.levels import DEFAULT_LEVEL, AnalysisLevel, Depth, analysis_level
from domain.analysis.report import Analysis, Luck, Move, Point, TurningPoint
from domain.bots.knowledge import knowledge_of
from domain.bots.search import Knowledge
from domain.bots.search_bot import think
from domain.core import engine
from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng

TURNING_POINTS = 3
"""How many of the costliest moves, and of the unluckiest draws, an analysis names."""
MIN_COST = 0.05
"""A move that cost less than this is not named a turning point: at the default level's
playouts the noise is of that order."""


def points(
    game: Game, found: Sequence[Decision], *, level: Depth = None, seed: int = 0
) -> Iterator[Point]:
    """The estimate at each of ``found``, in order."""
    knowledge = knowledge_of(game)
    depth = analysis_level(level)
    for decision in found:
        yield point(game, knowledge, decision, depth, seed)


def point(
    game: Game, knowledge: Knowledge, decision: Decision, depth: AnalysisLevel, seed: int
) -> Point:
    """The chance after the move played and after the move the search prefers, at one decision,
    from what its seat knew: the state goes only through the game's sampler."""
    played = decision.played
    preferred = played
    if len(game.legal_actions(decision.state, decision.seat)) > 1:
        chance = Chance(Rng(seed, 0, f"analysis/{decision.version}/search"))
        chosen = think(game, decision.state, (decision.seat,), level=depth.search, chance=chance)
        preferred = chosen.action
    compared = [played] if preferred.id == played.id else [played, preferred]
    found = playouts(
        game,
        knowledge,
        decision.state,
        decision.seat,
        compared,
        count=depth.playouts,
        seed=seed,
        salt=f"analysis/{decision.version}",
        seen_after=decision.after,
    )
    after_played, after_preferred = found.estimates[0], found.estimates[-1]
    return Point(
        version=decision.version,
        seat=decision.seat,
        played=_move(played),
        preferred=_move(preferred),
        after_played=after_played,
        after_preferred=after_preferred,
        cost=after_preferred.p - after_played.p,
        after_version=decision.after_version,
        uncertain=found.uncertain,
    )


def summarise(
    game: Game,
    found: Sequence[Decision],
    estimated: Sequence[Point],
    *,
    level: Depth = None,
    seed: int = 0,
) -> Analysis:
    """The analysis of ``found`` from its points (as many as were estimated, in order)."""
    knowledge = knowledge_of(game)
    depth = analysis_level(level)
    ending = found[-1].after if found else None
    return Analysis(
        game=game.info.name,
        ruleset=game.info.ruleset,
        level=_number(level),
        search_level=depth.search,
        playouts=depth.playouts,
        seed=seed,
        points=tuple(estimated),
        turning_points=turning_points(estimated),
        luck=worst_luck(game, knowledge, found, estimated),
        outcome=_outcome(game, ending),
    )


def _number(level: Depth) -> int:
    """The level's number; 0 for a depth of one's own."""
    if isinstance(level, AnalysisLevel):
        return 0
    return DEFAULT_LEVEL if level is None else level


def _outcome(game: Game, ending: Any) -> str:
    """How the analysed line ended; in a game played in chapters, the attempt at the chapter."""
    if ending is None:
        return "running"
    if game.info.chapters:
        attempt = game.progress(ending).chapter_outcome
        if attempt is not None:
            return attempt
    return game.outcome(ending)


def analyse(
    game: Game,
    events: Sequence[tuple[int, Any]],
    *,
    level: Depth = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """The whole analysis of a recorded stream; ``progress`` is told ``(done, total)``
    decision points as they are estimated."""
    found = decisions(game, events)
    estimated: list[Point] = []
    for estimate in points(game, found, level=level, seed=seed):
        estimated.append(estimate)
        if progress is not None:
            progress(len(estimated), len(found))
    return summarise(game, found, estimated, level=level, seed=seed)


def turning_points(
    estimated: Sequence[Point], count: int = TURNING_POINTS
) -> tuple[TurningPoint, ...]:
    """The ``count`` moves that cost most (at least :data:`MIN_COST`), costliest first."""
    costly = sorted(
        (p for p in estimated if p.cost >= MIN_COST and p.preferred.id != p.played.id),
        key=lambda p: (-p.cost, p.version),
    )
    return tuple(
        TurningPoint(
            version=p.version,
            seat=p.seat,
            played=p.played,
            preferred=p.preferred,
            after_played=p.after_played,
            after_preferred=p.after_preferred,
            cost=p.cost,
            words=(
                f"{p.preferred.label}: {p.after_preferred.p:.0%} instead of {p.after_played.p:.0%}"
            ),
        )
        for p in costly[:count]
    )


def worst_luck(
    game: Game,
    knowledge: Knowledge,
    found: Sequence[Decision],
    estimated: Sequence[Point],
    count: int = TURNING_POINTS,
) -> tuple[Luck, ...]:
    """The ``count`` draws or rolls that lowered the chance most: after a move whose outcome the
    seat could not foresee, the chance before it was known (the estimate after the move) against
    the chance once it was (the next decision point's, or the end)."""
    following = {p.version: p for p in estimated}
    swings: list[Luck] = []
    for decision, estimate in zip(found, estimated, strict=False):
        if not estimate.uncertain:
            continue
        then = _chance_at(game, knowledge, decision, following)
        if then is None:
            continue
        before = estimate.after_played
        swing = then.p - before.p
        if swing >= 0:
            continue
        told = _told(game, decision)
        words = (
            f'After "{decision.played.label}"'
            + (f" ({told})" if told else "")
            + f": {before.p:.0%} became {then.p:.0%}"
        )
        swings.append(Luck(decision.version, decision.after_version, before, then, swing, words))
    swings.sort(key=lambda luck: (luck.swing, luck.version))
    return tuple(swings[:count])


def _chance_at(
    game: Game, knowledge: Knowledge, decision: Decision, following: dict[int, Point]
) -> Estimate | None:
    if knowledge.over(game, decision.after):
        return known(knowledge.value(game, decision.after) >= 1.0)
    later = following.get(decision.after_version)
    return later.after_preferred if later is not None else None


def _told(game: Game, decision: Decision) -> str:
    """What the move's events say in the timeline's public words."""
    state = decision.state
    lines = []
    for event in decision.events:
        state = engine.evolve(game, state, event)
        line = game.describe(event, state)
        if line:
            lines.append(line.rstrip("."))
    return "; ".join(lines)


def _move(legal: LegalAction) -> Move:
    return Move(legal.id, legal.label)
