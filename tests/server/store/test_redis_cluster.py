"""The Redis store on a Redis Cluster: the conformance suite, and what a cluster adds (commands on
each campaign's own node, slots that move while the store works)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from itertools import count

import pytest
from redis.crc import key_slot

from server.store.base import AppendResult, StoredEvent, StoreUnavailable, UnknownCampaign
from server.store.redis import RedisStore
from tests.redis_support import OwnCluster, delete_prefix, own_cluster
from tests.server.store.conformance import StoreConformance
from tests.server.store.helpers import LONG_WAIT_S, Heard

pytestmark = pytest.mark.redis


@pytest.fixture
async def store(redis_cluster_url: str) -> AsyncIterator[RedisStore]:
    prefix = f"tt-test-{uuid.uuid4().hex}"
    store = RedisStore.from_url(redis_cluster_url, prefix=prefix)
    yield store
    await store.close()
    await delete_prefix(redis_cluster_url, prefix)


class TestRedisClusterStore(StoreConformance):
    pass


# -- slots that move ---------------------------------------------------------------------------
# These change the cluster's layout, so they run on a private cluster of their own.


@pytest.fixture(scope="module")
def moving() -> Iterator[OwnCluster]:
    with own_cluster() as cluster:
        yield cluster


@pytest.fixture
async def two(moving: OwnCluster) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    """Two stores on one key prefix: two processes."""
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    here = RedisStore.from_url(moving.url, prefix=prefix)
    there = RedisStore.from_url(moving.url, prefix=prefix)
    yield here, there
    await here.close()
    await there.close()
    await delete_prefix(moving.url, prefix)


def elsewhere(cluster: OwnCluster, key: str) -> tuple[int, int]:
    """(the slot of ``key``, the port of a master that does not serve it)."""
    owner = cluster.owner(key)
    return key_slot(key.encode()), next(port for port in cluster.ports if port != owner)


def same_slot_as(campaign_id: str) -> str:
    """Another campaign id whose keys hash to the same slot."""
    slot = key_slot(campaign_id.encode())
    return next(
        f"{campaign_id}-{n}" for n in count() if key_slot(f"{campaign_id}-{n}".encode()) == slot
    )


async def test_after_a_slot_moved_commands_follow_it_to_its_new_node(
    moving: OwnCluster, two: tuple[RedisStore, RedisStore]
) -> None:
    here, there = two
    await here.create("c", "gil_ennis", now_ms=1)
    await here.append("c", 0, [b"a"])
    assert await there.read("c") == [StoredEvent(1, b"a")]  # both know the old layout
    slot, target = elsewhere(moving, f"{here._prefix}:{{c}}:meta")
    await asyncio.to_thread(moving.move, slot, target)
    # The first command of each store meets MOVED, reads the slot map again and follows it.
    assert await there.append("c", 1, [b"b"], command_id="x") == AppendResult(2, 2)
    assert await here.append("c", 2, [b"c"]) == AppendResult(3, 3)
    assert await here.read("c") == [
        StoredEvent(1, b"a"),
        StoredEvent(2, b"b"),
        StoredEvent(3, b"c"),
    ]
    assert (await there.info("c")).head == 3
    assert await here.command_result("c", "x") == AppendResult(2, 2)


async def test_a_slot_half_way_through_a_move_answers_through_ask_or_says_unavailable(
    moving: OwnCluster, two: tuple[RedisStore, RedisStore]
) -> None:
    here, _ = two
    await here.create("c", "gil_ennis", now_ms=1)
    await here.append("c", 0, [b"a"])
    slot, target = elsewhere(moving, f"{here._prefix}:{{c}}:meta")
    source = await asyncio.to_thread(moving.begin_move, slot, target)
    try:
        # Keys still on the old node are served there; one not there (a campaign never made,
        # in the same slot) is asked of the new node after ASKING.
        assert (await here.info("c")).head == 1
        with pytest.raises(UnknownCampaign):
            await here.info(same_slot_as("c"))
        # A script whose keys are not all on one side cannot run until the move ends: the
        # store tries once more, then says so instead of failing some other way.
        with pytest.raises(StoreUnavailable):
            await here.append("c", 1, [b"b"])
    finally:
        await asyncio.to_thread(moving.finish_move, slot, source, target)
    assert await here.append("c", 1, [b"b"]) == AppendResult(2, 2)
    assert [e.version for e in await here.read("c")] == [1, 2]


async def test_the_feed_follows_a_watched_campaign_to_its_new_node_and_resumes(
    moving: OwnCluster, two: tuple[RedisStore, RedisStore]
) -> None:
    here, there = two
    feed, heard = here.changes(), Heard()
    following = asyncio.create_task(feed.follow(heard.deliver, heard.on_resume))
    try:
        await here.create("c", "gil_ennis", now_ms=1)
        await feed.watch("c")
        await there.append("c", 0, [b"before"])
        await heard.until(lambda: heard.versions("c") == [1])
        slot, target = elsewhere(moving, f"{here._prefix}:{{c}}:changes")
        await asyncio.to_thread(moving.move, slot, target)
        # The old node drops the subscription; the feed reads the map, subscribes on the new
        # node and says it resumed (the reader then catches up from the stream).
        await heard.until(lambda: heard.resumed == 1, LONG_WAIT_S)
        await there.append("c", 1, [b"after"])
        await heard.until(lambda: heard.versions("c") == [1, 2])
    finally:
        following.cancel()
        await asyncio.gather(following, return_exceptions=True)
        await feed.close()
