"""The Redis Streams event store: one stream per campaign, entry ids that are versions.

Every key of a campaign carries the campaign id as a hash tag, so a campaign lives on one Redis
Cluster slot and the append script never crosses slots:

- ``{prefix}:{<id>}:events``: the stream; entry ``"<version>-0"`` holds field ``e``, the payload.
- ``{prefix}:{<id>}:meta``: hash of game, head, created_ms, updated_ms, parent, fork_version and
  one ``attr:<name>`` field per attribute.
- ``{prefix}:{<id>}:commands``: hash of command id -> ``"first:last"``.
- ``{prefix}:{<id>}:changes``: the shard channel each append is announced on, and
  ``{prefix}:{<id>}:watchers``, the set of processes that listen to it
  (:mod:`server.store.redis_feed`).
- ``{prefix}:{<id>}:snapshots`` (hash version -> data) and ``…:snapshot_index`` (sorted set).
- ``{prefix}:catalog``: sorted set of campaign ids scored by created_ms.

On a Redis Cluster (a ``redis+cluster://`` URL) the catalog lives on a slot of its own: no command
names keys of two slots, and the hot path's links and the change feed go to each campaign's own
node (:mod:`server.store.redis_cluster`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import os
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import cast

import msgspec
import redis.asyncio
import redis.exceptions
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff

from server.store.base import (
    AppendResult,
    CampaignExists,
    CampaignInfo,
    Snapshot,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    UnknownCampaign,
    VersionConflict,
    check_events,
    forked_info,
    new_info,
)
from server.store.feed import ChangeFeed
from server.store.lineage import read_through, snapshot_through
from server.store.redis_cluster import (
    ClusterLink,
    ClusterShards,
    is_cluster_url,
    node_url,
    seed_url,
)
from server.store.redis_feed import OneRedis, RedisFeed, Shards
from server.store.redis_link import Link

_APPEND_LUA = importlib.resources.files("server.store").joinpath("redis_append.lua").read_text()

# Create a campaign: HSET the ARGV[1] field/value words that follow into the meta hash KEYS[1],
# unless it exists (creating must not overwrite), and XADD the events after them to the stream
# KEYS[2] from version ARGV[2] on, all in one step: a campaign is there whole or not at all.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local words = tonumber(ARGV[1])
local version = tonumber(ARGV[2])
for i = 3 + words, #ARGV do
  redis.call('XADD', KEYS[2], string.format('%d-0', version), 'e', ARGV[i])
  version = version + 1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 3, 2 + words))
return 1
"""

Fields = dict[bytes, bytes]
Entries = list[tuple[bytes, Fields]]

_PAGE = 10_000  # stream entries per XRANGE when reading a long range
_ATTR = b"attr:"


class RedisSettings(msgspec.Struct, frozen=True, kw_only=True):
    """How the store talks to Redis. Every wait is bounded, so an outage answers in seconds."""

    max_connections: int = 32
    """Command connections per process (the change feed holds one more of its own); on a
    cluster, per node."""
    pool_timeout_s: float = 2.0
    """How long a command waits for a free connection before the store is called unavailable
    (a cluster's pools do not wait: a node's pool that is full answers unavailable at once)."""
    connect_timeout_s: float = 2.0
    socket_timeout_s: float = 2.0
    """How long one command may take; Redis answers ours in well under a millisecond."""
    ping_timeout_s: float = 0.5
    """How long a readiness ping waits: a load balancer wants its answer within a second."""


_UNREACHABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
    # A cluster that cannot serve a slot now (no node for it, a node down, a slot still moving
    # after the one retry), or that none of its known nodes answers for.
    redis.exceptions.ClusterError,
    redis.exceptions.AskError,
    redis.exceptions.TryAgainError,
    redis.exceptions.RedisClusterException,
)


@contextlib.contextmanager
def _reachable() -> Iterator[None]:
    try:
        yield
    except _UNREACHABLE as error:
        raise StoreUnavailable(f"The Redis event store cannot be reached: {error}") from error


@contextlib.asynccontextmanager
async def _bounded(seconds: float) -> AsyncIterator[None]:
    """Commands on the pool, mapped to StoreUnavailable and bounded as a whole: connecting to a
    frozen Redis would otherwise wait out each step of the handshake in turn."""
    with _reachable():
        try:
            async with asyncio.timeout(seconds):
                yield
        except TimeoutError:
            raise StoreUnavailable(f"Redis did not answer within {seconds} s.") from None


def _parse_info(campaign_id: str, fields: Fields) -> CampaignInfo:
    parent = fields.get(b"parent")
    return CampaignInfo(
        id=campaign_id,
        game=fields[b"game"].decode(),
        head=int(fields[b"head"]),
        created_ms=int(fields[b"created_ms"]),
        updated_ms=int(fields[b"updated_ms"]),
        parent=None if parent is None else parent.decode(),
        fork_version=int(fields.get(b"fork_version", 0)),
        attrs={
            name[len(_ATTR) :].decode(): value.decode()
            for name, value in fields.items()
            if name.startswith(_ATTR)
        },
    )


def _attr_fields(attrs: dict[str, str]) -> list[str]:
    return [part for name, value in attrs.items() for part in (f"attr:{name}", value)]


def _stored(entries: Entries) -> list[StoredEvent]:
    # The hot loop of every replay: entry id "<version>-0" gives the version directly.
    return [
        StoredEvent(int(entry_id.split(b"-", 1)[0]), fields[b"e"]) for entry_id, fields in entries
    ]


def _parse_range(text: bytes) -> tuple[int, int]:
    first, last = text.split(b":")
    return int(first), int(last)


def client_name() -> str:
    """How this process names its Redis connections (``CLIENT LIST`` shows who holds what)."""
    return f"tabletale:{os.getpid()}"


def _resp2_connection(node: ClusterNode) -> redis.asyncio.Connection:
    return node.connection_class(**{**node.connection_kwargs, "protocol": 2})


class RedisStore:
    """An EventStore over a ``redis.asyncio`` client (a ``RedisCluster`` for a cluster) created
    with ``decode_responses=False``."""

    def __init__(
        self,
        client: redis.asyncio.Redis | RedisCluster,
        *,
        prefix: str = "tt",
        feed: Shards | None = None,
        ping_timeout: float = 0.5,
    ) -> None:
        """``feed`` says where the change feed connects (:mod:`server.store.redis_feed`)."""
        self._client = client
        self._ping_timeout = ping_timeout
        self._prefix = prefix
        self._catalog = f"{prefix}:catalog"
        self._append_sha = client.register_script(_APPEND_LUA).sha
        self._create_script = client.register_script(_CREATE_LUA)
        # The hot path's short commands share one pipelined connection (redis_link.py), one per
        # node on a cluster; the pool serves the rest (creation, bulk reads, the catalog).
        # RESP2 on the links, so their replies have one shape whatever the pool negotiates.
        self._link: Link | ClusterLink
        if isinstance(client, RedisCluster):
            self._timeout: float = client.connection_kwargs.get("socket_timeout") or 5.0
            self._link = ClusterLink(client, _resp2_connection, timeout=self._timeout)
        else:
            pool = client.connection_pool
            self._timeout = pool.connection_kwargs.get("socket_timeout") or 5.0
            self._link = Link(
                lambda: pool.connection_class(**{**pool.connection_kwargs, "protocol": 2}),
                timeout=self._timeout,
            )
        self._origin = uuid.uuid4().hex[:12]
        self._feed = feed
        # A campaign's lineage never changes once created: remembered, it saves the metadata
        # read in front of every read of a campaign's own newest events.
        self._lineage: dict[str, int] = {}

    @classmethod
    def from_url(
        cls, url: str, *, prefix: str = "tt", settings: RedisSettings | None = None
    ) -> RedisStore:
        """A store on the Redis at ``url``; ``redis+cluster://host:port`` (or
        ``rediss+cluster://``) names a node of a Redis Cluster."""
        settings = settings or RedisSettings()
        options = dict(
            socket_connect_timeout=settings.connect_timeout_s,
            socket_timeout=settings.socket_timeout_s,
            client_name=client_name(),
            # A short back-off: callers turn StoreUnavailable into an answer, so it should come
            # within a second rather than after the client's default of several. Only a refused
            # or dropped connection is retried: a timeout means Redis is stuck, and trying again
            # would only make every caller wait the timeout three times over.
            retry=Retry(
                ExponentialWithJitterBackoff(cap=0.5, base=0.05),
                retries=2,
                supported_errors=(redis.exceptions.ConnectionError,),
            ),
        )

        # The feed's connections block in reads for as long as nothing happens, and reconnect
        # themselves, so they have no socket timeout and no retries of their own.
        def feed_client(node: str) -> redis.asyncio.Redis:
            return redis.asyncio.Redis.from_url(
                node,
                socket_connect_timeout=settings.connect_timeout_s,
                client_name=client_name() + ":feed",
                retry=Retry(NoBackoff(), 0),
            )

        if is_cluster_url(url):
            cluster = RedisCluster.from_url(
                seed_url(url), max_connections=settings.max_connections, **options
            )
            shards: Shards = ClusterShards(
                cluster, lambda host, port: feed_client(node_url(url, host, port))
            )
            return cls(cluster, prefix=prefix, feed=shards, ping_timeout=settings.ping_timeout_s)
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url,
            max_connections=settings.max_connections,
            timeout=settings.pool_timeout_s,
            **options,
        )
        return cls(
            redis.asyncio.Redis.from_pool(pool),
            prefix=prefix,
            feed=OneRedis(feed_client(url)),
            ping_timeout=settings.ping_timeout_s,
        )

    def changes(self) -> ChangeFeed:
        """Pub/Sub connections (one per shard) that bring other processes' appends."""
        if self._feed is None:
            raise StoreError("This RedisStore was built without a change feed; use from_url.")
        return RedisFeed(
            self._feed,
            channel=lambda campaign_id: self._key(campaign_id, "changes"),
            origin=self._origin,
            mark=self._mark_watching,
        )

    async def _mark_watching(self, campaign_ids: list[str], watching: bool) -> None:
        """Enter or leave this process in the campaigns' watcher sets (the append script
        publishes only when a process other than the appending one is in it)."""
        command = "SADD" if watching else "SREM"
        with _reachable():
            await asyncio.gather(
                *(
                    self._link.execute(command, self._key(campaign_id, "watchers"), self._origin)
                    for campaign_id in campaign_ids
                )
            )

    def _pooled(self) -> contextlib.AbstractAsyncContextManager[None]:
        return _bounded(self._timeout)

    @property
    def commands_in_flight(self) -> int:
        """Hot-path commands waiting for Redis to answer, for the metrics."""
        return self._link.in_flight

    @property
    def client(self) -> redis.asyncio.Redis | RedisCluster:
        """The underlying client, for tools that need raw commands (benchmarks, cleanup)."""
        return self._client

    def _key(self, campaign_id: str, part: str) -> str:
        return f"{self._prefix}:{{{campaign_id}}}:{part}"

    async def _create_meta(self, info: CampaignInfo, events: Sequence[bytes]) -> CampaignInfo:
        fields = [
            "game", info.game,
            "head", str(info.head),
            "created_ms", str(info.created_ms),
            "updated_ms", str(info.updated_ms),
            "fork_version", str(info.fork_version),
        ]  # fmt: skip
        if info.parent is not None:
            fields += ["parent", info.parent]
        fields += _attr_fields(info.attrs)
        first = info.head - len(events) + 1
        keys = [self._key(info.id, "meta"), self._key(info.id, "events")]
        async with self._pooled():
            created = await self._create_script(
                keys=keys, args=[len(fields), first, *fields, *events]
            )
            if not created:
                raise CampaignExists(info.id)
            # The catalog lives on another slot, so it is written after the campaign exists;
            # list_campaigns skips an id whose metadata is missing.
            await self._client.zadd(self._catalog, {info.id: info.created_ms})
        return info

    async def create(
        self,
        campaign_id: str,
        game: str,
        *,
        now_ms: int,
        attrs: dict[str, str] | None = None,
        events: Sequence[bytes] = (),
    ) -> CampaignInfo:
        info = new_info(campaign_id, game, now_ms=now_ms, attrs=attrs, events=len(events))
        return await self._create_meta(info, events)

    async def fork(
        self,
        parent_id: str,
        at: int,
        child_id: str,
        *,
        now_ms: int,
        attrs: dict[str, str] | None = None,
        events: Sequence[bytes] = (),
    ) -> CampaignInfo:
        parent = await self.info(parent_id)
        info = forked_info(parent, at, child_id, now_ms=now_ms, attrs=attrs, events=len(events))
        return await self._create_meta(info, events)

    async def info(self, campaign_id: str) -> CampaignInfo:
        with _reachable():
            flat = await self._link.execute("HGETALL", self._key(campaign_id, "meta"))
        fields: Fields = dict(zip(flat[::2], flat[1::2], strict=True))
        if not fields:
            raise UnknownCampaign(campaign_id)
        info = _parse_info(campaign_id, fields)
        self._lineage[campaign_id] = info.fork_version
        return info

    async def append(
        self,
        campaign_id: str,
        expected_version: int,
        events: Sequence[bytes],
        *,
        command_id: str | None = None,
        now_ms: int = 0,
    ) -> AppendResult:
        check_events(events)
        keys = [
            self._key(campaign_id, "meta"),
            self._key(campaign_id, "events"),
            self._key(campaign_id, "commands"),
            self._key(campaign_id, "changes"),
            self._key(campaign_id, "watchers"),
        ]
        args: list[bytes | str | int] = [
            expected_version,
            command_id or "",
            now_ms,
            self._origin,
            *events,
        ]
        with _reachable():
            try:
                reply = await self._link.execute("EVALSHA", self._append_sha, 5, *keys, *args)
            except redis.exceptions.NoScriptError:
                # A Redis that restarted (or another server) does not know the script yet.
                await self._link.execute("SCRIPT", "LOAD", _APPEND_LUA)
                reply = await self._link.execute("EVALSHA", self._append_sha, 5, *keys, *args)
        match reply[0]:
            case b"ok":
                return AppendResult(first=reply[1], last=reply[2])
            case b"duplicate":
                first, last = _parse_range(reply[1])
                return AppendResult(first=first, last=last, duplicate=True)
            case b"conflict":
                raise VersionConflict(campaign_id, expected_version, reply[1])
            case b"unknown":
                raise UnknownCampaign(campaign_id)
            case b"corrupt":
                raise StoreError(
                    f"Campaign {campaign_id} has stream entries up to version {reply[2]} "
                    f"beyond its head {reply[1]}; nothing was appended."
                )
        raise StoreError(f"The append script answered {reply!r}, which this store cannot read.")

    async def _read_own(
        self, campaign_id: str, after: int, until: int, limit: int | None
    ) -> list[StoredEvent]:
        key = self._key(campaign_id, "events")
        stop = until if limit is None else min(until, after + limit)
        out: list[StoredEvent] = []
        async with self._pooled():
            # Versions are contiguous, so each page is addressed by version, not by cursor.
            while after < stop:
                upper = min(stop, after + _PAGE)
                entries = cast(Entries, await self._client.xrange(key, after + 1, upper))
                out += _stored(entries)
                after = upper
        return out

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        fork_version = self._lineage.get(campaign_id)
        if fork_version is not None and after >= fork_version and until is None and limit is None:
            # Everything newer than the fork point is in the campaign's own stream: one XRANGE
            # to its end reads it (an unknown or deleted campaign reads as empty).
            return await self._read_newest(campaign_id, after)
        return await read_through(self.info, self._read_own, campaign_id, after, until, limit)

    async def _read_newest(self, campaign_id: str, after: int) -> list[StoredEvent]:
        key = self._key(campaign_id, "events")
        out: list[StoredEvent] = []
        with _reachable():
            while True:
                raw = await self._link.execute("XRANGE", key, after + 1, "+", "COUNT", _PAGE)
                # Raw RESP: [[b"<version>-0", [b"e", payload]], ...]
                out += [StoredEvent(int(i.split(b"-", 1)[0]), f[1]) for i, f in raw]
                if len(raw) < _PAGE:
                    return out
                after = out[-1].version

    async def command_result(self, campaign_id: str, command_id: str) -> AppendResult | None:
        with _reachable():
            exists, found = await asyncio.gather(
                self._link.execute("EXISTS", self._key(campaign_id, "meta")),
                self._link.execute("HGET", self._key(campaign_id, "commands"), command_id),
            )
        if not exists:
            raise UnknownCampaign(campaign_id)
        if found is None:
            return None
        first, last = _parse_range(found)
        return AppendResult(first=first, last=last)

    async def save_snapshot(self, campaign_id: str, version: int, data: bytes) -> None:
        await self.info(campaign_id)  # campaigns are never deleted, so checking first is enough
        async with self._pooled():
            pipe = self._client.pipeline(transaction=True)
            pipe.hset(self._key(campaign_id, "snapshots"), str(version), data)
            pipe.zadd(self._key(campaign_id, "snapshot_index"), {str(version): version})
            await pipe.execute()

    async def _own_snapshot(self, campaign_id: str, lowest: int, at_most: int) -> Snapshot | None:
        async with self._pooled():
            index = self._key(campaign_id, "snapshot_index")
            found = cast(
                list[bytes],
                await self._client.zrevrangebyscore(index, at_most, lowest, start=0, num=1),
            )
            if not found:
                return None
            data = cast(
                bytes | None, await self._client.hget(self._key(campaign_id, "snapshots"), found[0])
            )
        # A snapshot is a cache: one missing from the hash is simply not there.
        return None if data is None else Snapshot(int(found[0]), data)

    async def load_snapshot(self, campaign_id: str, at_most: int) -> Snapshot | None:
        return await snapshot_through(self.info, self._own_snapshot, campaign_id, at_most)

    async def list_campaigns(self, *, offset: int = 0, limit: int = 50) -> list[CampaignInfo]:
        if limit <= 0:
            return []
        async with self._pooled():
            ids = cast(
                list[bytes], await self._client.zrevrange(self._catalog, offset, offset + limit - 1)
            )
            pipe = self._client.pipeline(transaction=False)
            for campaign_id in ids:
                pipe.hgetall(self._key(campaign_id.decode(), "meta"))
            metas = await pipe.execute()
        return [
            _parse_info(campaign_id.decode(), fields)
            for campaign_id, fields in zip(ids, metas, strict=True)
            if fields
        ]

    async def ping(self) -> None:
        # On the link, with a timeout of its own: a frozen Redis makes readiness fail within
        # the ping's timeout, not the commands'.
        with _reachable():
            try:
                await asyncio.wait_for(self._link.execute("PING"), self._ping_timeout)
            except TimeoutError:
                raise StoreUnavailable(
                    f"Redis did not answer a ping within {self._ping_timeout} s."
                ) from None

    async def close(self) -> None:
        with _reachable():
            await self._link.close()
            await self._client.aclose()
            if self._feed is not None:
                await self._feed.close()
