"""The Redis store on a Redis Cluster: the conformance suite, and what a cluster adds (commands on
each campaign's own node, slots that move while the store works)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from itertools import count
from typing import TypeVar

import pytest
import redis.asyncio
from redis.crc import key_slot

from server.store.base import AppendResult, StoredEvent, StoreUnavailable, UnknownCampaign
from server.store.redis_store import RedisStore
from tests.redis_cluster_support import OwnCluster, own_cluster
from tests.redis_support import delete_prefix
from tests.server.store.conformance import StoreConformance
from tests.server.store.helpers import LONG_WAIT_S, Heard
from tests.support.polling import Deadline

pytestmark = pytest.mark.redis

T = TypeVar("T")


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
    return key_slot(key.encode()), next(port for port in cluster.masters if port != owner)


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


# -- a primary that dies ----------------------------------------------------------------------


async def eventually(call: Callable[[], Awaitable[T]]) -> T:
    """``call()`` as a client would make it: again while the store says it is unavailable (a
    failover under way), until it answers."""
    deadline = Deadline("the store to follow the failover", LONG_WAIT_S)
    while True:
        try:
            return await call()
        except StoreUnavailable as error:
            deadline.check(error)
            await asyncio.sleep(0.1)  # a client's pause before it tries again


@pytest.mark.slow
async def test_after_a_primary_fails_over_the_store_and_the_feed_follow_its_replica() -> None:
    with own_cluster(replicas=1) as cluster:
        prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
        # A campaign away from the node the URL names (that one stays up for the clean-up).
        campaign = next(
            f"c{n}" for n in count() if cluster.owner(f"{prefix}:{{c{n}}}:meta") != cluster.ports[0]
        )
        here = RedisStore.from_url(cluster.url, prefix=prefix)
        there = RedisStore.from_url(cluster.url, prefix=prefix)
        feed, heard = here.changes(), Heard()
        following = asyncio.create_task(feed.follow(heard.deliver, heard.on_resume))
        try:
            await here.create(campaign, "gil_ennis", now_ms=1)
            await feed.watch(campaign)
            await there.append(campaign, 0, [b"before"])
            await heard.until(lambda: heard.versions(campaign) == [1])
            primary = cluster.owner(f"{prefix}:{{{campaign}}}:meta")
            replica = cluster.replica_of(primary)
            # Replication is asynchronous: let the replica have everything before the crash.
            admin = redis.asyncio.Redis.from_url(cluster.node_url(primary))
            try:
                assert await admin.execute_command("WAIT", 1, 5000) == 1
            finally:
                await admin.aclose()

            await asyncio.to_thread(cluster.kill, primary)
            await asyncio.to_thread(
                cluster.wait_failed_over, primary, time.monotonic() + LONG_WAIT_S
            )
            assert cluster.owner(f"{prefix}:{{{campaign}}}:meta") == replica

            # The first command to the dead node fails (unavailable) and has the slot map read
            # again; the ones after it go to the replica, which has every acknowledged append.
            await eventually(lambda: there.append(campaign, 1, [b"after"], command_id="a"))
            assert await eventually(lambda: here.read(campaign)) == [
                StoredEvent(1, b"before"),
                StoredEvent(2, b"after"),
            ]
            # The feed lost its connection to the dead primary, read the map again and
            # subscribed on the new one: it said it resumed, and hears what follows.
            await heard.until(lambda: heard.resumed >= 1, LONG_WAIT_S)
            await there.append(campaign, 2, [b"heard"])
            await heard.until(lambda: 3 in heard.versions(campaign), LONG_WAIT_S)
        finally:
            following.cancel()
            await asyncio.gather(following, return_exceptions=True)
            await feed.close()
            await here.close()
            await there.close()
