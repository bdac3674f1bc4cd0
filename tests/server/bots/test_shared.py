"""A bot seat keeps to its seat: the decisions either seat may take wait for a connected person."""

from __future__ import annotations

from server.bots.shared import shared
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore


async def test_the_hike_is_shared_while_a_person_is_connected_and_packing_is_not() -> None:
    service = CampaignService(MemoryStore())
    created = await service.create("gil-ennis", seed=5, seats=["gil", "ennis"])
    head = await service.head(created.id)
    assert shared(head, "ennis", {"ennis"}, {"gil"}) == frozenset(), "Ennis packs its own dice"
    for seat in ("gil", "ennis"):  # both pack
        head = await service.head(created.id)
        first = next(iter(head.legal(seat)))
        await service.act(created.id, seat, first, expected_version=head.version)
    head = await service.head(created.id)
    hike = set(head.legal("ennis"))
    assert hike and hike == set(head.legal("gil"))
    assert shared(head, "ennis", {"ennis"}, {"gil"}) == hike
    assert shared(head, "ennis", {"ennis"}, set()) == frozenset(), "nobody here: the bot hikes"
    assert shared(head, "ennis", {"ennis", "gil"}, {"gil"}) == frozenset(), "two bots' seats"


async def test_turning_in_is_each_seats_own_though_both_may() -> None:
    service = CampaignService(MemoryStore())
    created = await service.create("gil-ennis", seed=5, seats=["gil", "ennis"])
    for seat in ("gil", "ennis", "gil"):  # both pack, Gil hikes: PITCH
        head = await service.head(created.id)
        first = next(iter(head.legal(seat)))
        await service.act(created.id, seat, first, expected_version=head.version)
    head = await service.head(created.id)
    both = set(head.legal("ennis")) & set(head.legal("gil"))
    assert both, "an action of the same id for each seat (turning in)"
    assert shared(head, "ennis", {"ennis"}, {"gil"}) == frozenset()
