"""The Redis catalog is written just after a campaign: a campaign left out of it (its process
killed in between) is put back by ``catalogue``, on a single Redis and on a cluster."""

from __future__ import annotations

import uuid

import pytest

from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix

pytestmark = pytest.mark.redis


async def test_a_campaign_left_out_of_the_catalog_is_put_back(any_redis_url: str) -> None:
    prefix = f"tt-test-{uuid.uuid4().hex}"
    store = RedisStore.from_url(any_redis_url, prefix=prefix)
    try:
        await store.create("older", "gil_ennis", now_ms=1)
        await store.create("lost", "gil_ennis", now_ms=2)
        # As a process killed between the campaign and its catalog entry left it.
        catalog = f"{prefix}:catalog"
        await store.client.zrem(catalog, "lost")
        await store.client.zrem(f"{prefix}:listed{{{catalog}}}", "lost")
        assert [info.id for info in await store.list_campaigns()] == ["older"]
        await store.catalogue("lost")
        assert [info.id for info in await store.list_campaigns()] == ["lost", "older"]
        listed = await store.list_campaigns(listed_only=True)
        assert [info.id for info in listed] == ["lost", "older"]
    finally:
        await store.close()
        await delete_prefix(any_redis_url, prefix)
