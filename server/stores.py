"""Choosing and opening the event store from configuration (CLI and server alike)."""

from __future__ import annotations

import os
from pathlib import Path

from server.store.base import EventStore

SQLITE_FILE = "tabletale.sqlite3"
PREFIX_VARIABLE = "TABLETALE_REDIS_PREFIX"


def open_store(*, redis_url: str | None, data_dir: str) -> tuple[EventStore, str]:
    """The Redis store when a URL is given, else the embedded SQLite store under ``data_dir``,
    with a sentence that says which. ``TABLETALE_REDIS_PREFIX`` sets the Redis key prefix."""
    if redis_url:
        from server.store.redis import RedisStore

        prefix = os.environ.get(PREFIX_VARIABLE, "tt")
        store = RedisStore.from_url(redis_url, prefix=prefix)
        return store, f"Using the Redis event store at {_safe(redis_url)} (key prefix {prefix!r})."
    from server.store.sqlite import SqliteStore

    path = Path(data_dir) / SQLITE_FILE
    return SqliteStore(path), f"Using the embedded SQLite event store at {path} (no Redis URL)."


def _safe(url: str) -> str:
    """``url`` without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest
