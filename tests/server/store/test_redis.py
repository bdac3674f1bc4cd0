from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix
from tests.server.store.conformance import StoreConformance

pytestmark = pytest.mark.redis


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    prefix = f"tt-test-{uuid.uuid4().hex}"
    store = RedisStore.from_url(redis_url, prefix=prefix)
    yield store
    await store.close()
    await delete_prefix(redis_url, prefix)


class TestRedisStore(StoreConformance):
    pass
