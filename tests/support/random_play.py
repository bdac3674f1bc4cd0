"""Random legal playthroughs driven by one seed, for the property tests of every game.

A playthrough is drawn as two integers (the campaign's seed and the picker's), not one hypothesis
draw per action: its length is then the game's, never the length of hypothesis' buffer, and a
bound on it can fail.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from domain.core.engine import evolve
from domain.core.events import CampaignCreated, Options
from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng

T = TypeVar("T")


class Picks:
    """A seeded stream of choices, apart from the campaign's generator."""

    def __init__(self, seed: int) -> None:
        self._chance = Chance(Rng(seed))

    def pick(self, items: Sequence[T]) -> T:
        return items[self._chance.below(len(items))]


def begun(game: Game, seats: tuple[str, ...], seed: int, options: Options | None = None) -> Any:
    """The state after creation and the rulebook's set-up, as the server keys and plays it."""
    created = CampaignCreated(game.info.name, game.info.ruleset, seed, "salt", seats, options or {})
    state = evolve(game, None, created)
    for event in game.setup(state):
        state = game.evolve(state, event)
    return state


def playing(legal: list[LegalAction]) -> list[LegalAction]:
    """Every legal action but abandoning the campaign (Eila's), which would end most playthroughs
    within a few actions."""
    return [la for la in legal if la.id != "abandon"]


def actions(
    game: Game, state: Any, picks: Picks, *, limit: int
) -> Iterator[tuple[str, LegalAction, list[tuple[Any, Any]]]]:
    """Up to ``limit`` random legal actions from ``state`` while the campaign runs: each as the
    seat, the action and its steps (every event with the state it leaves)."""
    for _ in range(limit):
        if game.outcome(state) != "running":
            return
        seats = game.to_act(state)
        assert seats, "A running campaign always has a seat to act."
        seat = picks.pick(seats)
        choice = picks.pick(playing(game.legal_actions(state, seat)))
        steps = game.play(state, seat, choice.action)
        yield seat, choice, steps
        state = steps[-1][1]
