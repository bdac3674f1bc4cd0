"""Limits on what one client may do: campaigns created, failed authentications, sockets held,
and messages per socket.

The first three hold across server processes: they are counted with the ``limits`` package in
Redis when the server uses Redis (in memory with the embedded store, which one process owns).
They cost a Redis round trip only where the work is rare anyway (a creation, a failed token, a
socket opening). Messages per socket are counted per socket, locally, by a token bucket: a
check on every message must cost next to nothing.

A client is the peer address, as uvicorn reports it (``X-Forwarded-For`` from a trusted proxy
when proxy headers are on). When the limits' storage cannot be reached, the limits let requests
through rather than turn an outage of the counters into an outage of the game.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable
from typing import TypeVar

import limits
import limits.aio.storage
import limits.aio.strategies
from starlette.requests import HTTPConnection

from server.errors import RateLimited
from server.settings import OFF, LimitSettings
from server.store.redis_cluster import is_cluster_url

log = logging.getLogger("tabletale.throttle")
T = TypeVar("T")


def client_of(connection: HTTPConnection) -> str:
    """Who is asking: the peer address (a trusted proxy's forwarded one, when configured)."""
    client = connection.client
    return client.host if client is not None else "unknown"


def _rate(text: str) -> limits.RateLimitItem | None:
    return None if text.strip().lower() in OFF else limits.parse(text)


class MessageBucket:
    """A socket's messages: ``rate`` per second on average, ``burst`` at once."""

    __slots__ = ("_burst", "_rate", "_stamp", "_tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self._rate = rate
        self._burst = float(max(burst, 1))
        self._tokens = self._burst
        self._stamp = time.monotonic()

    def take(self) -> float:
        """0 if the message may pass; else how many seconds until one may."""
        now = time.monotonic()
        tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if tokens >= 1.0:
            self._tokens = tokens - 1.0
            return 0.0
        self._tokens = tokens
        return (1.0 - tokens) / self._rate


class Throttle:
    def __init__(
        self,
        storage: limits.aio.storage.Storage,
        settings: LimitSettings,
        *,
        timeout: float = 2.0,
    ) -> None:
        self.settings = settings
        self._storage = storage
        self._limiter = limits.aio.strategies.MovingWindowRateLimiter(storage)
        self._timeout = timeout
        self._creations = _rate(settings.creations)
        self._auth_client = _rate(settings.failed_auth_per_client)
        self._auth_campaign = _rate(settings.failed_auth_per_campaign)
        self._blocked: dict[str, float] = {}
        """Keys over their failed-authentication limit, to the time (epoch s) the window ends:
        checked locally before a token is, so a blocked client costs no round trip."""

    @classmethod
    def in_memory(cls, settings: LimitSettings | None = None) -> Throttle:
        return cls(limits.aio.storage.MemoryStorage(), settings or LimitSettings())

    @classmethod
    def on_redis(
        cls, url: str, settings: LimitSettings, *, prefix: str, timeout: float = 2.0
    ) -> Throttle:
        # The limits package reads the same redis+cluster:// scheme for a Redis Cluster.
        cluster = is_cluster_url(url)
        kind = (
            limits.aio.storage.RedisClusterStorage if cluster else limits.aio.storage.RedisStorage
        )
        storage = kind(
            "async+" + url,
            implementation="redispy",
            key_prefix=f"{prefix}:limits",
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        return cls(storage, settings, timeout=timeout)

    async def _call(self, work: Awaitable[T], fallback: T) -> T:
        """``work`` bounded by the timeout; ``fallback`` when the counters cannot be reached."""
        try:
            async with asyncio.timeout(self._timeout):
                return await work
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the counters' store is down: let the request through
            log.warning("The rate limits could not be checked: %r", error)
            return fallback

    async def _hit(self, item: limits.RateLimitItem, kind: str, key: str) -> float:
        """Count one; 0 if within the limit, else the seconds until the window lets one more."""
        if await self._call(self._limiter.hit(item, kind, key), True):
            return 0.0
        stats = await self._call(self._limiter.get_window_stats(item, kind, key), None)
        reset = stats.reset_time if stats is not None else time.time() + item.get_expiry()
        return max(1.0, reset - time.time())

    # -- creating campaigns ---------------------------------------------------------------

    async def created(self, client: str) -> None:
        """Count a creation by ``client``; raises RateLimited past the limit."""
        if self._creations is None:
            return
        wait = await self._hit(self._creations, "creations", client)
        if wait:
            raise RateLimited(
                f"This client created {self._creations.amount} campaigns within "
                f"{_per(self._creations)}; try again later.",
                retry_after=wait,
            )

    # -- authenticating -------------------------------------------------------------------

    def check_auth(self, client: str, campaign_id: str) -> None:
        """Raise RateLimited if ``client`` or ``campaign_id`` is over its failed-token limit."""
        if not self._blocked:
            return
        now = time.time()
        for key in (f"client:{client}", f"campaign:{campaign_id}"):
            until = self._blocked.get(key)
            if until is None:
                continue
            if until <= now:
                del self._blocked[key]
                continue
            raise RateLimited(
                "Too many tokens that open no seat were tried; try again later.",
                retry_after=until - now,
            )

    async def failed_auth(self, client: str, campaign_id: str) -> None:
        """Count a token that opened no seat; past a limit, the client or campaign is blocked
        (and this attempt is answered RateLimited)."""
        for item, key in (
            (self._auth_client, f"client:{client}"),
            (self._auth_campaign, f"campaign:{campaign_id}"),
        ):
            if item is None:
                continue
            wait = await self._hit(item, "failed-auth", key)
            if wait:
                self._blocked[key] = time.time() + wait
        self.check_auth(client, campaign_id)

    # -- sockets --------------------------------------------------------------------------

    async def socket_opened(self, client: str) -> bool:
        """Count a socket of ``client``; False (and not counted) past the limit."""
        most = self.settings.sockets_per_client
        if not most:
            return True
        key = f"sockets/{client}"
        lease = self.settings.socket_lease_s
        count = await self._call(self._storage.incr(key, lease), 0)
        if count > most:
            await self._call(self._storage.incr(key, lease, -1), 0)
            return False
        return True

    async def socket_closed(self, client: str) -> None:
        """The end of a socket counted by :meth:`socket_opened`."""
        if not self.settings.sockets_per_client:
            return
        key = f"sockets/{client}"
        left = await self._call(self._storage.incr(key, self.settings.socket_lease_s, -1), 0)
        if left < 0:  # the count expired under open sockets: start again from nothing
            await self._call(self._storage.clear(key), None)

    def bucket(self) -> MessageBucket | None:
        """A new socket's message budget (None: unlimited)."""
        rate = self.settings.messages_per_second
        return MessageBucket(rate, self.settings.message_burst) if rate else None

    async def close(self) -> None:
        bridge = getattr(self._storage, "bridge", None)
        client = getattr(bridge, "storage", None)
        aclose = getattr(client, "aclose", None)
        if aclose is not None:
            await self._call(aclose(), None)


def _per(item: limits.RateLimitItem) -> str:
    seconds = item.get_expiry()
    return f"{seconds} seconds" if seconds != 1 else "a second"


def retry_after(seconds: float) -> str:
    """The ``Retry-After`` header's value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
