"""Naming a store by one URL, for the tools that move campaigns between stores.

- ``sqlite:PATH`` (``sqlite:///abs/path``): the embedded SQLite store in the file ``PATH``, or in
  ``PATH/tabletale.sqlite3`` when ``PATH`` is a folder (the server's ``--data-dir``);
- ``redis://host:port/db`` (``rediss://`` with TLS): a Redis;
- ``redis+cluster://host:port`` (``rediss+cluster://``): any node of a Redis Cluster.

A store is named the same way for every command and the server: the ``TABLETALE_*`` settings
(``server/settings.py``) apply to a URL too. A Redis URL takes its key prefix from
``TABLETALE_REDIS_PREFIX`` (default ``tt``) and its connection limits and timeouts from the
``TABLETALE_REDIS_*`` settings; ``?prefix=P`` at the end of the URL wins over the setting.
Without a URL the tools use the server's own settings (``TABLETALE_REDIS_URL`` or
``TABLETALE_DATA_DIR``), unless ``TABLETALE_STORE`` names one.
"""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

from server.settings import Settings, load
from server.store.contract import EventStore
from server.store.opening import SQLITE_FILE, describe_store, open_store, redis_settings

STORE_VARIABLE = "TABLETALE_STORE"
_REDIS_SCHEMES = ("redis", "rediss", "redis+cluster", "rediss+cluster")


class StoreUrl:
    """A parsed store URL: ``sqlite`` with a path, or a Redis URL with a key prefix.

    ``settings`` (by default the ``TABLETALE_*`` variables) give what the URL leaves out."""

    def __init__(self, url: str, *, settings: Settings | None = None) -> None:
        scheme, sep, rest = url.partition(":")
        if not sep or not rest:
            raise ValueError(f"{url!r} names no store; see `tabletale migrate --help`.")
        self.settings = load() if settings is None else settings
        self.url = url
        self.scheme = scheme
        self.path: Path | None = None
        self.redis_url: str | None = None
        self.prefix = self.settings.redis_prefix
        if scheme == "sqlite":
            path = Path(rest[2:] if rest.startswith("//") else rest)
            self.path = path / SQLITE_FILE if path.is_dir() else path
        elif scheme in _REDIS_SCHEMES:
            parts = urllib.parse.urlsplit(url)
            query = urllib.parse.parse_qs(parts.query)
            self.prefix = query.pop("prefix", [self.prefix])[-1]
            rest_query = urllib.parse.urlencode(query, doseq=True)
            self.redis_url = urllib.parse.urlunsplit(parts._replace(query=rest_query))
        else:
            raise ValueError(
                f"{url!r} is not a store URL: sqlite:PATH, redis://, rediss://, "
                "redis+cluster:// or rediss+cluster://."
            )

    def open(self) -> EventStore:
        if self.path is not None:
            from server.store.sqlite import SqliteStore

            return SqliteStore(self.path)
        assert self.redis_url is not None
        from server.store.redis_store import RedisStore

        return RedisStore.from_url(
            self.redis_url, prefix=self.prefix, settings=redis_settings(self.settings)
        )

    def describe(self) -> str:
        if self.path is not None:
            return f"the SQLite store at {self.path}"
        assert self.redis_url is not None
        from server.store.redis_cluster import is_cluster_url

        kind = "Redis Cluster" if is_cluster_url(self.redis_url) else "Redis"
        host = urllib.parse.urlsplit(self.redis_url).hostname
        port = urllib.parse.urlsplit(self.redis_url).port
        return f"the {kind} store at {host}:{port} (key prefix {self.prefix!r})"


def open_named(url: str | None) -> tuple[EventStore, str]:
    """The store ``url`` names (else ``$TABLETALE_STORE``, else the server's settings) and a
    phrase that says which it is."""
    url = url or os.environ.get(STORE_VARIABLE)
    if url:
        named = StoreUrl(url)
        return named.open(), named.describe()
    settings = load()
    return open_store(settings), describe_store(settings).removeprefix("Using ").rstrip(".")
