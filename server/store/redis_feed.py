"""The Redis change feed: one sharded Pub/Sub connection per process and shard.

The append script publishes an append on the campaign's shard channel ``{prefix}:{<id>}:changes``
(``SPUBLISH``, so on a Redis Cluster the message stays on the campaign's shard), in the same atomic
step that stores it, whenever a process other than the appending one is in the campaign's watcher
set (so a process that watches alone hears nothing of its own). The message carries the appending
process's origin, the first new version and the payloads themselves::

    <origin> <first> <len1>,<len2>,...\\n<payload1><payload2>...

so a watching process applies them without reading the stream. A process skips its own messages
(it delivered those from the commit). On the same channel a process shares its part of who is
connected to the campaign (:mod:`server.live.presence`), always, with a header of its own::

    <origin> presence <ask: 0 or 1>\n<data>
 Watching a campaign is an ``SSUBSCRIBE`` on the connection
to the shard that owns the campaign's slot (a single Redis is one shard; a Redis Cluster has one
per primary), so connections do not grow with the campaigns watched. Pub/Sub forgets what it sends
while a connection is down: after losing any connection, or learning that a slot moved (a node
unsubscribes the channels of a slot it gave away, or answers ``MOVED``), the feed reads the slot
map again, reconnects, resubscribes, waits for the servers to confirm, and says it resumed, so
the reader catches up from the streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import redis.asyncio
import redis.exceptions
from redis.backoff import EqualJitterBackoff

from server.store.base import StoredEvent, StoreUnavailable
from server.store.feed import Deliver, Resumed, Shared

log = logging.getLogger("tabletale.feed")

# The pause before each attempt to reach Redis again: doubling from 0.05 s up to 2 s, with jitter
# so that the processes that lost one Redis do not all come back at the same instant. Equal jitter
# keeps at least half of each pause, so a connection refused at once never spins.
RECONNECT_BACKOFF = EqualJitterBackoff(cap=2.0, base=0.05)
# A connection lost, a node that answers MOVED (the slot map is out of date) or a cluster that
# cannot be reached: each ends the feed's connections, which it then makes again.
_TROUBLE = (redis.exceptions.RedisError, redis.exceptions.RedisClusterException, OSError)


def encode_notice(origin: str, first: int, payloads: list[bytes]) -> bytes:
    """The message the append script publishes (built here only for tests and tools)."""
    lengths = ",".join(str(len(p)) for p in payloads)
    return f"{origin} {first} {lengths}\n".encode() + b"".join(payloads)


PRESENCE = b"presence"
"""The second word of a shared message's header, where an append's has its first version."""


def encode_shared(origin: str, data: bytes, *, ask: bool) -> bytes:
    return f"{origin} presence {int(ask)}\n".encode() + data


def decode_notice(data: bytes) -> tuple[str, list[StoredEvent]]:
    """``(origin, events)`` of a published append."""
    header, _, body = data.partition(b"\n")
    origin, first, lengths = header.split(b" ")
    return origin.decode(), _events(first, lengths, body)


def _events(first: bytes, lengths: bytes, body: bytes) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    version, offset = int(first), 0
    for length in lengths.split(b","):
        end = offset + int(length)
        events.append(StoredEvent(version, body[offset:end]))
        version += 1
        offset = end
    return events


class Shards(Protocol):
    """Where shard channels live: one Redis, or the primaries of a cluster."""

    def names(self) -> list[str]:
        """Every shard, by name."""
        ...

    def of(self, channel: str) -> str:
        """The shard that serves ``channel``; raises a RedisError when none is known."""
        ...

    def batches(self, channels: list[str]) -> list[list[str]]:
        """``channels`` in groups that one ``SSUBSCRIBE`` may name."""
        ...

    def client(self, shard: str) -> redis.asyncio.Redis:
        """A client whose connections go to ``shard``."""
        ...

    async def refresh(self) -> None:
        """Read the slot map again."""
        ...

    async def close(self) -> None: ...


class OneRedis:
    """A single Redis: one shard, which serves every channel."""

    def __init__(self, client: redis.asyncio.Redis) -> None:
        self._client = client

    def names(self) -> list[str]:
        return [""]

    def of(self, channel: str) -> str:
        return ""

    def batches(self, channels: list[str]) -> list[list[str]]:
        return [channels] if channels else []

    def client(self, shard: str) -> redis.asyncio.Redis:
        return self._client

    async def refresh(self) -> None:
        return None

    async def close(self) -> None:
        await self._client.aclose()


class RedisFeed:
    def __init__(
        self,
        shards: Shards,
        *,
        channel: Callable[[str], str],
        origin: str,
        mark: Callable[[list[str], bool], Awaitable[None]],
        publish: Callable[[str, bytes], Awaitable[None]],
        confirm_timeout: float = 5.0,
    ) -> None:
        """``mark(campaign_ids, watching)`` enters or removes this process in the campaigns'
        watcher sets, which decide whether an append is published at all; ``publish(channel,
        message)`` publishes on a shard channel (raising StoreUnavailable)."""
        self._shards = shards
        self._mark = mark
        self._publish = publish
        self._channel_of = channel
        self._origin = origin
        self._own = f"{origin} ".encode()
        self._confirm_timeout = confirm_timeout
        self._watched: dict[str, str] = {}  # channel -> campaign id
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}
        self._leaving: dict[str, int] = {}  # channel -> our SUNSUBSCRIBEs not yet answered
        self._connections: dict[str, Any] = {}  # shard -> redis-py's PubSub, which is untyped
        self._following = False
        self._unheard = False  # a campaign was watched before anything followed the feed
        self._moved = asyncio.Event()  # a watched channel's shard has no connection
        self._resuming: asyncio.Task[None] | None = None

    async def watch(self, campaign_id: str) -> None:
        channel = self._channel_of(campaign_id)
        self._watched[channel] = campaign_id
        if not self._following:
            await self._mark([campaign_id], True)
            self._unheard = True  # subscribed on the first connection, which then resumes
            return
        confirmed = self._waiter(channel)
        try:
            pubsub = self._connection(channel)
            # Into the watcher set and subscribed at once, in either order: an append made
            # before both is found by the catch-up read that follows the watch, and one made
            # after both is published and heard. Without a connection now, the next one
            # subscribes it and confirms.
            # (Awaited in this task, not gathered: each task handed a result costs a turn of a
            # busy event loop, and a join waits for every one: docs/performance.md.)
            marking = asyncio.ensure_future(self._mark([campaign_id], True))
            try:
                if pubsub is not None:
                    await pubsub.ssubscribe(channel)
            finally:
                await marking
            async with asyncio.timeout(self._confirm_timeout):
                await confirmed
        except StoreUnavailable:
            self._drop_waiter(channel, confirmed)
            raise
        except (*_TROUBLE, TimeoutError) as error:
            self._drop_waiter(channel, confirmed)
            raise StoreUnavailable(f"Could not watch campaign {campaign_id}: {error!r}") from error

    def _connection(self, channel: str) -> Any:
        """The connection to the shard that serves ``channel``, if it is up."""
        if not self._connections:
            return None
        try:
            pubsub = self._connections.get(self._shards.of(channel))
        except _TROUBLE:
            pubsub = None
        if pubsub is None:
            self._moved.set()  # a shard this process has no connection to: read the map again
        return pubsub

    def _waiter(self, channel: str) -> asyncio.Future[None]:
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(channel, []).append(waiter)
        return waiter

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
        pubsub = self._connection(channel)
        if pubsub is not None:
            self._leaving[channel] = self._leaving.get(channel, 0) + 1
            with contextlib.suppress(*_TROUBLE):
                await pubsub.sunsubscribe(channel)
        with contextlib.suppress(StoreUnavailable):
            await self._mark([campaign_id], False)

    async def share(self, campaign_id: str, data: bytes, *, ask: bool) -> None:
        channel = self._channel_of(campaign_id)
        await self._publish(channel, encode_shared(self._origin, data, ask=ask))

    async def follow(
        self, deliver: Deliver, resumed: Resumed, shared: Shared | None = None
    ) -> None:
        self._following = True
        failures = 0
        connected_before = False
        try:
            while True:
                connections: dict[str, Any] = {}
                try:
                    await self._shards.refresh()
                    for shard in self._shards.names():
                        connections[shard] = self._shards.client(shard).pubsub()
                        await connections[shard].connect()
                    # From here on watch() subscribes on the new connections, so none is left
                    # behind on a connection about to close.
                    self._connections = connections
                    self._leaving.clear()
                    self._moved.clear()
                    again, self._unheard = connected_before or self._unheard, False
                    readers = self._subscribe_all(connections, deliver, resumed, shared, again)
                    connected_before = True
                    failures = 0
                    reason = await _first_to_end(readers)
                except _TROUBLE as error:
                    reason = error
                finally:
                    self._connections = {}
                    for pubsub in connections.values():
                        with contextlib.suppress(Exception):
                            await pubsub.aclose()
                failures += 1
                pause = RECONNECT_BACKOFF.compute(failures)
                connected_before = True
                log.warning(
                    "The change feed lost Redis (%s); reconnecting in %.2f s.", reason, pause
                )
                await asyncio.sleep(pause)  # back-off between reconnection attempts
        finally:
            self._following = False

    def _subscribe_all(
        self,
        connections: dict[str, Any],
        deliver: Deliver,
        resumed: Resumed,
        shared: Shared | None,
        again: bool,
    ) -> list[asyncio.Task[BaseException]]:
        by_shard: dict[str, list[str]] = {}
        for channel in self._watched:
            by_shard.setdefault(self._shards.of(channel), []).append(channel)
        if again:
            # Once every subscription is confirmed, the reader catches up what was missed.
            waiters = [self._waiter(channel) for channel in self._watched]
            if self._resuming is not None:
                self._resuming.cancel()
            self._resuming = asyncio.create_task(self._resume(waiters, resumed))
        readers = [
            asyncio.create_task(self._read(pubsub, by_shard.get(shard, []), deliver, shared))
            for shard, pubsub in connections.items()
        ]
        return [*readers, asyncio.create_task(self._until_moved())]

    async def _read(
        self, pubsub: Any, channels: list[str], deliver: Deliver, shared: Shared | None
    ) -> BaseException:
        """Subscribe one shard's connection and hand on what it brings; returns why it ended."""
        try:
            for batch in self._shards.batches(channels):
                await pubsub.ssubscribe(*batch)
            while True:
                # The raw reply ([kind, channel, data]) rather than get_message's dict: this
                # runs for every append to a watched campaign, this process's own included.
                response = await pubsub.parse_response(block=True)
                if response and not self._handle(response, deliver, shared):
                    return redis.exceptions.ClusterError("A node gave up a watched channel.")
        except _TROUBLE as error:
            return error

    async def _until_moved(self) -> BaseException:
        await self._moved.wait()
        return redis.exceptions.ClusterError("A watched channel is on a node not connected.")

    async def _resume(self, waiters: list[asyncio.Future[None]], resumed: Resumed) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*waiters), self._confirm_timeout)
        # A Redis that restarted empty has forgotten who watches what.
        with contextlib.suppress(StoreUnavailable):
            await self._mark(list(self._watched.values()), True)
        await resumed()

    def _handle(self, response: list[Any], deliver: Deliver, shared: Shared | None) -> bool:
        """Act on one reply; False when a node gave up a channel this process still watches
        (its slot moved to another node)."""
        kind = response[0]
        if kind == b"smessage":
            data: bytes = response[2]
            if data.startswith(self._own):
                return True  # this process's commit (delivered from the commit) or share
            campaign_id = self._watched.get(response[1].decode())
            if campaign_id is None:
                return True
            header, _, body = data.partition(b"\n")
            origin, second, third = header.split(b" ")
            if second != PRESENCE:
                deliver(campaign_id, _events(second, third, body))
            elif shared is not None:
                shared(campaign_id, origin.decode(), body, third == b"1")
        elif kind == b"ssubscribe":
            for waiter in self._waiting.pop(response[1].decode(), []):
                if not waiter.done():
                    waiter.set_result(None)
        elif kind == b"sunsubscribe":
            channel = response[1].decode()
            leaving = self._leaving.get(channel, 0)
            if leaving:
                if leaving == 1:
                    del self._leaving[channel]
                else:
                    self._leaving[channel] = leaving - 1
            elif channel in self._watched:
                return False
        return True

    async def close(self) -> None:
        if self._resuming is not None:
            self._resuming.cancel()
            await asyncio.gather(self._resuming, return_exceptions=True)


async def _first_to_end(readers: list[asyncio.Task[BaseException]]) -> BaseException:
    """Wait until one shard's reader ends (then the others are stopped too); returns why."""
    try:
        done, _ = await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
        return next(iter(done)).result()
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
