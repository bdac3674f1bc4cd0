"""The contract every game implements, and the shapes it hands to the rest of the system.

A game is a state machine with a pending decision: ``decide`` turns a seat's action into events (or
raises a :class:`~domain.core.errors.DomainError`), ``evolve`` applies one event, and
``legal_actions`` lists what a seat may do now, sorted, each with a stable id and a label a person
can act on. States are frozen Structs that carry the campaign's :class:`~domain.core.rng.Rng` in a
field named ``rng``.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

from domain.core.events import CampaignCreated, Options

Outcome = Literal["running", "won", "lost"]

Step = tuple[Any, Any]
"""An event and the state it leaves, as ``Game.play`` returns them."""


class LegalAction(msgspec.Struct, frozen=True):
    """One thing a seat may do now. ``id`` is stable for the same action in the same state."""

    id: str
    label: str
    action: Any


class Game(Protocol):
    """What the campaign service, projections and bots need from a game."""

    name: str
    """The game's name in the API and CLI (``gil-ennis``, ``eila``, ``machina``)."""
    title: str
    ruleset: str
    """Recorded in every campaign created and checked when one is replayed: the engine refuses a
    campaign whose ruleset differs. It names the rules version and the content version
    (``gil-ennis/2+content.1``); bump it when rules or content change what a stream means."""
    event_type: Any
    """The union of the game's own events, for building decoders."""
    state_type: Any
    view_type: Any
    """The Struct ``view`` returns."""

    def seat_layouts(self) -> tuple[tuple[str, ...], ...]:
        """The seat tuples a campaign may be created with; the first is the default."""
        ...

    def check_options(self, options: Options, seats: tuple[str, ...]) -> None:
        """Raise :class:`~domain.core.errors.InvalidOptions` for options the game refuses."""
        ...

    def initial(self, created: CampaignCreated) -> Any:
        """The state right after ``created``: pure, no draws. The engine then keys its ``rng``
        with the campaign's seed and salt (see :func:`domain.core.engine.evolve`)."""
        ...

    def setup(self, state: Any) -> list[Any]:
        """The events of the rulebook's set-up (which may draw) that follow creation."""
        ...

    def decide(self, state: Any, seat: str, action: Any) -> list[Any]:
        """The events ``seat``'s ``action`` causes; raises a DomainError for an illegal one."""
        ...

    def play(self, state: Any, seat: str, action: Any) -> list[Step]:
        """Like ``decide`` for an action already taken from ``legal_actions(state, seat)``: no
        second check, and each event comes with the state it leaves, so nothing is evolved twice.
        """
        ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def legal_actions(self, state: Any, seat: str) -> list[LegalAction]: ...

    def to_act(self, state: Any) -> tuple[str, ...]:
        """The seats that have at least one legal action now."""
        ...

    def outcome(self, state: Any) -> Outcome: ...

    def view(self, state: Any, seat: str | None) -> msgspec.Struct:
        """What ``seat`` (``None``: a spectator) may see of ``state``."""
        ...

    def redact(self, event: Any, seat: str | None) -> Any:
        """``event`` as ``seat`` may see it (hidden information removed)."""
        ...

    def describe(self, event: Any, state: Any) -> str | None:
        """One readable timeline line for ``event`` applied to ``state``, or None to skip it."""
        ...


@runtime_checkable
class Episodic(Protocol):
    """An optional hook: a game whose campaign is a series of episodes (Eila's chapter attempts)
    says how the current one stands, so a simulator can stop after one."""

    def episode_outcome(self, state: Any) -> Outcome: ...


@runtime_checkable
class GreedyPlayer(Protocol):
    """An optional hook: a simple greedy policy for ``simulate --bot greedy``."""

    def greedy_choice(self, state: Any, legal: list[LegalAction]) -> LegalAction: ...


def action_id(action: msgspec.Struct) -> str:
    """A stable id for an action Struct: its tag, then its field values, joined by ``:``.

    ``Dream(mode="alone", dreamer="gil")`` tagged ``"dream"`` becomes ``"dream:alone:gil"``.
    """
    config = action.__struct_config__
    parts = [str(config.tag)]
    for name in action.__struct_fields__:
        value = getattr(action, name)
        if isinstance(value, tuple):
            parts.append("+".join(str(v) for v in value) or "-")
        elif value is None:
            parts.append("-")
        else:
            parts.append(str(value).lower() if isinstance(value, bool) else str(value))
    return ":".join(parts)
