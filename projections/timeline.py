"""The readable log: one line per event that the game (or the campaign) has something to say about.

Lines come from the game's ``describe(event, state_after)``; a timeline line is public, so games
describe events without their hidden details. Campaign-level events get their own lines here.

Each line carries the move it belongs to, counted as players count them (:class:`MoveCount`):
one action of a seat is one move, however many events it appends; versions count events and stay
in links and the API.
"""

from __future__ import annotations

import bisect
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
    move: int = 0
    """The move the event belongs to, as players count them (:class:`MoveCount`); 0: the
    set-up, before any seat has acted."""


class MoveCount:
    """Moves as players count them, over a stream read in order: a seat's action is one move,
    whatever number of events it appends (its last event is the settled one); events no seat
    caused (the creation, the set-up) belong to the move before them; a rewind takes the count
    back to the move the campaign returned to."""

    __slots__ = ("_counts", "_versions", "count")

    def __init__(self) -> None:
        self.count = 0
        """The moves made by the last event seen."""
        self._versions: list[int] = [0]
        self._counts: list[int] = [0]

    def copy(self) -> MoveCount:
        other = MoveCount()
        other.count = self.count
        other._versions = list(self._versions)
        other._counts = list(self._counts)
        return other

    def at(self, version: int) -> int:
        """The moves made once ``version`` was reached (a version already seen)."""
        return self._counts[bisect.bisect_right(self._versions, version) - 1]

    def see(self, recorded: RecordedEvent) -> int:
        """Count ``recorded`` (the next event of the stream); the move it belongs to."""
        event = recorded.event
        if isinstance(event, Rewound):
            self._mark(recorded.version, self.at(event.to))
            return self.count
        if recorded.seat is None:
            return self.count
        move = self.count + 1
        if getattr(recorded, "settled", True):
            self._mark(recorded.version, move)
        return move

    def _mark(self, version: int, count: int) -> None:
        self.count = count
        self._versions.append(version)
        self._counts.append(count)


def campaign_line(game: Game, event: Any, move: int | None = None) -> str | None:
    """``move``: for a rewind, the move the campaign returned to (its version when unknown)."""
    match event:
        case CampaignCreated(seats=seats):
            names = ", ".join(game.info.seat_names.get(seat, seat) for seat in seats)
            return f"A campaign of {game.info.title} began with seats {names}."
        case Reseeded():
            return "The campaign was forked with fresh luck."
        case Rewound(to=to):
            back = to if move is None else move
            if back == 0:
                return "The campaign was rewound to its start; every move was undone."
            return f"The campaign was rewound to move {back}; the moves after it were undone."
    return None


def line(
    game: Game, recorded: RecordedEvent, state: Any, moves: MoveCount | None = None
) -> Line | None:
    """The line for one event, given the state it left (None: nothing to say). ``moves``: the
    count of the stream so far, which this event is added to."""
    event = recorded.event
    move = moves.see(recorded) if moves is not None else 0
    if isinstance(event, CampaignCreated | Reseeded | Rewound):
        text = campaign_line(game, event, move if moves is not None else None)
    else:
        text = game.describe(event, state)
    if text is None:
        return None
    rewound_to = event.to if isinstance(event, Rewound) else None
    return Line(recorded.version, text, recorded.at_ms, rewound_to, acted_by(recorded), move)


def timeline(game: Game, events: Sequence[RecordedEvent]) -> list[Line]:
    """The lines of a whole stream (``events`` from version 1, rewinds included)."""
    pairs = [(recorded.version, recorded.event) for recorded in events]
    lines: list[Line] = []
    moves = MoveCount()
    for recorded, (_, state) in zip(events, states(game, pairs), strict=True):
        found = line(game, recorded, state, moves)
        if found is not None:
            lines.append(found)
    return lines
