"""The Redis change feed on the real Redis, single node and cluster: two stores on one key prefix
stand for two processes."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio

from server.store.base import StoredEvent
from server.store.feed import ChangeFeed
from server.store.redis_cluster import primary_urls
from server.store.redis_feed import RECONNECT_BACKOFF, decode_notice, encode_notice
from server.store.redis_store import RedisStore
from tests.redis_cluster_support import node_serving
from tests.redis_support import delete_prefix
from tests.server.store.helpers import Heard
from tests.support.polling import Deadline

pytestmark = pytest.mark.redis

WAIT_S = 30.0


@pytest.fixture(params=["single", "cluster"])
def feed_url(request: pytest.FixtureRequest) -> str:
    """Every test here runs on a single Redis and on a Redis Cluster."""
    fixture = "redis_url" if request.param == "single" else "redis_cluster_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture
async def pair(feed_url: str) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    redis_url = feed_url
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    here = RedisStore.from_url(redis_url, prefix=prefix)
    there = RedisStore.from_url(redis_url, prefix=prefix)
    yield here, there
    await here.close()
    await there.close()
    await delete_prefix(redis_url, prefix)


@pytest.fixture
async def following(
    pair: tuple[RedisStore, RedisStore],
) -> AsyncIterator[tuple[ChangeFeed, Heard]]:
    here, _ = pair
    feed, heard = here.changes(), Heard()
    task = asyncio.create_task(feed.follow(heard.deliver, heard.on_resume, heard.shared))
    yield feed, heard
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await feed.close()


def test_a_notice_carries_its_origin_and_payloads_exactly() -> None:
    payloads = [b"", b"a\nb c", bytes(range(256))]
    origin, events = decode_notice(encode_notice("p1", 7, payloads))
    assert origin == "p1"
    assert events == [
        StoredEvent(7, b""),
        StoredEvent(8, b"a\nb c"),
        StoredEvent(9, bytes(range(256))),
    ]


def test_reconnection_pauses_start_short_double_and_stay_under_two_seconds() -> None:
    for _ in range(100):
        pauses = [RECONNECT_BACKOFF.compute(failures) for failures in range(1, 12)]
        assert 0.05 <= pauses[0] <= 0.1
        assert all(0.05 <= pause <= 2.0 for pause in pauses)
        assert pauses[-1] >= 1.0


async def test_another_process_appends_arrive_with_their_payloads(
    pair: tuple[RedisStore, RedisStore], following: tuple[ChangeFeed, Heard]
) -> None:
    here, there = pair
    feed, heard = following
    await here.create("c", "gil_ennis", now_ms=1)
    await feed.watch("c")
    await there.append("c", 0, [b"a", b"\x00b"])
    await heard.until(lambda: heard.versions("c") == [1, 2])
    assert heard.changes == [("c", [StoredEvent(1, b"a"), StoredEvent(2, b"\x00b")])]


async def test_a_process_does_not_hear_its_own_appends_nor_unwatched_campaigns(
    pair: tuple[RedisStore, RedisStore], following: tuple[ChangeFeed, Heard]
) -> None:
    here, there = pair
    feed, heard = following
    for campaign in ("c", "d"):
        await here.create(campaign, "gil_ennis", now_ms=1)
    await feed.watch("c")
    await here.append("c", 0, [b"mine"])
    await there.append("d", 0, [b"elsewhere"])
    await there.append("c", 1, [b"theirs"])
    await heard.until(lambda: heard.versions("c") == [2])
    assert heard.changes == [("c", [StoredEvent(2, b"theirs")])]
    await feed.unwatch("c")
    await there.append("c", 2, [b"unheard"])
    await feed.watch("d")
    await there.append("d", 1, [b"heard"])
    await heard.until(lambda: heard.versions("d") == [2])
    assert heard.versions("c") == [2]


async def test_what_another_process_shares_is_heard_with_its_origin_and_its_ask(
    pair: tuple[RedisStore, RedisStore], following: tuple[ChangeFeed, Heard]
) -> None:
    here, there = pair
    feed, heard = following
    elsewhere = there.changes()  # sharing needs no follow: one publish
    try:
        for campaign in ("c", "d"):
            await here.create(campaign, "gil_ennis", now_ms=1)
        await feed.watch("c")
        await feed.share("c", b"my own", ask=True)
        await elsewhere.share("d", b"unwatched here", ask=False)
        await elsewhere.share("c", b"\x00 bytes\nand a line", ask=True)
        await elsewhere.share("c", b"", ask=False)
        await heard.until(lambda: len(heard.shares) == 2)
        origins = {origin for _, origin, _, _ in heard.shares}
        assert len(origins) == 1, "one other process shared; its own share is not heard here"
        assert [(c, data, ask) for c, _, data, ask in heard.shares] == [
            ("c", b"\x00 bytes\nand a line", True),
            ("c", b"", False),
        ]
        assert heard.changes == [], "a share is not an append"
    finally:
        await elsewhere.close()


async def feed_connections(url: str, name: str) -> dict[str, list[dict[str, str]]]:
    """The connections named ``name`` on each node (one node for a single Redis)."""
    found = {}
    for node in primary_urls(url):
        client = redis.asyncio.Redis.from_url(node, decode_responses=True)
        try:
            found[node] = [c for c in await client.client_list() if c.get("name") == name]
        finally:
            await client.aclose()
    return found


async def test_connections_do_not_grow_with_the_campaigns_watched(
    feed_url: str, pair: tuple[RedisStore, RedisStore], following: tuple[ChangeFeed, Heard]
) -> None:
    here, there = pair
    feed, heard = following
    ids = [f"w{n}" for n in range(300)]
    for campaign in ids:
        await here.create(campaign, "gil_ennis", now_ms=1)
    await asyncio.gather(*(feed.watch(campaign) for campaign in ids))
    name = f"tabletale:{os.getpid()}:feed"
    # One per shard: a single Redis is one, a cluster has one per primary.
    per_node = await feed_connections(feed_url, name)
    assert {len(connections) for connections in per_node.values()} == {1}
    for campaign in ids[::50]:
        await there.append(campaign, 0, [b"x"])
    await heard.until(lambda: len(heard.changes) == len(ids[::50]))


async def test_after_losing_its_connection_the_feed_resubscribes_and_says_so(
    feed_url: str, pair: tuple[RedisStore, RedisStore], following: tuple[ChangeFeed, Heard]
) -> None:
    here, there = pair
    feed, heard = following
    await here.create("c", "gil_ennis", now_ms=1)
    await feed.watch("c")
    name = f"tabletale:{os.getpid()}:feed"
    node = node_serving(feed_url, f"{here._prefix}:{{c}}:changes")
    (connection,) = (await feed_connections(feed_url, name))[node]
    admin = redis.asyncio.Redis.from_url(node)
    try:
        await admin.client_kill_filter(_id=connection["id"])
    finally:
        await admin.aclose()
    await heard.until(lambda: heard.resumed == 1)
    await there.append("c", 0, [b"after"])
    await heard.until(lambda: heard.versions("c") == [1])


async def test_an_append_only_the_appending_process_watches_is_not_published(
    feed_url: str, pair: tuple[RedisStore, RedisStore]
) -> None:
    here, there = pair
    here_feed, there_feed = here.changes(), there.changes()
    await here.create("c", "gil_ennis", now_ms=1)
    prefix = here._prefix
    node = node_serving(feed_url, f"{prefix}:{{c}}:changes")
    listener = redis.asyncio.Redis.from_url(node).pubsub()
    try:
        await listener.ssubscribe(f"{prefix}:{{c}}:changes")
        await here_feed.watch("c")  # only this process watches: its append is not announced
        await here.append("c", 0, [b"alone"])
        await there_feed.watch("c")  # now another process watches too
        await here.append("c", 1, [b"shared"])
        deadline = Deadline("the second append to be announced", WAIT_S)
        message = None
        while message is None or message["type"] != "smessage":
            deadline.check(message)
            message = await listener.get_message(timeout=WAIT_S)
        assert decode_notice(message["data"])[1] == [StoredEvent(2, b"shared")]
        await there_feed.unwatch("c")
        await here_feed.unwatch("c")
        assert await here.client.smembers(f"{prefix}:{{c}}:watchers") == set()
    finally:
        await listener.aclose()
        await here_feed.close()
        await there_feed.close()
