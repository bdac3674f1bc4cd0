"""A backfill over the Redis catalog that runs once per key prefix.

Indexes that a newer server keeps (the listed campaigns' set, the fork index) are missing the
campaigns stored before it kept them. The first read that needs such an index walks the catalog a
page at a time and enters what is missing, then marks the prefix done in a key of its own, so no
process walks it again (running it twice does no harm: entering is idempotent).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import redis.asyncio
from redis.asyncio.cluster import RedisCluster

Page = Callable[[int], Awaitable[int]]
"""Backfills the page of the catalog starting at an offset; returns how many entries it held."""


class OnceForPrefix:
    def __init__(
        self,
        client: redis.asyncio.Redis | RedisCluster,
        done_key: str,
        pooled: Callable[[], contextlib.AbstractAsyncContextManager[None]],
    ) -> None:
        self._client = client
        self._done_key = done_key
        self._pooled = pooled
        self._done = False
        self._running = asyncio.Lock()

    async def ensure(self, page: Page, page_size: int) -> None:
        """Run ``page`` over the catalog, ``page_size`` entries at a time, unless it was done
        for this prefix already (by this process or any other)."""
        if self._done:
            return
        async with self._running:
            if self._done:
                return
            async with self._pooled():
                if not await self._client.exists(self._done_key):
                    start = 0
                    while await page(start) == page_size:
                        start += page_size
                    await self._client.set(self._done_key, b"1")
            self._done = True
