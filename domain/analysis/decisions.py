"""The decision points of a recorded campaign, and the move played at each.

A stream records events, not actions. At every state where a seat has a decision to make, the
action that was taken is the legal action whose events (``decide`` from that state, which draws
from the campaign's own generator, so it repeats the recorded luck) are the events that follow
in the stream. Replay goes through :func:`domain.core.engine.states`, so rewinds and reseeds are
honoured: a rewind drops the decisions it undid, and the line analysed is the one that ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import engine
from domain.core.events import Rewound
from domain.core.game import Game, LegalAction


@dataclass(frozen=True)
class Decision:
    """One decision point: the state a seat acted in, and what followed."""

    version: int
    state: Any
    """The full state; whoever estimates from it hands it to the game's sampler first, which
    keeps only what ``seat`` could know."""
    seat: str
    played: LegalAction
    events: tuple[Any, ...]
    """The events the move caused, luck included."""
    after_version: int
    after: Any
    """The state those events left."""


def decisions(game: Game, events: Sequence[tuple[int, Any]]) -> list[Decision]:
    """Every decision point of ``events`` (a whole stream, from its creation) on the line that
    leads to its last version, oldest first."""
    trail = list(engine.states(game, events))
    found: list[Decision] = []
    index = 0
    while index < len(trail):
        version, state = trail[index]
        following = events[index + 1] if index + 1 < len(events) else None
        if following is not None and type(following[1]) is Rewound:
            to = following[1].to
            found = [d for d in found if d.version < to]
            index += 1
            continue
        matched = None
        if game.outcome(state) == "running" and game.to_act(state):
            matched = _match(game, state, events, index + 1)
        if matched is None:
            index += 1
            continue
        seat, legal, count = matched
        after_version, after = trail[index + count]
        caused = tuple(event for _, event in events[index + 1 : index + 1 + count])
        found.append(Decision(version, state, seat, legal, caused, after_version, after))
        index += count
    return found


def _match(
    game: Game, state: Any, events: Sequence[tuple[int, Any]], start: int
) -> tuple[str, LegalAction, int] | None:
    """The seat and legal action whose events are those recorded from ``start`` on."""
    rest = len(events) - start
    for seat in game.to_act(state):
        for legal in game.legal_actions(state, seat):
            caused = game.decide(state, seat, legal.action)
            if not caused or len(caused) > rest:
                continue
            if all(events[start + i][1] == event for i, event in enumerate(caused)):
                return seat, legal, len(caused)
    return None
