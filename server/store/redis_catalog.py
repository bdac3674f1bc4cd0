"""The Redis store's catalog: every campaign, and the listed ones alone, newest first.

``{prefix}:catalog`` is a sorted set of campaign ids scored by created_ms;
``{prefix}:listed{{prefix}:catalog}`` holds the listed campaigns only, scored alike. Its hash tag
is the catalog's key, so on a Redis Cluster both sets share the catalog's slot and one script
(``redis_catalog.lua``) enters a campaign in both or neither.

Campaigns stored before the meta hash kept ``listed`` are not in the listed set. The first
``listed_only`` page a process asks for fills it in from the catalog, once for the key prefix:
``{prefix}:listed_backfilled`` says it was done (running it twice does no harm).
"""

from __future__ import annotations

import contextlib
import importlib.resources
from collections.abc import Callable
from typing import cast

import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from server.store.base import CampaignInfo
from server.store.redis_backfill import OnceForPrefix
from server.store.redis_records import parse_info

_CATALOG_LUA = importlib.resources.files("server.store").joinpath("redis_catalog.lua").read_text()

BACKFILL_PAGE = 1_000
"""Catalog entries per step of filling in the listed set."""


class Catalog:
    def __init__(
        self,
        client: redis.asyncio.Redis | RedisCluster,
        prefix: str,
        meta_key: Callable[[str], str],
        pooled: Callable[[], contextlib.AbstractAsyncContextManager[None]],
    ) -> None:
        """``meta_key(id)`` names a campaign's meta hash; ``pooled()`` bounds a step on the
        pool and maps Redis's failures to the store's."""
        self._client = client
        self._meta_key = meta_key
        self._pooled = pooled
        self._all = f"{prefix}:catalog"
        self._listed = f"{prefix}:listed{{{self._all}}}"
        self._backfill = OnceForPrefix(client, f"{prefix}:listed_backfilled", pooled)
        self._enter = client.register_script(_CATALOG_LUA)

    async def enter(self, info: CampaignInfo) -> None:
        """Enter a campaign in the catalog and, if listed, in the listed set, in one step. The
        caller holds the pool."""
        await self._enter(
            keys=[self._all, self._listed],
            args=[info.id, info.created_ms, "1" if info.listed else "0"],
        )

    async def page(self, offset: int, limit: int, *, listed_only: bool) -> list[CampaignInfo]:
        """Newest first; a campaign whose metadata is missing (still being created) is left out."""
        if limit <= 0:
            return []
        if listed_only:
            await self._backfill.ensure(self._backfill_page, BACKFILL_PAGE)
        catalog = self._listed if listed_only else self._all
        async with self._pooled():
            # Equal scores come in descending id order, as the other stores list them.
            ids = await self._client.zrevrange(catalog, offset, offset + limit - 1)
            return await self._infos(cast(list[bytes], ids))

    async def _infos(self, ids: list[bytes]) -> list[CampaignInfo]:
        """The metadata of ``ids``, in their order, leaving out any whose meta hash is missing."""
        pipe = self._client.pipeline(transaction=False)
        for campaign_id in ids:
            pipe.hgetall(self._meta_key(campaign_id.decode()))
        metas = await pipe.execute()
        return [
            parse_info(campaign_id.decode(), fields)
            for campaign_id, fields in zip(ids, metas, strict=True)
            if fields
        ]

    async def _backfill_page(self, start: int) -> int:
        """Enter the listed ones of a page of the catalog; returns the page's length."""
        page = cast(
            list[tuple[bytes, float]],
            await self._client.zrange(self._all, start, start + BACKFILL_PAGE - 1, withscores=True),
        )
        infos = await self._infos([campaign_id for campaign_id, _ in page])
        listed = {info.id: info.created_ms for info in infos if info.listed}
        if listed:
            await self._client.zadd(self._listed, listed)
        return len(page)
