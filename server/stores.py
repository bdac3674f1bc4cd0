"""Choosing and opening the event store from configuration."""

from __future__ import annotations

from pathlib import Path

from server.store.base import EventStore

SQLITE_FILE = "tabletale.sqlite3"


def describe_store(*, redis_url: str | None, data_dir: str) -> str:
    if redis_url:
        return f"Redis Streams store at {redis_url}"
    return f"embedded SQLite store at {Path(data_dir) / SQLITE_FILE} (no Redis URL given)"


async def open_store(*, redis_url: str | None, data_dir: str, prefix: str = "tt") -> EventStore:
    """The Redis store when a URL is given, else the embedded SQLite store under ``data_dir``."""
    if redis_url:
        from server.store.redis import RedisStore

        return RedisStore.from_url(redis_url, prefix=prefix)
    from server.store.sqlite import SqliteStore

    Path(data_dir).mkdir(parents=True, exist_ok=True)
    return SqliteStore(Path(data_dir) / SQLITE_FILE)
