"""What the search knows of each game: its sampler, its heuristic as the rollout policy, and how
good a state still running looks. Nothing here reads what a seat cannot see: the search only
ever hands these functions sampled worlds.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from functools import partial
from typing import Any

from domain.bots import gil_ennis_heuristic
from domain.bots.eila_greedy import answer_score, greedy_choice
from domain.bots.machina_heuristic import best_move
from domain.bots.search import Knowledge, Move
from domain.core.errors import InvalidOptions
from domain.core.game import Game, Sampled
from domain.core.packs import PlayedWith
from domain.core.rng import Chance
from domain.eila.actions import Answer
from domain.eila.content import ContentPack
from domain.eila.game import EilaGame
from domain.eila.rules.storage import goal_side, have
from domain.eila.sampling import sample as eila_sample
from domain.eila.state import EilaState
from domain.gil_ennis.actions import AddDrawn, EndClimb, Place
from domain.gil_ennis.game import GilEnnisGame
from domain.gil_ennis.sampling import sample as gil_ennis_sample
from domain.gil_ennis.state import GilEnnisState
from domain.machina.content_load import CONTENT as MACHINA
from domain.machina.game import MachinaGame
from domain.machina.sampling import sample as machina_sample
from domain.machina.state import MachinaState


def _ended(game: Game, state: Any) -> bool:
    return bool(state.result != "running")


def _result(game: Game, state: Any) -> float:
    return 1.0 if state.result == "won" else 0.0


# The Epic of Gil & Ennis: the heuristic bot names the first move; below it, a state is judged by
# the heuristic's own score (how Gil and Ennis would stand on Mount Humbaba, looking through the
# coming night), which reads only what lies open, so it serves a sampled world as well. Playouts
# (none at the levels in use) go at random, except that nobody gives up the climb while a die may
# still be placed or changed.


def _gil_ennis_rollout(game: Game, state: Any, moves: Sequence[Move], chance: Chance) -> Move:
    going_on = [m for m in moves if not isinstance(m[1].action, EndClimb)]
    placing = [m for m in going_on if isinstance(m[1].action, Place)]
    pool = placing or going_on or list(moves)
    return pool[chance.below(len(pool))]


def _gil_ennis_favourite(
    game: Game, observation: Any, seats: Sequence[str], moves: Sequence[Move], chance: Chance
) -> Move:
    chosen = gil_ennis_heuristic.best_move(game, observation, seats, chance)
    return next((m for m in moves if _same(m, chosen)), moves[0])


def _same(move: Move, other: Move) -> bool:
    return move[0] == other[0] and move[1].id == other[1].id


def _gil_ennis_moves(game: Game, state: GilEnnisState, moves: Sequence[Move]) -> list[Move]:
    """The moves the heuristic weighs: no giving up the climb while anything else may be done, no
    reroll of more than a couple of dice, and of the dice drawn, the lowest is added first."""
    drawn = [m for m in moves if isinstance(m[1].action, AddDrawn)]
    if drawn:
        return [min(drawn, key=lambda m: m[1].action.value)]
    kept = [
        m
        for m in moves
        if gil_ennis_heuristic.considered(m) and not isinstance(m[1].action, EndClimb)
    ]
    return kept or list(moves)


def _gil_ennis_value(game: Game, state: GilEnnisState) -> float:
    """1 won, 0 lost; a journey still running by the heuristic's score, squeezed into (0, 1)."""
    if state.result != "running":
        return _result(game, state)
    return 1.0 / (1.0 + math.exp(-_STEEPNESS * (gil_ennis_heuristic.score(state) - 0.5)))


_STEEPNESS = 4.0
"""How sharply the value turns around a score of one half (a fair chance on the summit)."""

GIL_ENNIS = Knowledge(
    sample=gil_ennis_sample,
    rollout=_gil_ennis_rollout,
    value=_gil_ennis_value,
    over=_ended,
    moves=_gil_ennis_moves,
    favourite=_gil_ennis_favourite,
)


# Eila: the greedy bot plays out, and a chapter still running is judged by its goal, its time
# track and Eila's HP.


def _eila_over(game: Game, state: EilaState) -> bool:
    return state.result != "" or state.phase == "abandoned"


def _eila_value(pack: ContentPack, game: Game, state: EilaState) -> float:
    if state.result == "won":
        return 1.0
    if state.result != "" or state.phase == "abandoned":
        return 0.0
    goal = goal_side(pack, state).submit
    wanted = sum(amount for _, amount in goal) or 1
    got = sum(
        min(amount, have(state.submitted, r) + have(state.resources, r)) for r, amount in goal
    )
    time_left = 1.0 - len(state.time_track) / pack.ruleset.time_track
    health = state.hp / state.max_hp if state.max_hp else 0.0
    return 0.1 + 0.5 * got / wanted + 0.2 * time_left + 0.15 * health


def _eila_rollout(
    pack: ContentPack, game: Game, state: Any, moves: Sequence[Move], _: Chance
) -> Move:
    chosen = greedy_choice(pack, state, [legal for _, legal in moves])
    return next(move for move in moves if move[1] is chosen)


def _eila_moves(
    pack: ContentPack, game: Game, state: EilaState, moves: Sequence[Move]
) -> list[Move]:
    """Whether an answer is right is written in the content the player does not see, and a
    sampled world would tell it; so of the answers only the one the greedy bot would give (from
    the cards it has met) is searched, never the others."""
    answers = [m for m in moves if isinstance(m[1].action, Answer)]
    if len(answers) < 2:
        return list(moves)
    best = max(
        answers, key=lambda m: answer_score(pack, state, m[1].action.quiz, m[1].action.choice)
    )
    return [m for m in moves if m not in answers or m is best]


def eila(game: EilaGame) -> Knowledge:
    pack = game.pack
    return Knowledge(
        sample=partial(eila_sample, pack),
        rollout=partial(_eila_rollout, pack),
        value=partial(_eila_value, pack),
        over=_eila_over,
        moves=partial(_eila_moves, pack),
    )


# Machina: the heuristic bot plays out; an expedition still running is judged by the chapters
# behind it, the clock and the explorers' health.


def _machina_rollout(game: Game, state: Any, moves: Sequence[Move], _: Chance) -> Move:
    return best_move(state, moves)


def _machina_value(game: Game, state: MachinaState) -> float:
    if state.result != "running":
        return _result(game, state)
    chapters = len(MACHINA.scenario.chapters)
    done = (chapters - len(state.chapter_deck)) / chapters + 0.1 * state.endgame
    health = sum(e.health for e in state.explorers if e.status != "out")
    most = sum(MACHINA.explorers[e.id].health for e in state.explorers)
    clock = state.clock / MACHINA.scenario.clock
    return 0.1 + 0.45 * min(1.0, done) + 0.35 * health / most - 0.1 * clock


MACHINA_KNOWLEDGE = Knowledge(
    sample=machina_sample, rollout=_machina_rollout, value=_machina_value, over=_ended
)


# Any other game that draws its hidden worlds (:class:`~domain.core.game.Sampled`): uniform
# playouts to the end, judged by how the campaign ends.


def _any_over(game: Game, state: Any) -> bool:
    return game.outcome(state) != "running"


def _any_value(game: Game, state: Any) -> float:
    return {"won": 1.0, "lost": 0.0}.get(game.outcome(state), 0.5)


def _any_rollout(game: Game, state: Any, moves: Sequence[Move], chance: Chance) -> Move:
    return moves[chance.below(len(moves))]


def sampled(game: Sampled) -> Knowledge:
    return Knowledge(sample=game.sample, rollout=_any_rollout, value=_any_value, over=_any_over)


def knowledge_of(game: Game) -> Knowledge:
    if isinstance(game, EilaGame):
        return eila(game)
    known = {"gil-ennis": (GilEnnisGame, GIL_ENNIS), "machina": (MachinaGame, MACHINA_KNOWLEDGE)}
    if game.info.name in known:
        kind, knowledge = known[game.info.name]
        if isinstance(game, PlayedWith):
            # An older ruleset played by today's rules over its own pack: its worlds are drawn
            # with that pack in play (the heuristics judge them by today's, an estimate).
            return dataclasses.replace(knowledge, sample=game.sample)
        if isinstance(game, kind):
            return knowledge
        raise InvalidOptions(
            f"The search bot does not play {game.info.title} by the ruleset "
            f"{game.info.ruleset!r}: its rules are kept as they were, without a sampler."
        )
    if isinstance(game, Sampled):
        return sampled(game)
    raise InvalidOptions(f"The search bot does not play {game.info.title}.")
