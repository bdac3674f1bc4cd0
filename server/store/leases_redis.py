"""The Redis store's bot table (:mod:`server.store.leases`).

Per campaign, on the campaign's own slot (its id is the hash tag):

- ``{prefix}:{<id>}:bots``: hash of seat -> bot spec;
- ``{prefix}:{<id>}:lease``: the driving process's name, set with ``NX PX`` and renewed by a
  script that extends it only while it still names the caller.

``{prefix}:bot_campaigns`` is the set of campaigns with bot seats (a slot of its own on a
cluster; no command names it with another key).
"""

from __future__ import annotations

import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from server.store.redis_errors import bounded

# Extend (or, with ARGV[3] = "1", drop) the lease only while it is the caller's.
_RENEW_LUA = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '1' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
"""


class RedisBotTable:
    def __init__(
        self, client: redis.asyncio.Redis | RedisCluster, prefix: str, *, timeout: float = 5.0
    ) -> None:
        self._client = client
        self._prefix = prefix
        self._timeout = timeout
        self._renew = client.register_script(_RENEW_LUA)

    def _key(self, campaign_id: str, part: str) -> str:
        return f"{self._prefix}:{{{campaign_id}}}:{part}"

    @property
    def _set(self) -> str:
        return f"{self._prefix}:bot_campaigns"

    async def seats(self, campaign_id: str) -> dict[str, str]:
        async with bounded(self._timeout):
            raw = await self._client.hgetall(self._key(campaign_id, "bots"))
        return {_text(seat): _text(spec) for seat, spec in raw.items()}

    async def set_seat(self, campaign_id: str, seat: str, spec: str) -> None:
        async with bounded(self._timeout):
            await self._client.hset(self._key(campaign_id, "bots"), seat, spec)
            await self._client.sadd(self._set, campaign_id)

    async def clear_seat(self, campaign_id: str, seat: str) -> bool:
        async with bounded(self._timeout):
            removed = await self._client.hdel(self._key(campaign_id, "bots"), seat)
        return bool(removed)

    async def campaigns(self) -> list[str]:
        async with bounded(self._timeout):
            members = await self._client.smembers(self._set)
        return sorted(_text(member) for member in members)

    async def rest(self, campaign_id: str) -> None:
        async with bounded(self._timeout):
            await self._client.srem(self._set, campaign_id)

    async def acquire(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        key = self._key(campaign_id, "lease")
        async with bounded(self._timeout):
            if await self._client.set(key, owner, nx=True, px=ttl_ms):
                return True
            return bool(await self._renew(keys=[key], args=[owner, ttl_ms, "0"]))

    async def renew(self, campaign_id: str, owner: str, ttl_ms: int) -> bool:
        async with bounded(self._timeout):
            renewed = await self._renew(
                keys=[self._key(campaign_id, "lease")], args=[owner, ttl_ms, "0"]
            )
        return bool(renewed)

    async def release(self, campaign_id: str, owner: str) -> None:
        async with bounded(self._timeout):
            await self._renew(keys=[self._key(campaign_id, "lease")], args=[owner, 0, "1"])

    async def holder(self, campaign_id: str) -> str | None:
        async with bounded(self._timeout):
            owner = await self._client.get(self._key(campaign_id, "lease"))
        return None if owner is None else _text(owner)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
