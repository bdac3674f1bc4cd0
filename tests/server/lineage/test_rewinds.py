"""The rewinds a lineage knows of: found once per campaign, extended from where they stopped
(by this process's appends at no cost, by other processes' with a read of what they added), and
the same as a scan of the whole stream."""

from __future__ import annotations

from domain.core.events import Rewound
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.lineage.rewinds import Rewind, Rewinds
from server.store.base import StoredEvent
from server.store.memory import MemoryStore
from tests.server.campaigns.test_repository_lost_writes import lose_last


class CountingStore(MemoryStore):
    """A memory store that counts the events read from it."""

    def __init__(self) -> None:
        super().__init__()
        self.events_read = 0

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        found = await super().read(campaign_id, after, until, limit)
        self.events_read += len(found)
        return found


async def play(service: CampaignService, cid: str, version: int, turns: int) -> int:
    """``turns`` holds, with a rewind ten versions back before every 50th."""
    for turn in range(turns):
        if turn % 50 == 49:
            version = (
                await service.rewind(cid, version - 10, expected_version=version, seat="player")
            ).last
        version = (await service.act(cid, "player", "hold", expected_version=version)).last
    return version


async def scanned(service: CampaignService, cid: str) -> tuple[tuple[int, int], ...]:
    """Every rewind of the whole stream, read from the store afresh."""
    return tuple(
        (r.version, r.event.to) for r in await service.events(cid) if type(r.event) is Rewound
    )


def places(rewinds: tuple[Rewind, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r.at, r.to) for r in rewinds)


async def test_a_long_stream_is_read_once_then_extended() -> None:
    store = CountingStore()
    here = CampaignService(store, fresh=Counted("h", 1), clock=lambda: 5)
    there = CampaignService(store, fresh=Counted("t", 2), clock=lambda: 5)
    cid = (await here.create("dice-race", seed=3, options={"target": 1000})).id
    version = await play(here, cid, 2, 2_000)
    rewinds = Rewinds(here.heads, page=300)
    truth = await scanned(here, cid)
    assert len(truth) == 40

    store.events_read = 0
    found = await rewinds.of(await store.info(cid))
    assert places(found) == truth and store.events_read == version
    assert {(r.by, r.at_ms) for r in found} == {("player", 5)}

    store.events_read = 0
    assert places(await rewinds.of(await store.info(cid))) == truth
    assert store.events_read == 0, "what was found is kept"

    # This process's appends extend what is kept as they are made: nothing is read.
    version = await play(here, cid, version, 60)
    truth = await scanned(here, cid)
    store.events_read = 0
    assert places(await rewinds.of(await store.info(cid))) == truth
    assert store.events_read == 0

    # Another process's: only what it added is read (and the last event kept, to check it).
    await play(there, cid, version, 7)
    truth = await scanned(here, cid)
    store.events_read = 0
    assert places(await rewinds.of(await store.info(cid))) == truth
    assert store.events_read == 7 + 1


async def test_rewinds_follow_a_store_that_lost_its_last_writes() -> None:
    store = CountingStore()
    service = CampaignService(store, fresh=Counted("h", 1), clock=lambda: 5)
    cid = (await service.create("dice-race", seed=3, options={"target": 1000})).id
    await play(service, cid, 2, 100)  # rewinds at 52 and 103, then a hold at 104
    rewinds = Rewinds(service.heads)
    assert [r.at for r in await rewinds.of(await store.info(cid))] == [52, 103]
    lose_last(store, cid, 2)
    assert [r.at for r in await rewinds.of(await store.info(cid))] == [52]
