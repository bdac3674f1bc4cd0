"""The Redis layout's format key: written with the first write to an empty prefix, given to a
prefix that earlier releases wrote, and a newer format refused, on a single Redis and a Cluster."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.store.base import StoreError, UnknownCampaign
from server.store.formats import NewerFormat
from server.store.redis_format import FORMAT
from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix

pytestmark = pytest.mark.redis


@pytest.fixture
async def prefix(any_redis_url: str) -> AsyncIterator[str]:
    prefix = f"tt-test-{uuid.uuid4().hex}"
    yield prefix
    await delete_prefix(any_redis_url, prefix)


@pytest.fixture
async def store(any_redis_url: str, prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore.from_url(any_redis_url, prefix=prefix)
    yield store
    await store.close()


@pytest.fixture
async def other(any_redis_url: str, prefix: str) -> AsyncIterator[RedisStore]:
    """A second server process on the same prefix."""
    store = RedisStore.from_url(any_redis_url, prefix=prefix)
    yield store
    await store.close()


async def format_key(store: RedisStore, prefix: str) -> Any:
    return await store.client.get(f"{prefix}:format")


async def test_an_empty_prefix_gets_the_key_with_its_first_write_not_before(
    store: RedisStore, prefix: str
) -> None:
    await store.open_format()
    assert await store.list_campaigns() == []
    with pytest.raises(UnknownCampaign):
        await store.info("nobody")
    assert await format_key(store, prefix) is None
    await store.create("c", "gil_ennis", now_ms=1, events=[b"e1"])
    assert await format_key(store, prefix) == str(FORMAT).encode()


async def test_a_prefix_that_earlier_releases_wrote_is_format_1_and_gets_the_key(
    store: RedisStore, other: RedisStore, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1, events=[b"e1"])
    await store.client.delete(f"{prefix}:format")  # as a release before the key left it
    await other.open_format()
    assert await format_key(other, prefix) == b"1"
    assert [info.id for info in await other.list_campaigns()] == ["c"]
    await other.append("c", 1, [b"e2"])
    assert len(await other.read("c")) == 2


async def test_a_newer_format_is_refused_before_anything_is_read_or_written(
    store: RedisStore, other: RedisStore, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1, events=[b"e1"])
    await store.client.set(f"{prefix}:format", str(FORMAT + 1))  # a newer release took it over
    with pytest.raises(NewerFormat) as refused:
        await other.open_format()
    words = str(refused.value)
    assert f"layout format {FORMAT + 1}" in words and f"knows formats up to {FORMAT}" in words
    assert f"{prefix}:format" in words and "Run the newer release" in words
    for attempt in (
        other.info("c"),
        other.read("c"),
        other.list_campaigns(),
        other.append("c", 1, [b"e2"]),
        other.create("d", "gil_ennis", now_ms=2, events=[b"d1"]),
    ):
        with pytest.raises(NewerFormat):
            await attempt
    assert await store.client.exists(f"{prefix}:{{d}}:meta") == 0
    assert await store.client.xlen(f"{prefix}:{{c}}:events") == 1
    assert await format_key(store, prefix) == str(FORMAT + 1).encode()


async def test_readiness_fails_once_a_newer_release_took_the_prefix_over(
    store: RedisStore, prefix: str
) -> None:
    await store.create("c", "gil_ennis", now_ms=1)
    await store.ping()
    await store.client.set(f"{prefix}:format", str(FORMAT + 1))
    with pytest.raises(NewerFormat, match="newer release"):
        await store.ping()


async def test_a_key_that_holds_no_format_is_refused_in_words(
    store: RedisStore, prefix: str
) -> None:
    await store.client.set(f"{prefix}:format", "layout-two")
    with pytest.raises(StoreError, match="no format of the store's layout"):
        await store.open_format()
