"""The Redis change feed: one sharded Pub/Sub connection per process.

The append script publishes an append on the campaign's shard channel ``{prefix}:{<id>}:changes``
(``SPUBLISH``, so on a Redis Cluster the message stays on the campaign's shard), in the same atomic
step that stores it, whenever a process other than the appending one is in the campaign's watcher
set (so a process that watches alone hears nothing of its own). The message carries the appending
process's origin, the first new version and the payloads themselves::

    <origin> <first> <len1>,<len2>,...\\n<payload1><payload2>...

so a watching process applies them without reading the stream. A process skips its own messages
(it delivered those from the commit). Watching a campaign is an ``SSUBSCRIBE`` on the one
connection, so connections do not grow with the campaigns watched. Pub/Sub forgets what it sends
while a connection is down: after reconnecting, the feed resubscribes, waits for the server to
confirm, and says it resumed, so the reader catches up from the streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio
import redis.exceptions
from redis.backoff import EqualJitterBackoff

from server.store.base import StoredEvent, StoreUnavailable
from server.store.feed import Deliver, Resumed

log = logging.getLogger("tabletale.feed")

# The pause before each attempt to reach Redis again: doubling from 0.05 s up to 2 s, with jitter
# so that the processes that lost one Redis do not all come back at the same instant. Equal jitter
# keeps at least half of each pause, so a connection refused at once never spins.
RECONNECT_BACKOFF = EqualJitterBackoff(cap=2.0, base=0.05)
_LOST = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


def encode_notice(origin: str, first: int, payloads: list[bytes]) -> bytes:
    """The message the append script publishes (built here only for tests and tools)."""
    lengths = ",".join(str(len(p)) for p in payloads)
    return f"{origin} {first} {lengths}\n".encode() + b"".join(payloads)


def decode_notice(data: bytes) -> tuple[str, list[StoredEvent]]:
    """``(origin, events)`` of a published message."""
    header, _, body = data.partition(b"\n")
    origin, first, lengths = header.split(b" ")
    events: list[StoredEvent] = []
    version, offset = int(first), 0
    for length in lengths.split(b","):
        end = offset + int(length)
        events.append(StoredEvent(version, body[offset:end]))
        version += 1
        offset = end
    return origin.decode(), events


class RedisFeed:
    def __init__(
        self,
        client: redis.asyncio.Redis,
        *,
        channel: Callable[[str], str],
        origin: str,
        mark: Callable[[list[str], bool], Awaitable[None]],
        confirm_timeout: float = 5.0,
    ) -> None:
        """``mark(campaign_ids, watching)`` enters or removes this process in the campaigns'
        watcher sets, which decide whether an append is published at all."""
        self._client = client
        self._mark = mark
        self._channel_of = channel
        self._origin = origin
        self._own = f"{origin} ".encode()
        self._confirm_timeout = confirm_timeout
        self._watched: dict[str, str] = {}  # channel -> campaign id
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}
        self._pubsub: Any = None  # redis-py's PubSub, which is not typed
        self._resuming: asyncio.Task[None] | None = None

    async def watch(self, campaign_id: str) -> None:
        channel = self._channel_of(campaign_id)
        self._watched[channel] = campaign_id
        # In the watcher set first: an append after this is published, and one before it is
        # found by the catch-up read that follows the subscription.
        await self._mark([campaign_id], True)
        pubsub = self._pubsub
        if pubsub is None:
            return  # the next connection subscribes to it, then the reader catches up
        confirmed = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(channel, []).append(confirmed)
        try:
            await pubsub.ssubscribe(channel)
            await asyncio.wait_for(confirmed, self._confirm_timeout)
        except (redis.exceptions.RedisError, OSError, TimeoutError) as error:
            self._drop_waiter(channel, confirmed)
            raise StoreUnavailable(f"Could not watch campaign {campaign_id}: {error!r}") from error

    def _drop_waiter(self, channel: str, waiter: asyncio.Future[None]) -> None:
        waiters = self._waiting.get(channel, [])
        if waiter in waiters:
            waiters.remove(waiter)
        if not waiters:
            self._waiting.pop(channel, None)

    async def unwatch(self, campaign_id: str) -> None:
        channel = self._channel_of(campaign_id)
        if self._watched.pop(channel, None) is None:
            return
        pubsub = self._pubsub
        if pubsub is not None:
            with contextlib.suppress(redis.exceptions.RedisError, OSError):
                await pubsub.sunsubscribe(channel)
        with contextlib.suppress(StoreUnavailable):
            await self._mark([campaign_id], False)

    async def follow(self, deliver: Deliver, resumed: Resumed) -> None:
        failures = 0
        connected_before = False
        while True:
            pubsub: Any = self._client.pubsub()
            try:
                await pubsub.connect()
                self._pubsub = pubsub
                channels = list(self._watched)
                if connected_before:
                    self._resuming = asyncio.create_task(self._resume(channels, resumed))
                if channels:
                    await pubsub.ssubscribe(*channels)
                connected_before = True
                failures = 0
                while True:
                    # The raw reply ([kind, channel, data]) rather than get_message's dict: this
                    # runs for every append to a watched campaign, this process's own included.
                    response = await pubsub.parse_response(block=True)
                    if response:
                        self._handle(response, deliver)
            except _LOST as error:
                failures += 1
                pause = RECONNECT_BACKOFF.compute(failures)
                connected_before = True
                log.warning("The change feed lost Redis (%s); retrying in %.2f s.", error, pause)
                await asyncio.sleep(pause)  # back-off between reconnection attempts
            finally:
                self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _resume(self, channels: list[str], resumed: Resumed) -> None:
        """Once the new connection's subscriptions are confirmed, let the reader catch up."""
        loop = asyncio.get_running_loop()
        waiters: list[asyncio.Future[None]] = []
        for channel in channels:
            waiter = loop.create_future()
            self._waiting.setdefault(channel, []).append(waiter)
            waiters.append(waiter)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*waiters), self._confirm_timeout)
        # A Redis that restarted empty has forgotten who watches what.
        with contextlib.suppress(StoreUnavailable):
            await self._mark([self._watched[c] for c in channels if c in self._watched], True)
        await resumed()

    def _handle(self, response: list[Any], deliver: Deliver) -> None:
        kind = response[0]
        if kind == b"smessage":
            data: bytes = response[2]
            if data.startswith(self._own):
                return  # this process's commit, delivered from the commit already
            origin, events = decode_notice(data)
            campaign_id = self._watched.get(response[1].decode())
            if origin != self._origin and campaign_id is not None:
                deliver(campaign_id, events)
        elif kind == b"ssubscribe":
            for waiter in self._waiting.pop(response[1].decode(), []):
                if not waiter.done():
                    waiter.set_result(None)

    async def close(self) -> None:
        if self._resuming is not None:
            self._resuming.cancel()
            await asyncio.gather(self._resuming, return_exceptions=True)
