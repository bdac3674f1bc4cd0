"""The readable log: one line per event that the game (or the campaign) has something to say about.

Lines come from the game's ``describe(event, state_after)``; a timeline line is public, so games
describe events without their hidden details. Campaign-level events get their own lines here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.core.engine import states
from domain.core.events import CampaignCreated, Reseeded, Rewound
from domain.core.game import Game
from projections.log import acted_by
from projections.recorded import RecordedEvent


class Line(msgspec.Struct, frozen=True, omit_defaults=True):
    version: int
    text: str
    at_ms: int = 0
    rewound_to: int | None = None
    """On a rewind's line: the version it returned the campaign to, so a reader can mark the
    lines after that version and before this one as undone."""
    by: str | None = None
    """The bot that acted, when a bot took the action (:func:`projections.log.acted_by`)."""


def campaign_line(game: Game, event: Any) -> str | None:
    match event:
        case CampaignCreated(seats=seats):
            names = ", ".join(game.info.seat_names.get(seat, seat) for seat in seats)
            return f"A campaign of {game.info.title} began with seats {names}."
        case Reseeded():
            return "The campaign was forked with fresh luck."
        case Rewound(to=to):
            return f"The campaign was rewound to move {to}; the moves after it were undone."
    return None


def line(game: Game, recorded: RecordedEvent, state: Any) -> Line | None:
    """The line for one event, given the state it left (None: nothing to say)."""
    event = recorded.event
    if isinstance(event, CampaignCreated | Reseeded | Rewound):
        text = campaign_line(game, event)
    else:
        text = game.describe(event, state)
    if text is None:
        return None
    rewound_to = event.to if isinstance(event, Rewound) else None
    return Line(recorded.version, text, recorded.at_ms, rewound_to, acted_by(recorded))


def timeline(game: Game, events: Sequence[RecordedEvent]) -> list[Line]:
    """The lines of a whole stream (``events`` from version 1, rewinds included)."""
    pairs = [(recorded.version, recorded.event) for recorded in events]
    lines: list[Line] = []
    for recorded, (_, state) in zip(events, states(game, pairs), strict=True):
        found = line(game, recorded, state)
        if found is not None:
            lines.append(found)
    return lines
