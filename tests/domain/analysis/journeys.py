"""Recorded campaigns to analyse, played by bots from fixed seeds (cached: each is played once)."""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.analysis.played import recorded
from domain.bots import make_bot
from domain.games import GAMES


def _attempt_over(game: Any, state: Any) -> bool:
    return bool(state.result != "" or state.phase == "abandoned")


@cache
def journey(
    name: str, bot: str, seed: int, seats: tuple[str, ...] | None = None
) -> tuple[Any, ...]:
    """The stream of a campaign of ``name`` that ``bot`` plays from ``seed`` (Eila: one attempt
    at chapter 1)."""
    game = GAMES[name]
    options: dict[str, str | int | bool] = {"chapter": 1} if name == "eila" else {}
    until = _attempt_over if name == "eila" else None
    player = make_bot(bot, game, seed, 1) if bot == "search" else make_bot(bot, game, seed)
    stream = recorded(game, player, seed=seed, seats=seats, options=options, until=until)
    return tuple(stream)
