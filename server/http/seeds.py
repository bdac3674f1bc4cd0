"""Seed secrecy: the seed hash is public from creation, the seed and salt once it has ended."""

from __future__ import annotations

from domain.core.game import Outcome
from projections.log import Seeding, last_seeding
from server.service import CampaignService


async def revealed(service: CampaignService, campaign_id: str, outcome: Outcome) -> Seeding | None:
    """The seed in force at the head, or None while the campaign runs."""
    if outcome == "running":
        return None
    return last_seeding(list(await service.events(campaign_id)))
