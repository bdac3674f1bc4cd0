"""Redis Cluster: the URL that selects it, the hot path's links (one per primary) and the change
feed's shards (a sharded Pub/Sub connection per primary, :mod:`server.store.redis_feed`).

A ``redis+cluster://host:port`` URL (``rediss+cluster://`` with TLS) names any node of a cluster;
the clients discover the others. Every key of a campaign carries its id as a hash tag, so each
command of the hot path names one slot and goes to the one primary that owns it, on that node's
pipelined link (:mod:`server.store.redis_link`). A slot that moved answers ``MOVED``: the slot map
is refreshed from the cluster and the command sent once more where it now lives. A slot half-way
through a migration answers ``ASK``: the command is sent once more, after ``ASKING``, to the node
importing it. A node that does not answer fails the command and has the slot map read again in
the background, so the commands after it follow a failover to the node's replica.
"""

from __future__ import annotations

import asyncio
import contextlib
import urllib.parse
from collections.abc import Callable
from typing import Any

import redis
import redis.exceptions
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.crc import key_slot

from server.store.redis_link import Link

_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
_TRY_AGAIN_S = 0.1
_KEYLESS = frozenset({"SCRIPT", "PING"})  # sent to every primary


def is_cluster_url(url: str) -> bool:
    return url.partition("://")[0] in _SCHEMES


def seed_url(url: str) -> str:
    """The plain ``redis://`` URL of the node a cluster URL names (itself for a plain URL)."""
    scheme, sep, rest = url.partition("://")
    return _SCHEMES.get(scheme, scheme) + sep + rest


def node_url(url: str, host: str, port: int) -> str:
    """A plain URL for another node, with the credentials and options of ``url``."""
    parts = urllib.parse.urlsplit(seed_url(url))
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@{host}:{port}" if userinfo else f"{host}:{port}"
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def primary_urls(url: str) -> list[str]:
    """Plain URLs of every primary of the cluster ``url`` names, or ``[url]`` for a single node
    (for tools that look at each node: cleaning a key prefix, counting connections)."""
    if not is_cluster_url(url):
        return [url]
    client = redis.Redis.from_url(seed_url(url), socket_connect_timeout=2, socket_timeout=5)
    try:
        ranges = client.execute_command("CLUSTER", "SLOTS")  # type: ignore[no-untyped-call]
    finally:
        client.close()
    primaries = {(bytes(r[2][0]).decode(), int(r[2][1])) for r in ranges}
    return [node_url(url, host, port) for host, port in sorted(primaries)]


def _key_of(args: tuple[Any, ...]) -> Any:
    """The key a hot-path command names (the first key of a script: they share a slot)."""
    return args[3] if args[0] == "EVALSHA" else args[1]


def _slot(key: str | bytes) -> int:
    return key_slot(key.encode() if isinstance(key, str) else key)


async def refresh_slots(cluster: RedisCluster) -> None:
    """Read the slot map from the cluster (concurrent callers share one read)."""
    if cluster.nodes_manager.slots_cache:
        await cluster.nodes_manager.initialize()
    else:
        await cluster.initialize()  # the first time: the cluster client's own setup


def _primaries(cluster: RedisCluster) -> dict[str, ClusterNode]:
    return {nodes[0].name: nodes[0] for nodes in cluster.nodes_manager.slots_cache.values()}


class ClusterLink:
    """The :class:`~server.store.redis_link.Link` interface over one link per primary."""

    def __init__(
        self,
        cluster: RedisCluster,
        connect: Callable[[ClusterNode], AbstractConnection],
        *,
        timeout: float,
    ) -> None:
        """``connect(node)`` makes an unconnected connection to ``node``; the slot map is the
        one ``cluster`` keeps (and refreshes when its own commands meet a moved slot)."""
        self._cluster = cluster
        self._make = connect
        self._timeout = timeout
        self._links: dict[str, Link] = {}
        self._refreshing: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def in_flight(self) -> int:
        """Commands sent (or about to be) whose replies have not come back yet, on all nodes."""
        return sum(link.in_flight for link in self._links.values())

    async def execute(self, *args: Any) -> Any:
        if args[0] in _KEYLESS:
            return await self._everywhere(*args)
        slot = _slot(_key_of(args))
        nodes = self._cluster.nodes_manager.slots_cache.get(slot)
        try:
            # The common case: the slot map is right and the node answers.
            return await self._link(nodes[0] if nodes else await self._owner(slot)).execute(*args)
        except redis.exceptions.MovedError as moved:  # (a subclass of AskError)
            await self.refresh()
            return await self._link(self._node_at(moved.host, moved.port)).execute(*args)
        except redis.exceptions.AskError as ask:
            return await self._link(self._node_at(ask.host, ask.port)).execute_asking(*args)
        except redis.exceptions.TryAgainError:
            # A script on a slot half-way through a move, whose keys are not all on one side
            # yet: the move takes milliseconds, so one more try a moment later.
            await asyncio.sleep(_TRY_AGAIN_S)
            return await self._link(await self._owner(slot, refresh=True)).execute(*args)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            # A node that does not answer may be failing over to a replica: the command fails
            # now, and the slot map is read again for the ones that follow.
            self._refresh_soon()
            raise

    def _refresh_soon(self) -> None:
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self._refresh_quietly())

    async def _refresh_quietly(self) -> None:
        with contextlib.suppress(
            redis.exceptions.RedisError, redis.exceptions.RedisClusterException, OSError
        ):
            await self.refresh()

    async def _owner(self, slot: int, *, refresh: bool = False) -> ClusterNode:
        nodes = self._cluster.nodes_manager.slots_cache.get(slot)
        if refresh or not nodes:
            await self.refresh()
            nodes = self._cluster.nodes_manager.slots_cache.get(slot)
            if not nodes:
                raise redis.exceptions.SlotNotCoveredError(f"No node serves slot {slot}.")
        return nodes[0]

    async def _everywhere(self, *args: Any) -> Any:
        """A command without a key (``SCRIPT LOAD``, ``PING``) on every primary; the first
        reply, once every primary has answered."""
        if not self._cluster.nodes_manager.slots_cache:
            await self.refresh()
        nodes = _primaries(self._cluster).values()
        replies = await asyncio.gather(*(self._link(node).execute(*args) for node in nodes))
        return replies[0]

    async def refresh(self) -> None:
        await refresh_slots(self._cluster)
        live = _primaries(self._cluster)
        gone = [self._links.pop(name) for name in list(self._links) if name not in live]
        await asyncio.gather(*(link.close() for link in gone))

    def _node_at(self, host: str, port: int) -> ClusterNode:
        manager = self._cluster.nodes_manager
        node = manager.get_node(host=host, port=port)
        return node or ClusterNode(host, port, **manager.connection_kwargs)

    def _link(self, node: ClusterNode) -> Link:
        link = self._links.get(node.name)
        if link is None:
            if self._closed:  # a link made now would never be closed
                raise redis.exceptions.ConnectionError("The Redis link is closed.")
            link = self._links[node.name] = Link(lambda: self._make(node), timeout=self._timeout)
        return link

    async def close(self) -> None:
        self._closed = True
        if self._refreshing is not None:
            self._refreshing.cancel()
            await asyncio.gather(self._refreshing, return_exceptions=True)
        links, self._links = list(self._links.values()), {}
        await asyncio.gather(*(link.close() for link in links))


class ClusterShards:
    """The primaries of a cluster as the change feed's shards (:mod:`server.store.redis_feed`):
    a shard channel lives on the node that owns its slot."""

    def __init__(
        self, cluster: RedisCluster, client_for: Callable[[str, int], redis.asyncio.Redis]
    ) -> None:
        """``client_for(host, port)`` makes a client for one node's Pub/Sub connection."""
        self._cluster = cluster
        self._client_for = client_for
        self._clients: dict[str, redis.asyncio.Redis] = {}

    def names(self) -> list[str]:
        return sorted(_primaries(self._cluster))

    def of(self, channel: str) -> str:
        nodes = self._cluster.nodes_manager.slots_cache.get(_slot(channel))
        if not nodes:
            raise redis.exceptions.SlotNotCoveredError(f"No node serves channel {channel}.")
        return nodes[0].name

    def batches(self, channels: list[str]) -> list[list[str]]:
        # The shard channels of one SSUBSCRIBE must share a slot.
        by_slot: dict[int, list[str]] = {}
        for channel in channels:
            by_slot.setdefault(_slot(channel), []).append(channel)
        return list(by_slot.values())

    def client(self, shard: str) -> redis.asyncio.Redis:
        client = self._clients.get(shard)
        if client is None:
            node = _primaries(self._cluster).get(shard)
            if node is None:  # the slot map changed since the shard was named
                raise redis.exceptions.ClusterError(f"{shard} is no longer a primary.")
            client = self._clients[shard] = self._client_for(node.host, int(node.port))
        return client

    async def refresh(self) -> None:
        await refresh_slots(self._cluster)
        live = _primaries(self._cluster)
        gone = [self._clients.pop(name) for name in list(self._clients) if name not in live]
        await asyncio.gather(*(client.aclose() for client in gone))

    async def close(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        await asyncio.gather(*(client.aclose() for client in clients))
