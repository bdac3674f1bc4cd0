"""A store whose history moves back under the cache (a Redis that lost its last writes): every
way a process learns of the store (a read, a commit, a feed notice, the periodic check) brings
its cached head back to the store's truth, and listeners are told to resynchronise."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import msgspec

from projections.runner import CatalogRunner
from server.app import CatalogSource
from server.campaigns.codec import Recorded
from server.campaigns.fresh import Counted
from server.campaigns.head import Head
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.campaigns.test_repository import assert_cache_is_the_stream


class Changes:
    def __init__(self) -> None:
        self.resets: list[int] = []
        self.versions: list[int] = []

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        self.versions.append(after.version)

    def reset(self, head: Head) -> None:
        self.resets.append(head.version)


def lose_last(store: MemoryStore, campaign_id: str, count: int) -> int:
    """Drop the newest ``count`` events behind every process's back; returns the new head."""
    campaign = store._campaigns[campaign_id]
    del campaign.events[len(campaign.events) - count :]
    head = campaign.info.head - count
    campaign.commands = {k: r for k, r in campaign.commands.items() if r.last <= head}
    campaign.info = msgspec.structs.replace(campaign.info, head=head)
    return head


async def setup(
    actions: int = 6,
) -> tuple[MemoryStore, CampaignService, CampaignService, str, Changes]:
    store = MemoryStore()
    here = CampaignService(store, fresh=Counted("h", 1), clock=lambda: 0)
    there = CampaignService(store, fresh=Counted("t", 2), clock=lambda: 0)
    cid = (await here.create("dice-race", options={"target": 900}, seed=5)).id
    version = 2
    for n in range(actions):
        version = (await here.act(cid, "player", "roll", expected_version=version)).last
        assert version == 3 + n
    changes = Changes()
    here.heads.listen(changes)
    return store, here, there, cid, changes


async def test_a_read_finds_the_store_behind_the_cache_and_rebuilds() -> None:
    store, here, _, cid, changes = await setup()
    assert lose_last(store, cid, 3) == 5
    assert (await here.head(cid)).version == 5
    assert changes.resets == [5]
    await assert_cache_is_the_stream(here, cid)


async def test_a_read_finds_new_events_at_versions_the_cache_holds() -> None:
    store, here, there, cid, changes = await setup()
    lose_last(store, cid, 3)
    # Another process goes on from the store's version 5 with other luck: versions 6 to 9
    # now hold events this cache never saw, and version 8 is not the cached version 8.
    version = 5
    for _ in range(4):
        version = (await there.act(cid, "player", "hold", expected_version=version)).last
    head = await here.head(cid)
    assert head.version == 9 and changes.resets == [9]
    await assert_cache_is_the_stream(here, cid)


async def test_a_commit_on_a_cache_ahead_of_the_store_is_refused_and_resets() -> None:
    store, here, _, cid, changes = await setup()
    lose_last(store, cid, 2)
    refused = await asyncio.gather(
        here.act(cid, "player", "hold", expected_version=8), return_exceptions=True
    )
    assert getattr(refused[0], "code", None) == "stale_version"
    assert changes.resets == [6]
    await assert_cache_is_the_stream(here, cid)
    assert (await here.act(cid, "player", "hold", expected_version=6)).last == 7


async def test_feed_notices_at_versions_the_cache_passed_bring_it_back() -> None:
    store, here, there, cid, changes = await setup()
    here.heads.pin(cid)
    lose_last(store, cid, 3)
    version = 5
    pending: list[Any] = []
    for _ in range(3):  # three appends from another process: versions 6, 7, 8 again
        acted = await there.act(cid, "player", "hold", expected_version=version)
        version = acted.last
        stored = await store.read(cid, acted.first - 1, acted.last)
        work = here.heads.changed(cid, stored)
        # None may be applied straight onto the cached history that the store no longer has.
        assert work is not None
        pending.append(work)
    await asyncio.gather(*pending)
    head = here.heads.cached(cid)
    assert head is not None and head.version == 8
    assert changes.resets and changes.resets[0] <= 8
    await assert_cache_is_the_stream(here, cid)


async def test_a_notice_that_follows_on_after_a_rollback_waits_for_the_check() -> None:
    store, here, there, cid, _ = await setup()
    here.heads.pin(cid)
    lose_last(store, cid, 1)  # the store is at 7, the cache at 8
    first = await there.act(cid, "player", "hold", expected_version=7)  # a new version 8
    second = await there.act(cid, "player", "hold", expected_version=8)  # version 9
    check = here.heads.changed(cid, await store.read(cid, 7, 8))
    assert check is not None  # version 8's hash is not the cached one
    # Version 9 follows the cached version on paper; it must not be applied to the cached 8.
    follow = here.heads.changed(cid, await store.read(cid, 8, 9))
    assert follow is not None
    await asyncio.gather(check, follow)
    assert (first.last, second.last) == (8, 9)
    await assert_cache_is_the_stream(here, cid)


async def test_the_periodic_check_of_watched_heads_finds_a_quiet_campaign_moved_back() -> None:
    store, here, _, cid, changes = await setup()
    here.heads.pin(cid)
    lose_last(store, cid, 2)
    await here.heads.catch_up_pinned()
    assert changes.resets == [6]
    await assert_cache_is_the_stream(here, cid)


async def test_catalog_entries_follow_the_store_back() -> None:
    store, here, _, cid, _ = await setup()
    runner = CatalogRunner(CatalogSource(here))
    await runner.run_once()
    assert runner.checkpoint(cid) == 8
    lose_last(store, cid, 3)
    await runner.run_once()
    assert runner.checkpoint(cid) == 5
    (entry,) = await runner.entries([await store.info(cid)])
    assert entry.version == 5
