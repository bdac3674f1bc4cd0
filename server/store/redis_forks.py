"""The Redis store's index of each campaign's forks.

``{prefix}:{<parent>}:forks`` is a sorted set on the parent's slot whose members, all scored 0,
are ``"<fork_version, 16 digits>:<child id>"``: their byte order is the order of fork version
then id, so a page is one ``ZRANGE … BYLEX`` from the previous page's last member.

A fork's own keys live on the child's slot and its entry on the parent's, and on a Redis
Cluster no script writes two slots. So ``fork`` enters the child here *before* it creates it,
and a page keeps only the entries whose child's metadata names this parent at this version: an
entry whose creation failed, or never finished, is never listed, and a fork that exists is
always in the index. Creation that fails because the id is taken takes its entry out again.

Forks stored before the index existed are not in it. The first page a process asks for enters
them, once for the key prefix, from the catalog (``{prefix}:forks_backfilled`` says it was done;
doing it twice does no harm). As with the listed set (:mod:`server.store.redis_catalog`), stop
servers of the older version before starting new ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import cast

import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from server.store.base import CampaignInfo, ForkKey
from server.store.redis_backfill import OnceForPrefix
from server.store.redis_records import Fields, parse_info

_DIGITS = 16  # 2**53 - 1, the largest version a client may name, has 16 digits
BACKFILL_PAGE = 1_000
"""Catalog entries per step of entering the forks stored before the index."""


def member(key: ForkKey) -> str:
    fork_version, child = key
    return f"{fork_version:0{_DIGITS}d}:{child}"


def _child(entry: bytes) -> ForkKey:
    digits, _, child = entry.decode().partition(":")
    return int(digits), child


class ForkIndex:
    def __init__(
        self,
        client: redis.asyncio.Redis | RedisCluster,
        prefix: str,
        key: Callable[[str, str], str],
        pooled: Callable[[], contextlib.AbstractAsyncContextManager[None]],
    ) -> None:
        """``key(id, part)`` names a campaign's key; ``pooled()`` bounds a step on the pool and
        maps Redis's failures to the store's."""
        self._client = client
        self._key = key
        self._pooled = pooled
        self._catalog = f"{prefix}:catalog"
        self._backfill = OnceForPrefix(client, f"{prefix}:forks_backfilled", pooled)

    async def enter(self, info: CampaignInfo) -> bool:
        """Enter the fork ``info`` in its parent's index; whether it was not in it yet."""
        assert info.parent is not None
        async with self._pooled():
            added = await self._client.zadd(
                self._key(info.parent, "forks"), {member((info.fork_version, info.id)): 0}
            )
        return bool(added)

    async def withdraw(self, info: CampaignInfo) -> None:
        """Take out the entry of a fork that was not created."""
        assert info.parent is not None
        async with self._pooled():
            await self._client.zrem(
                self._key(info.parent, "forks"), member((info.fork_version, info.id))
            )

    async def page(self, parent: str, after: ForkKey | None, limit: int) -> list[CampaignInfo]:
        await self._backfill.ensure(self._backfill_page, BACKFILL_PAGE)
        found: list[CampaignInfo] = []
        start = "-" if after is None else "(" + member(after)
        async with self._pooled():
            while len(found) < limit:
                wanted = limit - len(found)
                entries = cast(
                    list[bytes],
                    await self._client.zrangebylex(
                        self._key(parent, "forks"), start, "+", start=0, num=wanted
                    ),
                )
                found += await self._existing(parent, [_child(entry) for entry in entries])
                if len(entries) < wanted:
                    break
                start = "(" + entries[-1].decode()
        return found

    async def _existing(self, parent: str, keys: list[ForkKey]) -> list[CampaignInfo]:
        """The metadata of the forks ``keys`` whose creation finished, in their order."""
        if not keys:
            return []
        pipe = self._client.pipeline(transaction=False)
        for _, child in keys:
            pipe.hgetall(self._key(child, "meta"))
        metas = cast(list[Fields], await pipe.execute())
        infos = [
            (key, parse_info(key[1], fields))
            for key, fields in zip(keys, metas, strict=True)
            if fields
        ]
        return [
            info for key, info in infos if info.parent == parent and info.fork_version == key[0]
        ]

    async def _backfill_page(self, start: int) -> int:
        """Enter the forks among a page of the catalog; returns the page's length."""
        ids = cast(
            list[bytes],
            await self._client.zrange(self._catalog, start, start + BACKFILL_PAGE - 1),
        )
        pipe = self._client.pipeline(transaction=False)
        for campaign_id in ids:
            pipe.hmget(self._key(campaign_id.decode(), "meta"), ["parent", "fork_version"])
        metas = cast(list[list[bytes | None]], await pipe.execute())
        pipe = self._client.pipeline(transaction=False)
        for campaign_id, (parent, fork_version) in zip(ids, metas, strict=True):
            if parent is not None and fork_version is not None:
                entry = member((int(fork_version), campaign_id.decode()))
                pipe.zadd(self._key(parent.decode(), "forks"), {entry: 0})
        await pipe.execute()
        return len(ids)
