"""The Redis fork index: forks stored before it existed are entered once, from the catalog, on a
single Redis and on a cluster."""

from __future__ import annotations

import uuid

import pytest

from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix
from tests.server.store.helpers import campaign_with

pytestmark = pytest.mark.redis


async def test_forks_stored_before_the_index_are_entered_once(any_redis_url: str) -> None:
    prefix = f"tt-test-{uuid.uuid4().hex}"
    before = RedisStore.from_url(any_redis_url, prefix=prefix)
    try:
        await campaign_with(before, "p", 5)
        for at, child in [(4, "b"), (2, "a"), (4, "c")]:
            await before.fork("p", at, child, now_ms=2_000)
        await before.fork("a", 1, "aa", now_ms=3_000)
        # As a server of the older version left them: no index, and nothing backfilled.
        await before.client.delete(f"{prefix}:{{p}}:forks", f"{prefix}:{{a}}:forks")
        await before.client.delete(f"{prefix}:forks_backfilled")
        after = RedisStore.from_url(any_redis_url, prefix=prefix)
        try:
            assert [info.id for info in await after.forks_of("p")] == ["a", "b", "c"]
            assert [info.id for info in await after.forks_of("a")] == ["aa"]
            assert await after.client.get(f"{prefix}:forks_backfilled") == b"1"
        finally:
            await after.close()
    finally:
        await before.close()
        await delete_prefix(any_redis_url, prefix)
