"""Who may see a campaign's analysis, and of which decision points.

An ended campaign's analysis is anyone's who may read the campaign: every acting seat's
decision points. While it runs, a seat sees only its own decision points, over the versions it
has played, each estimated from its own information (as a hint is); a spectator sees nothing,
for an estimate or a preferred move would tell what a seat holds. A fork of a campaign that
still runs shares that campaign's hidden cards: its spectators are refused too.
"""

from __future__ import annotations

from server.campaigns.head import Head
from server.campaigns.service import CampaignService
from server.errors import ApiError

EVERY_SEAT = None


async def scope_of(service: CampaignService, head: Head, seat: str | None) -> str | None:
    """Whose decision points the viewer in ``seat`` (None: a spectator) may see in the campaign
    at ``head``: its own seat's, or every seat's (:data:`EVERY_SEAT`); refused otherwise."""
    if head.outcome == "running":
        if seat is None:
            raise ApiError(
                "forbidden",
                "A running campaign's analysis is for its seats only, each of its own moves; "
                "spectators see it once the campaign has ended.",
            )
        return seat
    if seat is None and not await service.history_revealed(head):
        raise ApiError(
            "forbidden",
            "This campaign shares its history with a campaign that still runs: its analysis "
            "is for its seats until that one has ended.",
        )
    return EVERY_SEAT
