"""Bots: policies that play a game through its public contract, one module per policy.

A :class:`Bot` is handed the state and picks a seat that may act and one of its actions (the
simulator drives it). A :class:`Policy` decides for one seat from what that seat may see: the
search bot re-samples every hidden part of what it is handed before it looks (see
:mod:`domain.core.sampling`). Games never import their bots; bots import the games they know.
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


class Policy(Protocol):
    def decide(self, game: Game, observation: Any, seat: str) -> LegalAction:
        """One of ``seat``'s legal actions, from what ``seat`` may see of ``observation`` (a
        state whose hidden parts the policy replaces by a sample before it looks)."""
        ...


def _uniform(game: Game, seed: int) -> Bot:
    from domain.bots.uniform_random import UniformRandom

    return UniformRandom(seed)


def _machina_heuristic(game: Game, seed: int) -> Bot:
    from domain.bots.machina_heuristic import MachinaHeuristic

    return MachinaHeuristic()


def _gil_ennis_heuristic(game: Game, seed: int) -> Bot:
    from domain.bots.gil_ennis_heuristic import GilEnnisHeuristic

    return GilEnnisHeuristic(seed)


def _eila_greedy(game: Game, seed: int) -> Bot:
    from domain.bots.eila_greedy import EilaGreedy
    from domain.eila.game import EilaGame

    if not isinstance(game, EilaGame):
        raise InvalidOptions(f"The greedy bot plays Eila, not {game.info.title}.")
    return EilaGreedy(game)


def _search(game: Game, seed: int, level: int | None = None) -> Bot:
    from domain.bots.search_bot import SearchBot

    return SearchBot(game, seed, level)


BOTS: dict[str, dict[str | None, Callable[[Game, int], Bot]]] = {
    "random": {None: _uniform},
    "greedy": {"eila": _eila_greedy},
    "heuristic": {"machina": _machina_heuristic, "gil-ennis": _gil_ennis_heuristic},
    "search": {None: _search},
}
"""Bots by name, then by the game they play (None: any game)."""


def make_bot(name: str, game: Game, seed: int, level: int | None = None) -> Bot:
    """The bot called ``name`` for ``game``, seeded with ``seed``; ``level`` for the search bot
    (None: its default)."""
    by_game = BOTS.get(name)
    if by_game is None:
        raise InvalidOptions(f"There is no bot called {name!r}; known bots: {', '.join(BOTS)}.")
    factory = by_game.get(game.info.name) or by_game.get(None)
    if factory is None:
        raise InvalidOptions(f"{game.info.title} has no {name} bot; use --bot random.")
    if name == "search":
        return _search(game, seed, level)
    if level is not None:
        raise InvalidOptions(f"The {name} bot has no levels; only the search bot has.")
    return factory(game, seed)


def make_policy(game: Game, seed: int, level: int | None = None) -> Policy:
    """The search bot as a policy for one seat: what the server drives bot seats with."""
    from domain.bots.search_bot import SearchBot

    return SearchBot(game, seed, level)
