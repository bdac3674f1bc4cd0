"""Campaign states to test bots on: fresh, or some moves into a seeded random playthrough."""

from __future__ import annotations

from typing import Any

from domain.bots.uniform_random import UniformRandom
from domain.core import engine
from domain.core.events import CampaignCreated, Options
from domain.core.game import Game


def fresh(game: Game, seats: tuple[str, ...], seed: int, options: Options | None = None) -> Any:
    created = CampaignCreated(
        game=game.info.name,
        ruleset=game.info.ruleset,
        seed=seed,
        salt="test",
        seats=seats,
        options=options or {},
    )
    state = engine.evolve(game, None, created)
    for event in game.setup(state):
        state = game.evolve(state, event)
    return state


def played(game: Game, state: Any, moves: int, seed: int) -> Any:
    """``state`` after up to ``moves`` random moves, stopping before the campaign ends."""
    bot = UniformRandom(seed)
    for _ in range(moves):
        seat, choice = bot.choose(game, state)
        steps = game.play(state, seat, choice.action)
        after = steps[-1][1] if steps else state
        if game.outcome(after) != "running" or not game.to_act(after):
            break
        state = after
    return state
