"""A seeded random playthrough of any game, through its contract alone, stored as the server would.

The kit's own generator picks the seat and the action at each decision (never the campaign's), so
the same seed gives the same choices; a second run can follow the first one's choices by id.

On the way it keeps two promises that only a playthrough can see: each state can be encoded as a
snapshot is (a state that cannot stops the playthrough, named, instead of raising), and ``play``
and ``evolve`` leave the state they were given as it was (:mod:`domain.kit.untouched`).
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
from domain.kit.untouched import changed_fields, fields_of

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
    options: Options = field(default_factory=dict)

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def moves(self) -> int:
        return len(self.choices)

    def record(self, event: Any, state: Any) -> bool:
        """Keep ``event`` and the state it left; False (and the promise named) when the state
        cannot be encoded, as the server would fail to hash and snapshot it."""
        try:
            digest = state_hash(state)
        except (TypeError, ValueError, OverflowError) as error:
            self.breaks(
                "snapshot",
                f"The state after {type(event).__name__} cannot be encoded in MessagePack, as a "
                f"snapshot and its hash are: {error}",
                self.version + 1,
            )
            return False
        self.events.append(event)
        self.states.append(state)
        self.hashes.append(digest)
        return True

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
    played = Played(seed, seats, options=dict(options))
    first = created(game, seats, options, seed)
    state = engine.evolve(game, None, first)
    if not played.record(first, state):
        return played
    for event in game.setup(state):
        before = fields_of(state)
        after = engine.evolve(game, state, event)
        if _mutated(played, "evolve", f"applying {type(event).__name__}", state, before):
            return played
        state = after
        if not played.record(event, state):
            return played
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
        before = fields_of(state)
        try:
            steps = game.play(state, seat, chosen.action)
        except Exception as error:  # a listed action must apply, whatever the game raises
            played.breaks(
                "legal-actions-apply",
                f"{seat!r} took the listed action {chosen.id!r} and play raised "
                f"{type(error).__name__}: {error}",
            )
            break
        if _mutated(played, "play", f"{seat!r} taking {chosen.id!r}", state, before):
            break
        if not all(played.record(event, after) for event, after in steps):
            break
        if steps:
            state = steps[-1][1]
    return played


def _mutated(played: Played, call: str, doing: str, state: Any, before: dict[str, bytes]) -> bool:
    """Whether ``call`` changed ``state`` (whose fields were ``before``); named if it did."""
    changed = changed_fields(state, before)
    if changed:
        played.breaks(
            "no-mutation",
            f"{call} changed the state it was given ({doing}): field {', '.join(changed)}.",
        )
    return bool(changed)
