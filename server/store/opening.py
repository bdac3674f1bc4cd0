"""Choosing and opening the event store from the settings (CLI and server alike)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from server.settings import Settings
from server.store.contract import EventStore

if TYPE_CHECKING:
    from server.store.redis_connect import RedisSettings

SQLITE_FILE = "tabletale.sqlite3"


def open_store(settings: Settings) -> EventStore:
    """The Redis store when a URL is set, else the embedded SQLite store under ``data_dir``."""
    if settings.redis_url:
        from server.store.redis_store import RedisStore

        return RedisStore.from_url(
            settings.redis_url, prefix=settings.redis_prefix, settings=redis_settings(settings)
        )
    from server.store.sqlite import SqliteStore

    return SqliteStore(Path(settings.data_dir) / SQLITE_FILE)


def redis_settings(settings: Settings) -> RedisSettings:
    """How a Redis store talks to its Redis, as the ``TABLETALE_REDIS_*`` settings say."""
    from server.store.redis_connect import RedisSettings

    return RedisSettings(
        max_connections=settings.redis_max_connections,
        pool_timeout_s=settings.redis_pool_timeout_s,
        connect_timeout_s=settings.redis_connect_timeout_s,
        socket_timeout_s=settings.redis_socket_timeout_s,
        ping_timeout_s=settings.redis_ping_timeout_s,
    )


def open_format(settings: Settings) -> None:
    """Bring the store's own format up to this release's once, before a server listens: the
    SQLite file migrated (a copy kept first), the Redis layout's format checked. Raises
    :class:`~server.store.formats.NewerFormat` for a store a newer release wrote."""

    async def settle() -> None:
        store = open_store(settings)
        try:
            await store.open_format()
        finally:
            await store.close()

    asyncio.run(settle())


def describe_store(settings: Settings) -> str:
    """A sentence that says which store ``settings`` open."""
    if settings.redis_url:
        from server.store.redis_cluster import is_cluster_url

        kind = "Redis Cluster" if is_cluster_url(settings.redis_url) else "Redis"
        return (
            f"Using the {kind} event store at {_safe(settings.redis_url)} "
            f"(key prefix {settings.redis_prefix!r})."
        )
    path = Path(settings.data_dir) / SQLITE_FILE
    return f"Using the embedded SQLite event store at {path} (no Redis URL)."


def _safe(url: str) -> str:
    """``url`` without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest
