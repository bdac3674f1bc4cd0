"""Wire messages: HTTP request and response bodies, and the WebSocket messages.

Inbound messages forbid unknown fields so that a typo is an error rather than an ignored field.
WebSocket messages are tagged unions on ``type``. Views and events travel as plain data.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec

from domain.core.events import Options
from domain.core.game import GameInfo, Outcome
from projections.catalog import CatalogEntry
from projections.log import SeenEvent
from projections.patch import PatchOp
from projections.stats import GameStats
from projections.timeline import Line
from projections.views import Choice
from server.campaigns.delay import SpectatorDelay

# -- Bounds every number and string from a client is decoded against -----------------------

MAX_NUMBER = 2**53 - 1
"""The largest version, offset or count a client may name: every JSON client reads it exactly,
and adding a page to it cannot overflow a 64-bit integer in a store."""

Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_NUMBER)]
"""A version, or an offset into a list (0 names "before the first")."""
Version = Annotated[int, msgspec.Meta(ge=1, le=MAX_NUMBER)]
"""A version that exists in every campaign's stream (1 is the campaign's creation)."""
Limit = Annotated[int, msgspec.Meta(ge=1, le=MAX_NUMBER)]
"""How many at most (clamped to the largest page an endpoint hands out)."""
SEED_LIMIT = 2**64
SEED_FIELDS = ("`$.seed`", "`$.reseed`")
"""Where a seed is in a request body, as msgspec names the place of an error."""
SEED_HINT = 'send the seed as a decimal string, such as "13112283191526718841"'
"""Ends every refusal of a seed (after a sentence, so without its full stop)."""
_SEED_DIGITS = re.compile(r"0|[1-9][0-9]{0,19}")
"""A seed's one spelling: no leading zeros, so the text a client sends is the text the seed hash
is taken over, and the text every answer shows back."""
_SEED_SCHEMA: list[dict[str, Any]] = [
    {"type": "string", "pattern": "^(0|[1-9][0-9]{0,19})$"},
    {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER},
]
SeedIn = Annotated[
    Any,
    msgspec.Meta(
        description=(
            "A whole number from 0 to 2**64 - 1 as a decimal string (digits only, no leading "
            "zeros); a JSON integer only up to 2**53 - 1, which every JSON client reads exactly."
        ),
        extra_json_schema={"anyOf": [*_SEED_SCHEMA, {"type": "null"}]},
    ),
]
"""A seed a client may choose (null: the server draws one). Decoded as any JSON value and read by
:func:`seed_of`, so that every wrong one gets the same advice, a rounded-looking number included."""
Reseed = Annotated[
    Any,
    msgspec.Meta(
        description=(
            "false: keep the parent's luck; true: new luck the server draws; a seed (as in "
            "creation): new luck from that seed."
        ),
        extra_json_schema={"anyOf": [{"type": "boolean"}, *_SEED_SCHEMA]},
    ),
]
SeedOut = Annotated[
    str,
    msgspec.Meta(
        pattern="^(0|[1-9][0-9]{0,19})$",
        description="A seed: a decimal string without leading zeros.",
    ),
]
CommandId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=128,
        pattern=r"^(?!bot:)",
        description="1 to 128 characters, not starting with 'bot:' (the server's bots' ids).",
    ),
]
"""A client's id for a command. Ids starting with ``bot:`` are the server's own (a bot seat's
move names its policy there, and the log says a bot acted), so a client may not send one."""
ActionId = Annotated[str, msgspec.Meta(max_length=1024)]
Token = Annotated[str, msgspec.Meta(max_length=256)]
Name = Annotated[str, msgspec.Meta(max_length=64)]

# -- HTTP requests ---------------------------------------------------------------------------


def seed_of(value: object) -> int:
    """The seed a client sent: a decimal string of 0 to 2**64 - 1 without leading zeros, or a
    JSON integer that no client can have rounded on its way (0 to 2**53 - 1). Anything else is
    refused, with advice."""
    if type(value) is str and _SEED_DIGITS.fullmatch(value) and int(value) < SEED_LIMIT:
        return int(value)
    if type(value) is str and value.isascii() and value.isdigit() and len(value) > 1:
        raise ValueError(
            f"The seed {value!r} starts with a zero; a seed is written without leading zeros, "
            f"as every answer shows it back: {SEED_HINT}"
        )
    if type(value) is int and 0 <= value <= MAX_NUMBER:
        return value
    if type(value) is int and MAX_NUMBER < value < SEED_LIMIT:
        raise ValueError(
            f"The seed {value} is past 2**53 - 1, where a JSON number may have been rounded "
            f"on its way; {SEED_HINT}"
        )
    raise ValueError(f"A seed is a whole number from 0 to 2**64 - 1: {SEED_HINT}")


def seed_text(seed: int) -> str:
    """A seed as the server sends it: decimal digits, which no JSON client rounds."""
    return str(seed)


class BotSeatIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat a bot plays: the bot's policy and level (None: the policy's default)."""

    bot: Name
    level: Annotated[int, msgspec.Meta(ge=0, le=99)] | None = None


class CreateCampaign(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game: Name
    seed: SeedIn = None
    """None: the server draws the luck. Once decoded, the chosen seed as an int."""
    options: Options | None = None
    seats: Annotated[list[Name], msgspec.Meta(max_length=16)] | None = None
    private: bool = False
    bots: Annotated[dict[Name, BotSeatIn], msgspec.Meta(max_length=16)] | None = None
    """Seat -> the bot that plays it; the other seats are people's."""
    spectator_delay: SpectatorDelay | None = None
    """Spectators see the campaign this many moves or seconds behind the table, until it ends."""

    def __post_init__(self) -> None:
        if self.seed is not None:
            msgspec.structs.force_setattr(self, "seed", seed_of(self.seed))


class ActRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    action: ActionId
    expected_version: Count
    command_id: CommandId | None = None


class ForkRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    at: Count
    reseed: Reseed = False
    """False: keep the parent's luck; True: fresh luck from a new random seed; a seed (see
    :func:`seed_of`): that seed, as an int once decoded."""
    spectator_delay: SpectatorDelay | None = None
    """The fork's own spectator delay: a fork does not inherit its parent's."""

    def __post_init__(self) -> None:
        if type(self.reseed) is not bool:
            msgspec.structs.force_setattr(self, "reseed", seed_of(self.reseed))


class RewindRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    to: Count
    expected_version: Count | None = None
    command_id: CommandId | None = None


# -- HTTP query parameters (decoded from their text; unknown ones are ignored) ---------------


class CatalogQuery(msgspec.Struct, frozen=True):
    offset: Count = 0
    limit: Limit = 50


class EventsQuery(msgspec.Struct, frozen=True):
    after: Count = 0
    limit: Limit = 1000


class StateQuery(msgspec.Struct, frozen=True):
    at: Version | None = None


class TimelineQuery(msgspec.Struct, frozen=True):
    after: Count = 0
    limit: Limit | None = None
    """None: every line after ``after``."""
    near: Version | None = None
    """The version the answer's points are listed around (None: the head it reaches)."""


Speed = Annotated[float, msgspec.Meta(ge=0, le=1000)]


class ReplayQuery(msgspec.Struct, frozen=True, rename={"start": "from"}):
    start: Version = 1
    speed: Speed = 10.0


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


Run = tuple[int, int]


class PointsOut(msgspec.Struct, frozen=True):
    """Fork and rewind points around version ``near`` as runs ``[first, last]`` of consecutive
    points, oldest first: up to ``NEAR`` runs whose first point is at or below ``near`` and as
    many after it. ``fork`` runs from the campaign's origin to its head, ``rewind`` before the
    head (none once it has ended); ``more_before`` and ``more_after`` say whether fork points lie
    beyond the listed runs (ask again nearer to them)."""

    near: int
    fork: list[Run]
    rewind: list[Run]
    more_before: bool
    more_after: bool


class StateOut(msgspec.Struct, frozen=True):
    version: int
    view: Any
    legal_actions: list[Choice]
    outcome: Outcome
    head: int
    seat: str | None = None
    seed_hash: str = ""
    seed: SeedOut | None = None
    """Revealed once the campaign has ended, with its salt."""
    salt: str | None = None
    points: PointsOut | None = None
    """Where the campaign may be forked and rewound to, around ``version``."""
    known_luck: bool = False
    """Whether anyone may know the campaign's luck: a chosen seed, or a fork that kept revealed
    luck. Its results are counted apart in the statistics."""


class CampaignOut(msgspec.Struct, frozen=True):
    entry: CatalogEntry
    seats: list[str]
    private: bool
    seed_hash: str
    seed: SeedOut | None = None
    """Revealed once the campaign has ended, with its salt."""
    salt: str | None = None
    spectator_delay: SpectatorDelay | None = None
    """How far behind the table spectators see the campaign while it runs."""


class CatalogPage(msgspec.Struct, frozen=True):
    campaigns: list[CatalogEntry]
    offset: int
    limit: int
    next_offset: int | None = None


class EventsOut(msgspec.Struct, frozen=True):
    head: int
    events: list[SeenEvent]
    raw: bool = False
    """The events are read as stored, without the game's rules (a ruleset this server does not
    play): whole for a seat's holder, their ``type`` alone for a spectator."""
    unplayed: str | None = None
    """Why this server does not play the campaign, when it does not."""


class TimelineOut(msgspec.Struct, frozen=True):
    head: int
    lines: list[Line]
    points: PointsOut | None = None
    """Where the campaign may be forked and rewound to, around ``near`` (default: ``head``)."""
    unplayed: str | None = None
    """Why this server does not play the campaign, when it does not: its lines are built from
    the stored events without the game's words, and it has no points."""


class StatsOut(msgspec.Struct, frozen=True):
    games: list[GameStats]


# -- WebSocket, client to server -------------------------------------------------------------


class Hello(msgspec.Struct, frozen=True, tag="hello", forbid_unknown_fields=True):
    token: Token | None = None
    since: Version | None = None
    name: str | None = None
    """The player's name, shown to the campaign's other sockets in ``presence``."""
    presence: bool = False
    """Push ``presence`` to this socket whenever somebody joins or leaves."""


class Act(msgspec.Struct, frozen=True, tag="act", forbid_unknown_fields=True):
    action: ActionId
    command_id: CommandId
    expected_version: Count


class SyncRequest(msgspec.Struct, frozen=True, tag="sync", forbid_unknown_fields=True):
    """Ask for the full view at the head (a client that lost track of its patches)."""


class Create(msgspec.Struct, frozen=True, tag="create", forbid_unknown_fields=True):
    """Create a campaign and play it on this socket, as ``seat`` (None: the first seat a person
    plays): the socket leaves the campaign it watched, if any, and is answered ``created`` (the
    seats' tokens) and then ``welcome``, as a ``hello`` with the new seat's token would be. One
    round trip from "New game" to a playable table, on the socket the player already has."""

    campaign: CreateCampaign
    seat: Name | None = None
    name: str | None = None
    presence: bool = False


ClientMessage = Hello | Act | SyncRequest | Create

# -- WebSocket, server to client -------------------------------------------------------------


class Created(msgspec.Struct, frozen=True, tag="created"):
    """A campaign this socket created (``create``): as ``POST /api/campaigns`` answers, each
    seat's token shown once; this socket's ``welcome`` to it follows."""

    id: str
    game: str
    seats: dict[str, str]
    seed_hash: str
    version: int
    seat: str
    """The seat this socket plays."""


class Welcome(msgspec.Struct, frozen=True, tag="welcome"):
    """The session's start: the full view at ``version``; ``missed`` holds the first events
    after the ``since`` the client resumed from (at most a page of them); ``missed_more`` says
    that ``missed`` messages with the rest follow before anything else."""

    campaign: str
    game: str
    seat: str | None
    seats: list[str]
    version: int
    view: Any
    legal_actions: list[Choice]
    outcome: Outcome
    missed: list[SeenEvent] = []
    missed_more: bool = False
    decision_point: bool | None = None
    """Replays only: whether ``version`` is a decision point (see :class:`Update`)."""
    spectator_delay: SpectatorDelay | None = None
    """A spectator's welcome to a running campaign with a spectator delay: how far behind the
    table this socket sees it (its updates come as they come due, until the campaign ends)."""
    asked_from: int | None = None
    """Replays only: the ``from`` the client asked for, when it lay past what this viewer may
    see now (the head; a spectator's delayed version, with ``spectator_delay`` set). The
    replay starts at ``version`` instead; None when it starts where it was asked to."""


class Missed(msgspec.Struct, frozen=True, tag="missed"):
    """The next page of a long resume's missed events, oldest first; ``more``: another page
    follows. The last one comes before any update after the welcome."""

    events: list[SeenEvent]
    more: bool = False


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


class Rejected(msgspec.Struct, frozen=True, tag="rejected", omit_defaults=True):
    """An action refused; nothing was appended. ``retry_after`` (seconds) comes with
    ``rate_limited``: the same action may be sent again after it."""

    command_id: str | None
    code: str
    message: str
    retry_after: float | None = None


class ReplayEnd(msgspec.Struct, frozen=True, tag="end"):
    version: int


class ErrorMessage(msgspec.Struct, frozen=True, tag="error", omit_defaults=True):
    """``retry_after`` (seconds) comes with ``rate_limited`` when waiting is enough."""

    code: str
    message: str
    retry_after: float | None = None


ServerMessage = (
    Welcome
    | Missed
    | Update
    | Accepted
    | Sync
    | Presence
    | Rejected
    | ReplayEnd
    | ErrorMessage
    | Created
)
