"""Connecting the Redis store: its settings, its command pool and its change feed's clients."""

from __future__ import annotations

import os

import msgspec
import redis.asyncio
import redis.exceptions
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff

from server.store.redis_cluster import ClusterShards, is_cluster_url, node_url, seed_url
from server.store.redis_feed import OneRedis, Shards


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


def client_name() -> str:
    """How this process names its Redis connections (``CLIENT LIST`` shows who holds what)."""
    return f"tabletale:{os.getpid()}"


def resp2_connection(node: ClusterNode) -> redis.asyncio.Connection:
    """A connection to ``node`` that speaks RESP2 (the links read one reply shape)."""
    return node.connection_class(**{**node.connection_kwargs, "protocol": 2})


def connect(url: str, settings: RedisSettings) -> tuple[redis.asyncio.Redis | RedisCluster, Shards]:
    """The command client for ``url`` and where its change feed connects."""
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
        return cluster, shards
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        url,
        max_connections=settings.max_connections,
        timeout=settings.pool_timeout_s,
        **options,
    )
    return redis.asyncio.Redis.from_pool(pool), OneRedis(feed_client(url))
