"""The wire's shapes of a rewind the table must agree to, and of the banner every seat is shown
once a rewind has happened (:mod:`server.lineage.proposals` keeps and decides them).

None of this is an event of the game: a proposal is kept with the campaign's metadata, outside
its stream, so a replay's luck and state never see one.
"""

from __future__ import annotations

from typing import Literal

import msgspec

PROPOSAL_ATTR = "proposal"
"""The campaign attribute that holds the open proposal as JSON (empty: none)."""

Ending = Literal["accepted", "declined", "withdrawn", "moved_on"]
"""How a proposal ended: every seat asked said yes (the campaign was rewound); a seat said no, or
the seat that asked withdrew (nothing changed); a move was made first (nothing changed)."""


class UndoneMove(msgspec.Struct, frozen=True):
    """One line of a move that a rewind undoes (or would undo), in the game's words."""

    move: int
    text: str


class Proposal(msgspec.Struct, frozen=True):
    """A seat asks to rewind the campaign to version ``to``; nothing changes until every seat in
    ``asked`` has said yes. It holds only while the campaign stands at version ``at``."""

    id: str
    by: str
    """The seat that asks."""
    to: int
    to_move: int
    """The move the campaign would return to, as players count moves (0: the set-up)."""
    at: int
    """The campaign's version when it was asked: any move made after it ends the proposal."""
    asked: list[str]
    """The other seats people play, whose yes it needs."""
    accepted: list[str]
    undone: list[UndoneMove]
    """The moves it would undo (at most :data:`UNDONE_SHOWN` lines, the oldest first)."""
    moves: int
    """How many moves it would undo."""
    made_ms: int


class ProposalEnded(msgspec.Struct, frozen=True):
    id: str
    by: str
    ending: Ending
    answered_by: str | None = None
    """The seat whose answer ended it (declined, or the last yes)."""


class ProposalMessage(msgspec.Struct, frozen=True, tag="proposal", omit_defaults=True):
    """Pushed to every seated socket when a proposal opens, gains a yes, or ends."""

    open: Proposal | None = None
    ended: ProposalEnded | None = None


class RewoundMessage(msgspec.Struct, frozen=True, tag="rewound"):
    """Pushed to every seated socket after any rewind: who made it and what it undid."""

    version: int
    """The version of the ``Rewound`` event."""
    by: str | None
    """The seat that rewound (None: no seat, such as a tool run on the server)."""
    to: int
    to_move: int
    undone: list[UndoneMove]
    moves: int
    agreed: list[str]
    """The seats that agreed to it (empty: a seat taking back its own move, or a solo table)."""


UNDONE_SHOWN = 12
"""Lines of undone moves a proposal or banner carries; ``moves`` counts them all."""
