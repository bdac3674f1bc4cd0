"""The HTTP bodies of rewind proposals (the pushed messages are in :mod:`.proposals`)."""

from __future__ import annotations

import msgspec

from server.protocol.messages import ActedOut, CommandId, Count, Name
from server.protocol.proposals import Proposal, ProposalEnded


class ProposeRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    to: Count
    expected_version: Count | None = None
    command_id: CommandId | None = None


class AnswerRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Name
    accept: bool


class ProposalOut(msgspec.Struct, frozen=True):
    """The open proposal (None: none), and the rewind when it was made at once (a seat taking
    back its own last move, or a table with one person at it)."""

    proposal: Proposal | None
    rewound: ActedOut | None = None
    ended: ProposalEnded | None = None
