"""The lineage routes' wire messages (``docs/protocol.md``, "Lineage")."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

from server.protocol.messages import MAX_NUMBER

MAX_BRANCHES = 500
DEFAULT_BRANCHES = 100
Cursor = Annotated[str, msgspec.Meta(max_length=512)]
BranchLimit = Annotated[int, msgspec.Meta(ge=1, le=MAX_BRANCHES)]


class LineageQuery(msgspec.Struct, frozen=True):
    after: Cursor | None = None
    """The ``next`` of the previous page (None: the first page)."""
    limit: BranchLimit = DEFAULT_BRANCHES


class ParentOut(msgspec.Struct, frozen=True):
    """Where a branch parts: the version, on branch ``branch``, whose state it starts from."""

    branch: str
    campaign: str
    version: int


class RewindOut(msgspec.Struct, frozen=True):
    """A ``Rewound`` event at version ``at`` that returned the campaign to version ``to``."""

    at: int
    to: int


Outcome = Annotated[
    str,
    msgspec.Meta(
        description='The campaign\'s outcome as the catalog words it ("running", "won", '
        '"lost", "unknown" for a ruleset this server does not play); "undone" for a stretch a '
        "rewind undid."
    ),
]


class BranchOut(msgspec.Struct, frozen=True):
    """A branch of a campaign family. A private branch the viewer may not see, kept so that
    the tree stays connected, has ``id``, ``kind`` and ``private`` only."""

    id: str
    kind: Literal["root", "fork", "undone"]
    private: bool
    campaign: str | UnsetType = UNSET
    parent: ParentOut | UnsetType | None = UNSET
    first: int | UnsetType = UNSET
    last: int | UnsetType = UNSET
    moves: int | UnsetType = UNSET
    made_by: str | UnsetType | None = UNSET
    made_ms: int | UnsetType | None = UNSET
    undone_at: int | UnsetType | None = UNSET
    rewinds: list[RewindOut] | UnsetType = UNSET
    outcome: Outcome | UnsetType = UNSET
    ended: str | UnsetType | None = UNSET
    known_luck: bool | UnsetType = UNSET


class LineageOut(msgspec.Struct, frozen=True):
    root: str
    campaign: str
    branches: list[BranchOut]
    next: str | None


class CompareOut(msgspec.Struct, frozen=True):
    """Where two campaigns' histories part: ``common`` is the last version at which both hold
    the same event at every version up to it (0: none)."""

    a: str
    b: str
    common: Annotated[int, msgspec.Meta(ge=0, le=MAX_NUMBER)]
    a_head: int
    b_head: int


class UpgradePlanOut(msgspec.Struct, frozen=True):
    """What moving a campaign forward to today's ruleset of its game would do
    (:mod:`server.campaigns.forward`): ``kind`` is "identical", "diverges" (at move ``at``; 0:
    the set-up), "not_possible" or "current"; ``why`` says it in words for the players."""

    campaign: str
    game: str
    ruleset: str
    today: str
    kind: Literal["identical", "diverges", "not_possible", "current"]
    moves: int
    applied: int
    at: int | None
    why: str
    summary: str


class UpgradedOut(msgspec.Struct, frozen=True):
    """The campaign a move forward made, with its seats' tokens (as a fork's), and its plan."""

    id: str
    game: str
    ruleset: str
    seats: dict[str, str]
    """Seat name to its secret token; shown once, stored only as a hash."""
    seed_hash: str
    version: int
    plan: UpgradePlanOut
