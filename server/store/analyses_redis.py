"""The Redis store's analysis table (:class:`~server.store.contract.AnalysisTable`).

One hash per campaign, ruleset and level, on the campaign's own slot (its id is the hash tag):
``{prefix}:{<id>}:analysis:<level>:<ruleset>``, the estimate at each version under the version's
number and the complete analysis under ``whole``.
"""

from __future__ import annotations

import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from server.store.redis_errors import bounded

WHOLE = "whole"


class RedisAnalyses:
    def __init__(
        self, client: redis.asyncio.Redis | RedisCluster, prefix: str, *, timeout: float = 5.0
    ) -> None:
        self._client = client
        self._prefix = prefix
        self._timeout = timeout

    def _key(self, campaign_id: str, ruleset: str, level: int) -> str:
        return f"{self._prefix}:{{{campaign_id}}}:analysis:{level}:{ruleset}"

    async def save_point(
        self, campaign_id: str, ruleset: str, level: int, version: int, data: bytes
    ) -> None:
        async with bounded(self._timeout):
            await self._client.hset(self._key(campaign_id, ruleset, level), str(version), data)

    async def points(self, campaign_id: str, ruleset: str, level: int) -> dict[int, bytes]:
        async with bounded(self._timeout):
            raw = await self._client.hgetall(self._key(campaign_id, ruleset, level))
        found: dict[int, bytes] = {}
        for field, data in raw.items():
            name = field.decode() if isinstance(field, bytes) else str(field)
            if name != WHOLE:
                found[int(name)] = _bytes(data)
        return found

    async def save_whole(self, campaign_id: str, ruleset: str, level: int, data: bytes) -> None:
        async with bounded(self._timeout):
            await self._client.hset(self._key(campaign_id, ruleset, level), WHOLE, data)

    async def whole(self, campaign_id: str, ruleset: str, level: int) -> bytes | None:
        async with bounded(self._timeout):
            data = await self._client.hget(self._key(campaign_id, ruleset, level), WHOLE)
        return None if data is None else _bytes(data)


def _bytes(data: bytes | str) -> bytes:
    """A value as stored (the client does not decode responses)."""
    return data.encode() if isinstance(data, str) else data
