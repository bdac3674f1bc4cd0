"""Try it: from a decision point of the analysis, a fork at that version with fresh luck whose
first move is the move the analysis preferred, so a table can play the alternative out.

The fork is reseeded (the luck from there on is new, not the luck the campaign met) and says so
in its attributes: :data:`TRIED_FROM` names the campaign, version and level it was tried from,
and :data:`FRESH_LUCK` marks the luck as drawn anew.
"""

from __future__ import annotations

from domain.analysis.report import Point
from server.campaigns.results import Acted, Created
from server.campaigns.service import CampaignService
from server.errors import ApiError

TRIED_FROM = "tried_from"
"""``<campaign>@<version>:<level>``: the decision point a fork tries the preferred move of."""
FRESH_LUCK = "fresh_luck"
"""``1``: the fork was reseeded, its luck drawn anew from the decision point on."""


def try_command(seat: str, version: int) -> str:
    """The command id of the preferred move played in the fork of decision point ``version``."""
    return f"analysis:try:{seat}@{version}"


async def try_it(
    service: CampaignService,
    campaign_id: str,
    point: Point,
    level: int,
    attrs: dict[str, str],
) -> tuple[Created, Acted]:
    """Fork ``campaign_id`` at ``point`` with fresh luck, and play its preferred move there."""
    if point.preferred.id == point.played.id:
        raise ApiError(
            "conflict",
            f"At version {point.version} the move played was the move the analysis preferred: "
            "there is no other move to try.",
        )
    marks = {TRIED_FROM: f"{campaign_id}@{point.version}:{level}", FRESH_LUCK: "1"}
    created = await service.fork(campaign_id, point.version, reseed=True, attrs=attrs | marks)
    acted = await service.act(
        created.id,
        point.seat,
        point.preferred.id,
        expected_version=created.version,
        command_id=try_command(point.seat, point.version),
    )
    return created, acted
