"""What only the Redis store promises: its key layout, its stream ids and its append script."""

from __future__ import annotations

import socket
import uuid
from collections.abc import AsyncIterator
from typing import cast

import pytest
import redis.asyncio
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.crc import key_slot

from server.store import redis_catalog, redis_store
from server.store.base import (
    AppendResult,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix

pytestmark = pytest.mark.redis


@pytest.fixture
def prefix() -> str:
    return f"tt-test-{uuid.uuid4().hex}"


@pytest.fixture
async def raw(redis_url: str, prefix: str) -> AsyncIterator[redis.asyncio.Redis]:
    client = redis.asyncio.Redis.from_url(redis_url)
    yield client
    await client.aclose()
    await delete_prefix(redis_url, prefix)


@pytest.fixture
async def store(redis_url: str, prefix: str, raw: redis.asyncio.Redis) -> AsyncIterator[RedisStore]:
    store = RedisStore.from_url(redis_url, prefix=prefix)
    yield store
    await store.close()


async def keys_of(raw: redis.asyncio.Redis, prefix: str) -> set[bytes]:
    return {key async for key in raw.scan_iter(match=f"{prefix}:*")}


async def entry_ids(raw: redis.asyncio.Redis, stream: str) -> list[bytes]:
    entries = cast(list[tuple[bytes, dict[bytes, bytes]]], await raw.xrange(stream))
    return [entry_id for entry_id, _ in entries]


async def test_stream_entry_ids_are_the_versions(
    store: RedisStore, raw: redis.asyncio.Redis, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1)
    await store.append("c", 0, [b"a", b"b"])
    await store.append("c", 2, [b"c"])
    entries = await raw.xrange(f"{prefix}:{{c}}:events")
    assert entries == [(b"1-0", {b"e": b"a"}), (b"2-0", {b"e": b"b"}), (b"3-0", {b"e": b"c"})]
    assert await raw.hget(f"{prefix}:{{c}}:meta", "head") == b"3"


async def test_a_fork_writes_metadata_only(
    store: RedisStore, raw: redis.asyncio.Redis, prefix: str
) -> None:
    await store.create("parent", "gil_ennis", now_ms=1)
    await store.append("parent", 0, [b"p"] * 50)
    await store.fork("parent", 40, "child", now_ms=2)
    assert await raw.exists(f"{prefix}:{{child}}:events") == 0
    await store.append("child", 40, [b"c41"])
    assert await entry_ids(raw, f"{prefix}:{{child}}:events") == [b"41-0"]


async def test_every_key_of_a_campaign_shares_one_cluster_slot(
    store: RedisStore, raw: redis.asyncio.Redis, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1, attrs={"title": "t"})
    await store.append("c", 0, [b"a"], command_id="cmd")
    await store.save_snapshot("c", 1, b"s")
    keys = await keys_of(raw, prefix)
    campaign_keys = keys - {
        f"{prefix}:catalog".encode(),
        f"{prefix}:listed{{{prefix}:catalog}}".encode(),
        f"{prefix}:format".encode(),
    }
    assert {key.rsplit(b":", 1)[1] for key in campaign_keys} == {
        b"events",
        b"meta",
        b"commands",
        b"snapshots",
        b"snapshot_index",
    }
    assert {key_slot(key) for key in campaign_keys} == {key_slot(b"{c}")}


async def test_the_listed_set_shares_the_catalogs_slot_and_holds_listed_campaigns_only(
    store: RedisStore, raw: redis.asyncio.Redis, prefix: str
) -> None:
    await store.create("shown", "gil_ennis", now_ms=5)
    await store.create("hidden", "gil_ennis", now_ms=6, listed=False)
    await store.fork("shown", 0, "fork", now_ms=7)
    catalog, listed = f"{prefix}:catalog", f"{prefix}:listed{{{prefix}:catalog}}"
    assert key_slot(listed.encode()) == key_slot(catalog.encode())
    assert await raw.zrange(catalog, 0, -1, withscores=True) == [
        (b"shown", 5.0),
        (b"hidden", 6.0),
        (b"fork", 7.0),
    ]
    assert await raw.zrange(listed, 0, -1, withscores=True) == [(b"shown", 5.0), (b"fork", 7.0)]
    assert await raw.hget(f"{prefix}:{{shown}}:meta", "listed") == b"1"
    assert await raw.hget(f"{prefix}:{{hidden}}:meta", "listed") == b"0"


async def write_old_campaign(
    raw: redis.asyncio.Redis, prefix: str, campaign_id: str, created_ms: int, **attrs: str
) -> None:
    """A campaign as the store wrote it before it kept ``listed``: no field, no listed set."""
    meta = {"game": "gil_ennis", "head": "0", "created_ms": str(created_ms)}
    meta |= {"updated_ms": str(created_ms), "fork_version": "0"}
    meta |= {f"attr:{name}": value for name, value in attrs.items()}
    await raw.hset(f"{prefix}:{{{campaign_id}}}:meta", items=[w for kv in meta.items() for w in kv])
    await raw.zadd(f"{prefix}:catalog", {campaign_id: created_ms})


async def test_campaigns_stored_before_listed_was_kept_are_listed_unless_private(
    redis_url: str, prefix: str, raw: redis.asyncio.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_catalog, "BACKFILL_PAGE", 2)  # several pages of the catalog
    await write_old_campaign(raw, prefix, "old-a", 1)
    await write_old_campaign(raw, prefix, "old-private", 2, private="1")
    await write_old_campaign(raw, prefix, "old-b", 3, private="0", title="t")
    await write_old_campaign(raw, prefix, "old-c", 4)
    store = RedisStore.from_url(redis_url, prefix=prefix)
    try:
        assert (await store.info("old-a")).listed
        assert not (await store.info("old-private")).listed
        # A campaign made by this version before the first listed page: entered as it was made.
        await store.create("new-hidden", "gil_ennis", now_ms=5, listed=False)
        await store.create("new", "gil_ennis", now_ms=6)
        assert not await raw.exists(f"{prefix}:listed_backfilled")
        listed = await store.list_campaigns(listed_only=True)
        assert [info.id for info in listed] == ["new", "old-c", "old-b", "old-a"]
        assert await raw.get(f"{prefix}:listed_backfilled") == b"1"
        # The backfill is done once for the prefix: another process does not walk the catalog.
        await write_old_campaign(raw, prefix, "older-than-the-check", 7)
        other = RedisStore.from_url(redis_url, prefix=prefix)
        try:
            page = await other.list_campaigns(listed_only=True, limit=2)
            assert [info.id for info in page] == ["new", "old-c"]
        finally:
            await other.close()
    finally:
        await store.close()


async def test_long_ranges_are_read_in_pages(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_store, "_PAGE", 3)
    await store.create("c", "gil_ennis", now_ms=1)
    await store.append("c", 0, [f"e{n}".encode() for n in range(1, 12)])
    assert [e.version for e in await store.read("c")] == list(range(1, 12))
    assert [e.version for e in await store.read("c", 2, limit=7)] == list(range(3, 10))
    assert [e.data for e in await store.read("c", 8, 10)] == [b"e9", b"e10"]


async def test_a_stray_entry_past_the_head_stops_the_append_before_any_write(
    store: RedisStore, raw: redis.asyncio.Redis, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1)
    await store.append("c", 0, [b"a"])
    stream = f"{prefix}:{{c}}:events"
    await raw.xadd(stream, {"e": b"stray"}, id="3-0")
    with pytest.raises(StoreError, match="nothing was appended"):
        await store.append("c", 1, [b"b", b"c", b"d"], command_id="cmd")
    assert await entry_ids(raw, stream) == [b"1-0", b"3-0"]
    assert (await store.info("c")).head == 1
    assert await store.command_result("c", "cmd") is None


async def test_a_broken_key_fails_the_append_before_the_first_event(
    store: RedisStore, raw: redis.asyncio.Redis, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1)
    # A command record that cannot be read: the script must stop before any XADD.
    await raw.set(f"{prefix}:{{c}}:commands", b"not a hash")
    with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
        await store.append("c", 0, [b"a", b"b"], command_id="cmd")
    assert await raw.exists(f"{prefix}:{{c}}:events") == 0
    assert (await store.info("c")).head == 0

    await store.create("d", "gil_ennis", now_ms=1)
    await raw.set(f"{prefix}:{{d}}:events", b"not a stream")
    with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
        await store.append("d", 0, [b"a"], command_id="cmd")
    assert (await store.info("d")).head == 0
    assert await raw.hgetall(f"{prefix}:{{d}}:commands") == {}


async def test_two_store_processes_share_one_campaign(
    redis_url: str, prefix: str, raw: redis.asyncio.Redis
) -> None:
    # Separate clients stand for separate server processes: the truth is in Redis, not in either.
    first = RedisStore.from_url(redis_url, prefix=prefix)
    second = RedisStore.from_url(redis_url, prefix=prefix)
    try:
        await first.create("c", "gil_ennis", now_ms=1)
        assert await first.append("c", 0, [b"a"]) == AppendResult(1, 1)
        assert await second.append("c", 1, [b"b"]) == AppendResult(2, 2)
        assert await first.read("c", 1) == [StoredEvent(2, b"b")]
        assert [e.data for e in await first.read("c")] == [b"a", b"b"]
        with pytest.raises(VersionConflict):
            await first.append("c", 1, [b"stale"])
    finally:
        await first.close()
        await second.close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_an_unreachable_server_raises_store_unavailable() -> None:
    # No retries: the client's own back-off would only make the test slow, not different.
    client = redis.asyncio.Redis(
        host="127.0.0.1", port=closed_port(), socket_connect_timeout=1, retry=Retry(NoBackoff(), 0)
    )
    store = RedisStore(client, prefix="tt-test-unreachable")
    try:
        with pytest.raises(StoreUnavailable):
            await store.ping()
        with pytest.raises(StoreUnavailable):
            await store.info("c")
        with pytest.raises(StoreUnavailable):
            await store.append("c", 0, [b"a"])
        with pytest.raises(StoreUnavailable):
            await store.read("c")
        with pytest.raises(StoreUnavailable):
            await store.create("c", "gil_ennis", now_ms=1)
        with pytest.raises(StoreUnavailable):
            await store.list_campaigns()
    finally:
        await store.close()
