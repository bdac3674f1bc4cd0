"""The chance of winning after a move, from what the acting seat knew: playouts in sampled worlds.

Each playout samples a world the seat could have been in (the game's sampler, from the
analysis's own generator: never the true hidden state, nor the campaign's dice), makes the move
there and lets the search bot's policy (the game's heuristic, or the greedy bot) play every seat
to the end. The share of playouts won is the estimate. Every move compared at a decision point
is played in the same worlds with the same luck after it, so their difference measures the moves
rather than the luck of the draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.analysis.figures import Estimate, counted
from domain.bots.search import Knowledge, Move, after, legal_moves
from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng

MAX_MOVES = 5_000
"""A guard against a playout that never ends; a real game ends far sooner (one that hit it
would count as lost)."""


@dataclass(frozen=True)
class Playouts:
    """The estimates of the moves compared, in their order, and whether what the first move led
    to could have gone otherwise as far as the seat knew (some world ended elsewhere)."""

    estimates: tuple[Estimate, ...]
    uncertain: bool


def playouts(
    game: Game,
    knowledge: Knowledge,
    state: Any,
    seat: str,
    moves: Sequence[LegalAction],
    *,
    count: int,
    seed: int,
    salt: str,
    seen_after: Any = None,
) -> Playouts:
    """``count`` playouts of each of ``moves`` (legal for ``seat`` at ``state``).

    ``seen_after``: the state the first move really led to; a world where the same move leaves
    ``seat`` a different view shows that luck (or something hidden) was involved.
    """
    won = [0] * len(moves)
    played = [0] * len(moves)
    uncertain = False
    seen = game.view(seen_after, seat) if seen_after is not None else None
    for n in range(count):
        world = knowledge.sample(state, seat, Chance(Rng(seed, 0, f"{salt}/world/{n}")))
        offered = {legal.id: legal for legal in game.legal_actions(world, seat)}
        for index, move in enumerate(moves):
            legal = offered.get(move.id)
            if legal is None:
                continue  # not legal in this world: it tells nothing of the move
            then = after(game, world, (seat, legal))
            if index == 0 and seen is not None and not uncertain:
                uncertain = game.view(then, seat) != seen
            luck = Chance(Rng(seed, 0, f"{salt}/play/{n}"))
            won[index] += play_out(game, knowledge, then, luck)
            played[index] += 1
    return Playouts(tuple(counted(w, p) for w, p in zip(won, played, strict=True)), uncertain)


def play_out(game: Game, knowledge: Knowledge, world: Any, chance: Chance) -> bool:
    """Whether the policy wins from ``world``, playing every seat, drawing from ``chance``."""
    for _ in range(MAX_MOVES):
        if knowledge.over(game, world):
            return knowledge.value(game, world) >= 1.0
        moves = knowledge.moves(game, world, legal_moves(game, world, labelled=False))
        if not moves:
            return False
        world = after(game, world, _policy(game, knowledge, world, moves, chance))
    return False


def _policy(
    game: Game, knowledge: Knowledge, world: Any, moves: Sequence[Move], chance: Chance
) -> Move:
    if len(moves) == 1:
        return moves[0]
    if knowledge.favourite is not None:
        return knowledge.favourite(game, world, game.to_act(world), moves, chance)
    return knowledge.rollout(game, world, moves, chance)
