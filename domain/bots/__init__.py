"""Bots: policies that play a game through its public contract, one module per policy.

A bot sees what the engine sees (the state and the legal actions) and picks a seat that may act
and one of its actions. Games never import their bots; bots import the games they know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from domain.core.errors import InvalidOptions
from domain.core.game import Game, LegalAction


class Bot(Protocol):
    def choose(self, game: Game, state: Any) -> tuple[str, LegalAction]:
        """A seat among ``game.to_act(state)`` and one of its legal actions."""
        ...


def _uniform(game: Game, seed: int) -> Bot:
    from domain.bots.uniform_random import UniformRandom

    return UniformRandom(seed)


def _machina_heuristic(game: Game, seed: int) -> Bot:
    from domain.bots.machina_heuristic import MachinaHeuristic

    return MachinaHeuristic()


def _eila_greedy(game: Game, seed: int) -> Bot:
    from domain.bots.eila_greedy import EilaGreedy
    from domain.eila.game import EilaGame

    if not isinstance(game, EilaGame):
        raise InvalidOptions(f"The greedy bot plays Eila, not {game.info.title}.")
    return EilaGreedy(game)


BOTS: dict[str, dict[str | None, Callable[[Game, int], Bot]]] = {
    "random": {None: _uniform},
    "greedy": {"eila": _eila_greedy},
    "heuristic": {"machina": _machina_heuristic},
}
"""Bots by name, then by the game they play (None: any game)."""


def make_bot(name: str, game: Game, seed: int) -> Bot:
    """The bot called ``name`` for ``game``, seeded with ``seed``."""
    by_game = BOTS.get(name)
    if by_game is None:
        raise InvalidOptions(f"There is no bot called {name!r}; known bots: {', '.join(BOTS)}.")
    factory = by_game.get(game.info.name) or by_game.get(None)
    if factory is None:
        raise InvalidOptions(f"{game.info.title} has no {name} bot; use --bot random.")
    return factory(game, seed)
