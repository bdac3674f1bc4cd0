"""The timeline cache: the same lines as a replay of the whole stream, extended from where it
stopped, built a page at a time with the event loop free between pages, and rebuilt when the
store's history moved back."""

from __future__ import annotations

import asyncio

from projections.timeline import timeline
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.campaigns.timeline_cache import Timelines
from server.store.memory import MemoryStore
from tests.server.campaigns.test_repository_lost_writes import lose_last


async def grown(turns: int) -> tuple[MemoryStore, CampaignService, str, int]:
    store = MemoryStore()
    service = CampaignService(store, fresh=Counted("tl", 1), clock=lambda: 0, snapshot_every=97)
    cid = (await service.create("dice-race", seed=3, options={"target": 1000})).id
    version = 2
    for turn in range(turns):
        if turn % 50 == 49:  # rewinds in the stream too
            version = (await service.rewind(cid, version - 10, expected_version=version)).last
        action = "roll" if turn % 10 == 1 else "hold"
        version = (await service.act(cid, "player", action, expected_version=version)).last
    return store, service, cid, version


async def whole(service: CampaignService, cid: str) -> list[object]:
    return list(timeline(await service.game_of(cid), await service.events(cid)))


async def test_the_cached_timeline_is_the_replayed_one_and_extends() -> None:
    _, service, cid, version = await grown(300)
    timelines = Timelines(service.heads, page=64)
    head, lines = await timelines.lines(cid)
    assert head == version and lines == await whole(service, cid)
    for _ in range(5):
        version = (await service.act(cid, "player", "roll", expected_version=version)).last
    head, lines = await timelines.lines(cid)
    assert head == version and lines == await whole(service, cid)
    _, page = await timelines.lines(cid, after=100, limit=7)
    assert page == [each for each in lines if each.version > 100][:7]


async def test_a_long_build_leaves_the_event_loop_free_between_pages() -> None:
    _, service, cid, _ = await grown(1200)
    timelines = Timelines(service.heads, page=100)
    ticks = 0
    building = asyncio.gather(*(timelines.lines(cid) for _ in range(4)))  # one build for four
    while not building.done():
        ticks += 1
        await asyncio.sleep(0)  # one turn of the loop, as another request would take
    results = await building
    assert all(result == results[0] for result in results)
    assert ticks >= 10, "the build held the loop"


async def test_a_timeline_follows_the_store_back() -> None:
    store, service, cid, version = await grown(120)
    timelines = Timelines(service.heads, page=32)
    await timelines.lines(cid)
    lose_last(store, cid, 5)
    head, lines = await timelines.lines(cid)
    assert head == version - 5 and lines == await whole(service, cid)
    assert all(each.version <= head for each in lines)
