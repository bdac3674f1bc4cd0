"""A campaign played by a bot, recorded as a stream: what the calibration and the tests analyse,
with no server in between."""

from __future__ import annotations

from typing import Any

from domain.bots import Bot
from domain.core import engine
from domain.core.events import CampaignCreated, Options
from domain.core.game import Game

MAX_ACTIONS = 20_000
"""A guard against a game that never ends; no real game comes near it."""


def recorded(
    game: Game,
    bot: Bot,
    *,
    seed: int,
    seats: tuple[str, ...] | None = None,
    options: Options | None = None,
    salt: str = "analysed",
    until: Any = None,
) -> list[tuple[int, Any]]:
    """The stream of a campaign seeded ``seed`` that ``bot`` plays to its end (or until
    ``until(game, state)`` says stop: Eila's chapter attempts end inside a running campaign)."""
    created = CampaignCreated(
        game=game.info.name,
        ruleset=game.info.ruleset,
        seed=seed,
        salt=salt,
        seats=seats or game.info.seat_layouts[0],
        options=options or {},
    )
    state = engine.evolve(game, None, created)
    events: list[tuple[int, Any]] = [(1, created)]
    for event in game.setup(state):
        state = game.evolve(state, event)
        events.append((len(events) + 1, event))
    for _ in range(MAX_ACTIONS):
        if game.outcome(state) != "running" or not game.to_act(state):
            break
        if until is not None and until(game, state):
            break
        seat, legal = bot.choose(game, state)
        steps = game.play(state, seat, legal.action)
        first = len(events) + 1
        events.extend((first + n, event) for n, (event, _) in enumerate(steps))
        state = steps[-1][1] if steps else state
    return events
