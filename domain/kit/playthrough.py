"""A seeded random playthrough of any game, through its contract alone, stored as the server would.

The kit's own generator picks the seat and the action at each decision (never the campaign's), so
the same seed gives the same choices; a second run can follow the first one's choices by id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.core import engine
from domain.core.events import CampaignCreated, Options
from domain.core.game import Game
from domain.core.hashing import state_hash
from domain.core.rng import Chance, Rng
from domain.kit.promises import Broken

SALT = "kit"
CHOICES_SALT = "kit-choices"

Decision = Callable[[int, Any], None]
"""Called at each decision point with its version and state, before the action is taken."""


@dataclass
class Played:
    seed: int
    seats: tuple[str, ...]
    events: list[Any] = field(default_factory=list)
    """Event ``v`` is ``events[v - 1]``."""
    hashes: list[str] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    choices: list[tuple[str, str]] = field(default_factory=list)
    """(seat, action id) of each action taken, in order."""
    points: list[int] = field(default_factory=list)
    """The versions where a seat was to decide (or the campaign had ended)."""
    broken: list[Broken] = field(default_factory=list)

    @property
    def version(self) -> int:
        return len(self.events)

    def record(self, event: Any, state: Any) -> None:
        self.events.append(event)
        self.states.append(state)
        self.hashes.append(state_hash(state))

    def breaks(self, promise: str, detail: str, version: int | None = None) -> None:
        at = self.version if version is None else version
        self.broken.append(Broken(promise, detail, self.seed, at, self.seats))


def created(game: Game, seats: tuple[str, ...], options: Options, seed: int) -> CampaignCreated:
    return CampaignCreated(game.info.name, game.info.ruleset, seed, SALT, seats, options)


def play_through(
    game: Game,
    seats: tuple[str, ...],
    options: Options,
    seed: int,
    *,
    moves: int,
    follow: Sequence[tuple[str, str]] | None = None,
    at_decision: Decision | None = None,
) -> Played:
    """Up to ``moves`` actions from creation, chosen at random (or as ``follow`` lists them)."""
    played = Played(seed, seats)
    first = created(game, seats, options, seed)
    state = engine.evolve(game, None, first)
    played.record(first, state)
    for event in game.setup(state):
        state = engine.evolve(game, state, event)
        played.record(event, state)
    chooser = Chance(Rng(seed, 0, CHOICES_SALT))
    for step in range(moves if follow is None else len(follow)):
        played.points.append(played.version)
        if at_decision is not None:
            at_decision(played.version, state)
        if game.outcome(state) != "running":
            break
        acting = game.to_act(state)
        if not acting:
            played.breaks("someone-acts", "The game is running and no seat has a legal action.")
            break
        if follow is None:
            seat = acting[chooser.below(len(acting))]
            listed = game.legal_actions(state, seat)
            if not listed:
                played.breaks("someone-acts", f"to_act names {seat!r}, which has no legal action.")
                break
            chosen = listed[chooser.below(len(listed))]
        else:
            seat, wanted = follow[step]
            found = [a for a in game.legal_actions(state, seat) if a.id == wanted]
            if not found:
                played.breaks(
                    "deterministic",
                    f"The second run does not offer {seat!r} the action {wanted!r} the first did.",
                )
                break
            chosen = found[0]
        played.choices.append((seat, chosen.id))
        try:
            steps = game.play(state, seat, chosen.action)
        except Exception as error:  # a listed action must apply, whatever the game raises
            played.breaks(
                "legal-actions-apply",
                f"{seat!r} took the listed action {chosen.id!r} and play raised "
                f"{type(error).__name__}: {error}",
            )
            break
        for event, after in steps:
            played.record(event, after)
        if steps:
            state = steps[-1][1]
    return played
