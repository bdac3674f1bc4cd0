"""The Redis Streams event store: one stream per campaign, entry ids that are versions.

Every key of a campaign carries the campaign id as a hash tag, so a campaign lives on one Redis
Cluster slot and the append script never crosses slots:

- ``{prefix}:{<id>}:events``: the stream; entry ``"<version>-0"`` holds field ``e``, the payload.
- ``{prefix}:{<id>}:meta``: hash of game, head, created_ms, updated_ms, parent, fork_version,
  listed and one ``attr:<name>`` field per attribute.
- ``{prefix}:{<id>}:commands``: hash of command id -> ``"first:last"``.
- ``{prefix}:{<id>}:changes``: the shard channel each append is announced on, and
  ``{prefix}:{<id>}:watchers``, the set of processes that listen to it
  (:mod:`server.store.redis_feed`).
- ``{prefix}:{<id>}:snapshots`` (hash version -> data) and ``…:snapshot_index`` (sorted set).
- ``{prefix}:{<id>}:points``: the decision point runs, and the meta hash's ``points_indexed``
  (:mod:`server.store.redis_points`).
- ``{prefix}:{<id>}:forks``: the campaign's forks, by fork version then id
  (:mod:`server.store.redis_forks`).
- ``{prefix}:catalog`` and the listed campaigns' set (:mod:`server.store.redis_catalog`).
- ``{prefix}:format``: the layout's format, checked before the first read and write
  (:mod:`server.store.redis_format`).

On a Redis Cluster (a ``redis+cluster://`` URL) the catalog lives on a slot of its own: no command
names keys of two slots, and the hot path's links and the change feed go to each campaign's own
node (:mod:`server.store.redis_cluster`).

Campaigns stored before the meta hash kept ``listed`` have no such field and read as listed
unless private (:func:`~server.store.redis_records.is_listed`); the catalog enters them in the
listed set once. A campaign that a server of the older version creates afterwards enters the
catalog only, so stop the older servers before starting new ones; after a rolling upgrade, delete
``{prefix}:listed_backfilled`` and restart one server to fill the set in again.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import redis.asyncio
import redis.exceptions
from redis.asyncio.cluster import RedisCluster

from server.store.base import (
    FORKS_PAGE,
    AppendResult,
    CampaignExists,
    CampaignInfo,
    ForkKey,
    Snapshot,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    UnknownCampaign,
    VersionConflict,
    check_events,
)
from server.store.feed import ChangeFeed
from server.store.lineage import read_through, snapshot_through
from server.store.point_runs import OwnRuns, PointRunsNear
from server.store.recording import Recording
from server.store.redis_catalog import Catalog
from server.store.redis_cluster import (
    ClusterLink,
)
from server.store.redis_connect import RedisSettings, connect, resp2_connection
from server.store.redis_errors import bounded, reachable
from server.store.redis_feed import RedisFeed, Shards
from server.store.redis_forks import ForkIndex
from server.store.redis_format import LayoutFormat
from server.store.redis_link import Link
from server.store.redis_points import RedisPoints
from server.store.redis_records import (
    Entries,
    Fields,
    attr_fields,
    parse_info,
    parse_range,
    stored_events,
)

if TYPE_CHECKING:
    from server.store.analyses_redis import RedisAnalyses
    from server.store.leases_redis import RedisBotTable

_SCRIPTS = importlib.resources.files("server.store")
_APPEND_LUA = _SCRIPTS.joinpath("redis_append.lua").read_text()
_CREATE_LUA = _SCRIPTS.joinpath("redis_create.lua").read_text()

_PAGE = 10_000  # stream entries per XRANGE when reading a long range


class RedisStore(Recording, PointRunsNear):
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
        self._append_sha = client.register_script(_APPEND_LUA).sha
        self._create_script = client.register_script(_CREATE_LUA)
        # The hot path's short commands share one pipelined connection (redis_link.py), one per
        # node on a cluster; the pool serves the rest (creation, bulk reads, the catalog).
        # RESP2 on the links, so their replies have one shape whatever the pool negotiates.
        self._link: Link | ClusterLink
        if isinstance(client, RedisCluster):
            self._timeout: float = client.connection_kwargs.get("socket_timeout") or 5.0
            self._link = ClusterLink(client, resp2_connection, timeout=self._timeout)
        else:
            pool = client.connection_pool
            self._timeout = pool.connection_kwargs.get("socket_timeout") or 5.0
            self._link = Link(
                lambda: pool.connection_class(**{**pool.connection_kwargs, "protocol": 2}),
                timeout=self._timeout,
            )
        self._catalog = Catalog(
            client, prefix, lambda campaign_id: self._key(campaign_id, "meta"), self._pooled
        )
        self._forks = ForkIndex(client, prefix, self._key, self._pooled)
        self._origin = uuid.uuid4().hex[:12]
        self._feed = feed
        self._points = RedisPoints(self._link, self._key)
        self._format = LayoutFormat(client, prefix, self._pooled)
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
        client, feed = connect(url, settings)
        return cls(client, prefix=prefix, feed=feed, ping_timeout=settings.ping_timeout_s)

    def changes(self) -> ChangeFeed:
        """Pub/Sub connections (one per shard) that bring other processes' appends."""
        if self._feed is None:
            raise StoreError("This RedisStore was built without a change feed; use from_url.")
        return RedisFeed(
            self._feed,
            channel=lambda campaign_id: self._key(campaign_id, "changes"),
            origin=self._origin,
            mark=self._mark_watching,
            publish=self._publish,
        )

    async def _publish(self, channel: str, message: bytes) -> None:
        with reachable():
            await self._link.execute("SPUBLISH", channel, message)

    async def _mark_watching(self, campaign_ids: list[str], watching: bool) -> None:
        """Enter or leave this process in the campaigns' watcher sets (the append script
        publishes only when a process other than the appending one is in it)."""
        command = "SADD" if watching else "SREM"
        with reachable():
            await asyncio.gather(
                *(
                    self._link.execute(command, self._key(campaign_id, "watchers"), self._origin)
                    for campaign_id in campaign_ids
                )
            )

    def _pooled(self) -> contextlib.AbstractAsyncContextManager[None]:
        return bounded(self._timeout)

    @property
    def commands_in_flight(self) -> int:
        """Hot-path commands waiting for Redis to answer, for the metrics."""
        return self._link.in_flight

    @property
    def client(self) -> redis.asyncio.Redis | RedisCluster:
        """The underlying client, for tools that need raw commands (benchmarks, cleanup)."""
        return self._client

    def bot_table(self) -> RedisBotTable:
        """Bot seats and driver leases, on each campaign's slot (:mod:`server.store.leases`)."""
        from server.store.leases_redis import RedisBotTable

        return RedisBotTable(self._client, self._prefix, timeout=self._timeout)

    def analyses(self) -> RedisAnalyses:
        """Analyses kept beside each stream, on its slot (:mod:`server.store.analyses`)."""
        from server.store.analyses_redis import RedisAnalyses

        return RedisAnalyses(self._client, self._prefix, timeout=self._timeout)

    def _key(self, campaign_id: str, part: str) -> str:
        return f"{self._prefix}:{{{campaign_id}}}:{part}"

    async def _register(
        self, info: CampaignInfo, events: Sequence[bytes], point: bool | None
    ) -> CampaignInfo:
        fields = [
            "game", info.game,
            "head", str(info.head),
            "created_ms", str(info.created_ms),
            "updated_ms", str(info.updated_ms),
            "fork_version", str(info.fork_version),
            "listed", "1" if info.listed else "0",
        ]  # fmt: skip
        if not self._format.claimed:
            await self._format.claim()
        if info.parent is not None:
            fields += ["parent", info.parent]
        fields += attr_fields(info.attrs)
        first = info.head - len(events) + 1
        recorded = ""
        if point is not None or not events:
            fields += ["points_indexed", str(info.head)]
            recorded = str(info.head) if events and point else ""
        keys = [
            self._key(info.id, "meta"),
            self._key(info.id, "events"),
            self._key(info.id, "points"),
        ]
        async with self._pooled():
            created = await self._create_script(
                keys=keys, args=[len(fields), first, recorded, *fields, *events]
            )
            if not created:
                raise CampaignExists(info.id)
            # The catalog lives on another slot, so it is written after the campaign exists;
            # list_campaigns skips an id whose metadata is missing.
            await self._catalog.enter(info)
        return info

    async def _register_fork(
        self, info: CampaignInfo, events: Sequence[bytes], point: bool | None
    ) -> CampaignInfo:
        # Entered first: the index lives on the parent's slot (see redis_forks.py).
        entered = await self._forks.enter(info)
        try:
            return await self._register(info, events, point)
        except CampaignExists:
            if entered:
                await self._forks.withdraw(info)
            raise

    async def forks_of(
        self, campaign_id: str, *, after: ForkKey | None = None, limit: int = FORKS_PAGE
    ) -> list[CampaignInfo]:
        return await self._forks.page(campaign_id, after, limit)

    async def catalogue(self, campaign_id: str) -> None:
        info = await self.info(campaign_id)
        with reachable():
            async with self._pooled():
                await self._catalog.enter(info)

    async def add_attrs(self, campaign_id: str, attrs: dict[str, str]) -> None:
        await self.info(campaign_id)  # never a meta hash of attributes alone
        with reachable():
            await self._link.execute("HSET", self._key(campaign_id, "meta"), *attr_fields(attrs))

    async def info(self, campaign_id: str) -> CampaignInfo:
        if not self._format.checked:
            await self._format.check()
        with reachable():
            flat = await self._link.execute("HGETALL", self._key(campaign_id, "meta"))
        fields: Fields = dict(zip(flat[::2], flat[1::2], strict=True))
        if not fields:
            raise UnknownCampaign(campaign_id)
        info = parse_info(campaign_id, fields)
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
        point: bool | None = None,
    ) -> AppendResult:
        check_events(events)
        if not self._format.claimed:
            await self._format.claim()
        keys = [
            self._key(campaign_id, "meta"),
            self._key(campaign_id, "events"),
            self._key(campaign_id, "commands"),
            self._key(campaign_id, "changes"),
            self._key(campaign_id, "watchers"),
            self._key(campaign_id, "points"),
        ]
        args: list[bytes | str | int] = [
            expected_version,
            command_id or "",
            now_ms,
            self._origin,
            "" if point is None else str(int(point)),
            *events,
        ]
        with reachable():
            try:
                reply = await self._link.execute("EVALSHA", self._append_sha, 6, *keys, *args)
            except redis.exceptions.NoScriptError:
                # A Redis that restarted (or another server) does not know the script yet.
                await self._link.execute("SCRIPT", "LOAD", _APPEND_LUA)
                reply = await self._link.execute("EVALSHA", self._append_sha, 6, *keys, *args)
        match reply[0]:
            case b"ok":
                return AppendResult(first=reply[1], last=reply[2])
            case b"duplicate":
                first, last = parse_range(reply[1])
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
                out += stored_events(entries)
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
        with reachable():
            while True:
                raw = await self._link.execute("XRANGE", key, after + 1, "+", "COUNT", _PAGE)
                # Raw RESP: [[b"<version>-0", [b"e", payload]], ...]
                out += [StoredEvent(int(i.split(b"-", 1)[0]), f[1]) for i, f in raw]
                if len(raw) < _PAGE:
                    return out
                after = out[-1].version

    async def command_result(self, campaign_id: str, command_id: str) -> AppendResult | None:
        if not self._format.checked:
            await self._format.check()
        with reachable():
            exists, found = await asyncio.gather(
                self._link.execute("EXISTS", self._key(campaign_id, "meta")),
                self._link.execute("HGET", self._key(campaign_id, "commands"), command_id),
            )
        if not exists:
            raise UnknownCampaign(campaign_id)
        if found is None:
            return None
        first, last = parse_range(found)
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

    async def list_campaigns(
        self, *, offset: int = 0, limit: int = 50, listed_only: bool = False
    ) -> list[CampaignInfo]:
        if not self._format.checked:
            await self._format.check()
        return await self._catalog.page(offset, limit, listed_only=listed_only)

    # -- decision points (server.store.point_runs) ----------------------------------------

    async def _own_runs(self, campaign_id: str, at: int, down: int, up: int) -> OwnRuns:
        return await self._points.own_runs(campaign_id, at, down, up)

    async def record_points(
        self, campaign_id: str, since: int, through: int, points: Sequence[int]
    ) -> bool:
        return await self._points.record(campaign_id, since, through, points)

    async def open_format(self) -> None:
        await self._format.check()

    async def ping(self) -> None:
        # On the link, with a timeout of its own: a frozen Redis makes readiness fail within
        # the ping's timeout, not the commands'. The layout's format is read again with it.
        with reachable():
            try:
                await asyncio.wait_for(
                    asyncio.gather(self._link.execute("PING"), self._format.check_again()),
                    self._ping_timeout,
                )
            except TimeoutError:
                raise StoreUnavailable(
                    f"Redis did not answer a ping within {self._ping_timeout} s."
                ) from None

    async def close(self) -> None:
        with reachable():
            await self._link.close()
            await self._client.aclose()
            if self._feed is not None:
                await self._feed.close()
