"""Seed secrecy: the seed hash is public from creation, the seed and salt once it has ended."""

from __future__ import annotations

from domain.core.game import Outcome
from projections.log import Seeding, last_seeding
from server.service import SEEDED_AT, CampaignService


async def revealed(service: CampaignService, campaign_id: str, outcome: Outcome) -> Seeding | None:
    """The seed in force at the head, or None while the campaign runs.

    Only the one event that set it is read (version 1, or a reseeded fork's first event).
    """
    if outcome == "running":
        return None
    info = await service.store.info(campaign_id)
    at = int(info.attrs.get(SEEDED_AT, "1"))
    return last_seeding(list(await service.events(campaign_id, at - 1, at)))
