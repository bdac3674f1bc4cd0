"""Wire messages: HTTP request and response bodies, and the WebSocket messages.

Inbound messages forbid unknown fields so that a typo is an error rather than an ignored field.
WebSocket messages are tagged unions on ``type``. Views and events travel as plain data.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.events import Options
from domain.core.game import GameInfo, Outcome
from projections.catalog import CatalogEntry
from projections.log import SeenEvent
from projections.patch import PatchOp
from projections.stats import GameStats
from projections.timeline import Line
from projections.views import Choice

# -- HTTP requests ---------------------------------------------------------------------------


class CreateCampaign(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game: str
    seed: int | None = None
    options: Options | None = None
    seats: list[str] | None = None
    private: bool = False


class ActRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    action: str
    expected_version: int
    command_id: str | None = None


class ForkRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    at: int
    reseed: bool | int = False


class RewindRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    to: int
    expected_version: int | None = None
    command_id: str | None = None


# -- HTTP responses --------------------------------------------------------------------------


class GameOut(msgspec.Struct, frozen=True):
    """A game's facts, and the JSON Schema of its campaign options (names, types, defaults)."""

    info: GameInfo
    options: dict[str, Any]


class GamesOut(msgspec.Struct, frozen=True):
    games: list[GameOut]


class CreatedOut(msgspec.Struct, frozen=True):
    id: str
    game: str
    seats: dict[str, str]
    """Seat name to its secret token; shown once, stored only as a hash."""
    seed_hash: str
    version: int


class ActedOut(msgspec.Struct, frozen=True):
    first: int
    version: int
    duplicate: bool = False
    command_id: str | None = None


class StateOut(msgspec.Struct, frozen=True):
    version: int
    view: Any
    legal_actions: list[Choice]
    outcome: Outcome
    head: int
    seat: str | None = None
    seed_hash: str = ""
    seed: int | None = None
    salt: str | None = None
    fork_points: list[int] = []
    """The versions the campaign may be forked at: where a seat had a decision to make."""
    rewind_points: list[int] = []
    """The versions it may be rewound to (none once it has ended)."""


class CampaignOut(msgspec.Struct, frozen=True):
    entry: CatalogEntry
    seats: list[str]
    private: bool
    seed_hash: str
    seed: int | None = None
    salt: str | None = None


class CatalogPage(msgspec.Struct, frozen=True):
    campaigns: list[CatalogEntry]
    offset: int
    limit: int
    next_offset: int | None = None


class EventsOut(msgspec.Struct, frozen=True):
    head: int
    events: list[SeenEvent]


class TimelineOut(msgspec.Struct, frozen=True):
    head: int
    lines: list[Line]
    fork_points: list[int] = []
    rewind_points: list[int] = []


class StatsOut(msgspec.Struct, frozen=True):
    games: list[GameStats]


# -- WebSocket, client to server -------------------------------------------------------------


class Hello(msgspec.Struct, frozen=True, tag="hello", forbid_unknown_fields=True):
    token: str | None = None
    since: int | None = None
    name: str | None = None
    """The player's name, shown to the campaign's other sockets in ``presence``."""
    presence: bool = False
    """Push ``presence`` to this socket whenever somebody joins or leaves."""


class Act(msgspec.Struct, frozen=True, tag="act", forbid_unknown_fields=True):
    action: str
    command_id: str
    expected_version: int


class SyncRequest(msgspec.Struct, frozen=True, tag="sync", forbid_unknown_fields=True):
    """Ask for the full view at the head (a client that lost track of its patches)."""


ClientMessage = Hello | Act | SyncRequest

# -- WebSocket, server to client -------------------------------------------------------------


class Welcome(msgspec.Struct, frozen=True, tag="welcome"):
    """The session's start: the full view at ``version``; ``missed`` holds the events after the
    ``since`` the client resumed from."""

    campaign: str
    game: str
    seat: str | None
    seats: list[str]
    version: int
    view: Any
    legal_actions: list[Choice]
    outcome: Outcome
    missed: list[SeenEvent] = []
    decision_point: bool | None = None
    """Replays only: whether ``version`` is a decision point (see :class:`Update`)."""


class Update(msgspec.Struct, frozen=True, tag="update"):
    """Versions ``first..version`` happened: their events, and how the seat's view changed
    (a JSON Patch to apply to the view at ``first - 1``)."""

    first: int
    version: int
    events: list[SeenEvent]
    patch: list[PatchOp]
    legal_actions: list[Choice]
    outcome: Outcome
    decision_point: bool | None = None
    """Replays only: whether a seat had a decision to make at ``version`` (or the campaign had
    ended there). Such versions, from the campaign's origin on, are its fork and rewind points."""


class Accepted(msgspec.Struct, frozen=True, tag="accepted"):
    """The answer to this session's action, with its update in the same frame. A ``duplicate``
    (a command id seen before) carries no patch: the client syncs if it is behind ``version``."""

    command_id: str
    first: int
    version: int
    duplicate: bool = False
    events: list[SeenEvent] = []
    patch: list[PatchOp] = []
    legal_actions: list[Choice] = []
    outcome: Outcome = "running"


class Sync(msgspec.Struct, frozen=True, tag="sync"):
    """The full view at ``version``, asked for by the client or sent when the server had to
    resynchronise it (``reason`` says why); it replaces everything the client held."""

    version: int
    view: Any
    legal_actions: list[Choice]
    outcome: Outcome
    reason: str | None = None


class Present(msgspec.Struct, frozen=True):
    """One socket that holds a seat, and the name its player gave, if any."""

    seat: str
    name: str | None = None


class Presence(msgspec.Struct, frozen=True, tag="presence"):
    """Who is connected to the campaign: one entry per seated socket, in the order they joined,
    and how many spectators watch. Sent to the sockets that asked for it in ``hello``."""

    seats: list[Present]
    spectators: int


class Rejected(msgspec.Struct, frozen=True, tag="rejected"):
    command_id: str | None
    code: str
    message: str


class ReplayEnd(msgspec.Struct, frozen=True, tag="end"):
    version: int


class ErrorMessage(msgspec.Struct, frozen=True, tag="error"):
    code: str
    message: str


ServerMessage = Welcome | Update | Accepted | Sync | Presence | Rejected | ReplayEnd | ErrorMessage
