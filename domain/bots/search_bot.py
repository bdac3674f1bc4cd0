"""The search bot: information-set Monte Carlo tree search (:mod:`domain.bots.search`) with the
game's heuristic as its rollout policy, at a level that trades time for strength.

Its chance is its own: every decision draws from a generator keyed by the bot's seed and the
number of decisions it has made, never from the campaign's.
"""

from __future__ import annotations

from typing import Any

from domain.bots.knowledge import knowledge_of
from domain.bots.search import Choice, Level, search
from domain.core.errors import InvalidOptions
from domain.core.game import Game, LegalAction, Sampled
from domain.core.rng import Chance, Rng

LEVELS: dict[str, dict[int, Level]] = {
    # No playouts: a state is judged by the heuristic's score at once, whose values lie close
    # together, hence the small exploration and margin; the heuristic is too dear to ask at
    # every node, so below the root the order is the values'. A first move is judged by the best
    # line below it: the policy's move, searched deepest, would otherwise carry the mean of
    # every poor reply tried after it (at two seats, twice as many).
    "gil-ennis": {
        n: Level(
            iterations=iterations,
            playout=0,
            exploration=0.1,
            trust=3,
            margin=0.03,
            tree_prior=False,
            best_line=True,
        )
        for n, iterations in ((1, 20), (2, 60), (3, 200))
    },
    "eila": {
        1: Level(iterations=12, playout=20),
        2: Level(iterations=30, playout=30),
        3: Level(iterations=160, playout=60),
    },
    # The heuristic's moves cost more to find (a walk over the board per explorer), and it
    # seldom loses: the search leaves it only on clear evidence.
    "machina": {
        1: Level(iterations=10, playout=10, prior=3.0),
        2: Level(iterations=20, playout=16, prior=3.0),
        3: Level(iterations=120, playout=40, prior=3.0),
    },
}
"""Per game: iterations per decision and moves played out below the tree. Level 2, the default,
decides within 200 ms of one core (docs/bots.md has the figures)."""

ANY_GAME: dict[int, Level] = {
    n: Level(iterations=iterations, playout=200, prior=0.0, margin=0.0)
    for n, iterations in ((1, 30), (2, 100), (3, 400))
}
"""For a game the search knows only through its sampler: uniform playouts to the end (a
game's own heuristic would be better; none is known), so more iterations than the others. The
policy is a uniform one, so its move earns no preference: the first move with the best mean
value (among those visited ``trust`` times) is chosen."""
DEFAULT_LEVEL = 2


def levels_for(game: Game) -> dict[int, Level]:
    """The levels the search bot plays ``game`` at: none for a game it does not know and that
    cannot draw its hidden worlds."""
    known = LEVELS.get(game.info.name)
    if known is not None:
        return known
    return ANY_GAME if isinstance(game, Sampled) else {}


def level_of(game: Game, level: int | None) -> Level:
    levels = LEVELS.get(game.info.name, ANY_GAME)
    found = levels.get(DEFAULT_LEVEL if level is None else level)
    if found is None:
        raise InvalidOptions(f"The search bot plays at level {', '.join(map(str, levels))}.")
    return found


def think(
    game: Game, observation: Any, seats: tuple[str, ...], *, level: int | None, chance: Chance
) -> Choice:
    """The search bot's choice for one of ``seats``, from what they may see of ``observation``."""
    return search(game, knowledge_of(game), observation, seats, level_of(game, level), chance)


class SearchBot:
    """A :class:`~domain.bots.Bot` and a :class:`~domain.bots.Policy`."""

    def __init__(self, game: Game, seed: int, level: int | None = None) -> None:
        self._level = level
        level_of(game, level)  # an unknown level is refused at once
        knowledge_of(game)
        self._seed = seed
        self._decisions = 0

    def _chance(self) -> Chance:
        self._decisions += 1
        return Chance(Rng(self._seed, 0, f"search/{self._decisions}"))

    def choose(self, game: Game, state: Any) -> tuple[str, LegalAction]:
        seats = game.to_act(state)
        if not seats:
            raise RuntimeError("No seat can act, yet the campaign is still running.")
        chosen = think(game, state, seats, level=self._level, chance=self._chance())
        return chosen.seat, chosen.action

    def decide(self, game: Game, observation: Any, seat: str) -> LegalAction:
        chosen = think(game, observation, (seat,), level=self._level, chance=self._chance())
        return chosen.action
