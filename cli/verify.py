"""Verifying many stored campaigns at once: every state hash of every stream rebuilt and compared
(what ``tabletale replay --verify`` does for one). The soak uses it on every stream it wrote."""

from __future__ import annotations

from typing import Any

from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore


async def verify_campaigns(redis_url: str, prefix: str, campaigns: list[str]) -> dict[str, Any]:
    """Replay each of ``campaigns`` from the Redis store at ``redis_url`` under ``prefix``: how
    many campaigns and events were checked, and where any stream diverged."""
    store = RedisStore.from_url(redis_url, prefix=prefix)
    service = CampaignService(store)
    divergences: list[str] = []
    events = 0
    try:
        for campaign in campaigns:
            report = await service.verify(campaign)
            events += report.events
            if not report.ok:
                divergences.append(f"{campaign}: {report.first_divergence}")
    finally:
        await store.close()
    return {
        "campaigns_verified": len(campaigns),
        "events_verified": events,
        "divergences": divergences,
    }
