"""An Eila campaign ends when the player abandons it, and its seed is revealed then."""

from __future__ import annotations

from domain.core.hashing import seed_commitment
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore


def _action(head: object, label: str) -> str:
    legal = head.legal("player")  # type: ignore[attr-defined]
    (found,) = [a.id for a in legal.values() if a.label.startswith(label)]
    return found


async def test_abandoning_ends_the_campaign_and_reveals_the_seed() -> None:
    service = CampaignService(MemoryStore(), fresh=Counted("t", 1), clock=lambda: 0)
    created = await service.create("eila", seed=1234, seats=["player"])
    head = await service.head(created.id)
    assert await service.revealed(created.id, head) is None
    for label in ("Abandon the campaign", "Yes, abandon"):
        await service.act(created.id, "player", _action(head, label), expected_version=head.version)
        head = await service.head(created.id)
    assert head.outcome == "lost"
    seeding = await service.revealed(created.id, head)
    assert seeding is not None and seeding.seed == 1234
    assert seed_commitment(seeding.seed, seeding.salt) == created.seed_hash
