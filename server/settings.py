"""The server's settings: one typed object, read from ``TABLETALE_*`` environment variables and
overridden by command-line flags, in this one place.

Every field ``name`` is read from the variable ``TABLETALE_<NAME>`` (``TABLETALE_REDIS_URL``,
``TABLETALE_WORKERS``, ...). Worker processes receive the parent's settings the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import msgspec

PREFIX = "TABLETALE_"


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    """Server processes sharing the port (Redis store only)."""
    redis_url: str | None = None
    """Without one, the embedded SQLite store under ``data_dir``. ``redis://host:port/db`` names
    one Redis; ``redis+cluster://host:port`` (``rediss+cluster://`` with TLS) any node of a Redis
    Cluster, whose other nodes the server finds itself."""
    redis_prefix: str = "tt"
    data_dir: str = "data"
    redis_max_connections: int = 32
    """Command connections per process (per node on a cluster); the change feed holds one more
    of its own (one per node on a cluster)."""
    redis_pool_timeout_s: float = 2.0
    """How long a command waits for a free connection before the store is unavailable."""
    redis_connect_timeout_s: float = 2.0
    redis_socket_timeout_s: float = 2.0
    """How long one Redis command may take before the store is unavailable."""
    head_cache: int = 1024
    """Campaign heads each process keeps in memory besides the ones sockets watch."""
    catalog_interval_s: float = 30.0
    """How often the catalog and statistics are brought up to date in the background."""
    ws_ping_interval_s: float = 45.0
    """How often the server pings a socket to find peers that vanished (one that does not answer
    within as long again is closed); each ping costs CPU per socket, which adds up with tens of
    thousands of idle sockets."""
    ws_compression: bool = False
    """permessage-deflate on sockets: smaller frames for much more CPU; frames are small."""

    def check(self) -> None:
        """Raise ValueError for settings that cannot work together."""
        if self.workers < 1:
            raise ValueError("--workers must be at least 1.")
        if self.workers > 1 and not self.redis_url:
            raise ValueError(
                "--workers above 1 needs the Redis store (--redis-url): the embedded SQLite "
                "store belongs to one process, which delivers every commit to its own sockets."
            )
        for name in ("redis_max_connections", "head_cache"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1.")


def environment_name(field: str) -> str:
    return PREFIX + field.upper()


def load(environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
    """Settings from ``environ`` (default: the process's), then ``overrides`` that are not None."""
    environ = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    for field in Settings.__struct_fields__:
        value = environ.get(environment_name(field))
        if value is not None and value != "":
            raw[field] = value
    raw.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return msgspec.convert(raw, Settings, strict=False)
    except msgspec.ValidationError as error:
        raise ValueError(f"A setting is not valid: {error}.") from None


def as_environment(settings: Settings) -> dict[str, str]:
    """``settings`` as the variables :func:`load` reads (for worker processes)."""
    out: dict[str, str] = {}
    for field in Settings.__struct_fields__:
        value = getattr(settings, field)
        if value is None:
            continue
        out[environment_name(field)] = str(value).lower() if isinstance(value, bool) else str(value)
    return out
