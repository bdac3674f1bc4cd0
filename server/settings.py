"""The server's settings: one typed object, read from ``TABLETALE_*`` environment variables and
overridden by command-line flags, in this one place.

Every field ``name`` is read from the variable ``TABLETALE_<NAME>`` (``TABLETALE_REDIS_URL``,
``TABLETALE_WORKERS``, ...). Worker processes receive the parent's settings the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal

import limits
import msgspec

from server.ops.logs import LogFormat

PREFIX = "TABLETALE_"

OFF = ("", "0", "off", "none")
"""Rates that turn a limit off (an environment variable cannot be set to nothing)."""

BotPriority = Literal["idle", "low", "normal"]


class BotSettings(msgspec.Struct, frozen=True, kw_only=True):
    """What the bot driver reads of the settings (``TABLETALE_BOT_*``, :meth:`Settings.bots`)."""

    pace_ms: int = 800
    """How long a bot waits, from the moment it may act, before its move shows."""
    lease_ms: int = 5_000
    """How long a driver's lease lasts unless renewed (renewed every third of it)."""
    workers: int = 1
    """Processes that bots think in (0: one thread beside the event loop)."""
    priority: BotPriority = "idle"
    """How those processes stand back for the server (:func:`server.bots.thinking.start_worker`)."""
    poll_s: float = 1.0
    """How often a driven campaign is read when nothing told this process it changed."""
    away_s: float = 60.0
    """How long a seat's player must have been away before the others may hand it to a bot."""


class LimitSettings(msgspec.Struct, frozen=True, kw_only=True):
    """What the throttle reads of the settings (``TABLETALE_LIMIT_*``, :meth:`Settings.limits`).

    Each rate in the ``limits`` notation (``"60/minute"``, ``"10 per second"``); ``off``
    (or ``0``, or an empty string) turns a limit off, and so does 0 for a number."""

    creations: str = "60/minute"
    """Campaigns (and forks) one client may create."""
    failed_auth_per_client: str = "30/minute"
    """Tokens that open no seat, per client. Past it, the client's tokens are refused (even a
    right one) until the window ends, so guessing cannot go on at speed."""
    failed_auth_per_campaign: str = "300/minute"
    """Tokens that open no seat of one campaign, from any client (a guessing botnet)."""
    sockets_per_client: int = 256
    """Sockets one client may hold open at once, over every process."""
    socket_lease_s: int = 3600
    """How long the count of a client's sockets outlives its last opening: the sockets of a
    process that crashed stop counting after this."""
    messages_per_second: float = 50.0
    """Messages one socket may send per second, on average..."""
    message_burst: int = 100
    """...and at once."""

    def check(self) -> None:
        for name in ("creations", "failed_auth_per_client", "failed_auth_per_campaign"):
            value = getattr(self, name)
            if value.strip().lower() not in OFF:
                try:
                    limits.parse(value)
                except ValueError:
                    raise ValueError(f"The limit {name} = {value!r} is not a rate.") from None
        if self.messages_per_second < 0 or self.message_burst < 0 or self.sockets_per_client < 0:
            raise ValueError("Limits are numbers from 0 (no limit) up.")


class Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    """Server processes sharing the port (Redis store only)."""
    worker_healthcheck_s: int = 30
    """With ``workers`` above 1: how long a worker may take to answer its supervisor's health
    check (at start, while it imports and opens its store, and after) before it is taken for
    hung and replaced. uvicorn's own 5 s let a busy machine kill healthy workers as they
    started, one after another."""
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
    redis_ping_timeout_s: float = 0.5
    """How long ``/readyz`` waits for Redis to answer a ping before reporting not ready."""
    head_cache: int = 1024
    """Campaign heads each process keeps in memory besides the ones sockets watch."""
    head_audit_interval_s: float = 5.0
    """How often each process checks the campaigns its sockets watch against Redis, so that a
    Redis that lost its last writes is noticed even on a campaign where nobody acts (one short
    read per watched campaign; 0 turns it off)."""
    gc_young_threshold: int = 20_000
    """Container allocations between the garbage collector's young collections (CPython's
    default is 700; 0 keeps it). Fewer collections promote fewer short-lived objects, which keeps
    the full collections that pause the event loop rare and short (:mod:`server.ops.collector`)."""
    presence_refresh_s: float = 20.0
    """How often a process shares again who is connected to a campaign while other processes
    serve sockets of it too; a process silent for three times as long (it died) is no longer
    counted."""
    catalog_interval_s: float = 30.0
    """How often the catalog and statistics are brought up to date in the background."""
    ws_ping_interval_s: float = 45.0
    """How often the server pings a socket to find peers that vanished (one that does not answer
    within as long again is closed); each ping costs CPU per socket, which adds up with tens of
    thousands of idle sockets."""
    http_keep_alive_s: float = 65.0
    """How long an idle HTTP connection stays open for the next request. Above the pool expiry of
    common clients (httpx, browsers) and of load balancers (60 s is usual), so that the client,
    not the server, closes an idle connection: when the server closes first, a request sent at
    that instant meets a closed socket and fails (uvicorn's own 5 s equals httpx's expiry)."""
    ws_stall_timeout_s: float = 5.0
    """How long a socket's backlog may stay full (the peer reads nothing, so the server cannot
    write to it) before the server aborts it, freeing its buffers; a close that has not flushed
    within as long is an abort too (docs/reliability.md, "Sockets that stop reading")."""
    ws_send_buffer_kib: int = 64
    """The kernel's send buffer per socket (``SO_SNDBUF``; Linux keeps twice as much; 0: the
    kernel's own, which grows to megabytes on a fast link): what a socket that stopped reading
    holds in the kernel, and how soon its backlog counts as full."""
    ws_protocol: Literal["websockets-sansio", "websockets", "wsproto"] = "websockets-sansio"
    """uvicorn's implementation of the socket protocol, named so that no other uvicorn's default
    applies. The sans-I/O one (uvicorn's own default since 0.50) keeps no tasks per socket and
    pings on timers: against the legacy ``websockets`` one an idle socket costs ~8 KiB less and a
    move ~10% less CPU (docs/performance.md)."""
    ws_compression: bool = False
    """permessage-deflate on sockets: smaller frames for much more CPU; frames are small."""
    limit_creations: str = "60/minute"
    """Campaigns and forks one client may create (a rate such as ``60/minute``; ``off``: no
    limit). A client is a peer address; these limits are counted in Redis, across processes."""
    limit_failed_auth_per_client: str = "30/minute"
    """Tokens that open no seat, per client; past it the client's tokens are refused for the
    rest of the window."""
    limit_failed_auth_per_campaign: str = "300/minute"
    """Tokens that open no seat of one campaign, from any client."""
    limit_sockets_per_client: int = 256
    """Sockets one client may hold open at once, over every process (0: no limit)."""
    limit_messages_per_second: float = 50.0
    """Messages one socket may send per second on average (0: no limit)..."""
    limit_message_burst: int = 100
    """...and at once."""
    bot_pace_ms: int = 800
    """How long a bot seat waits before its move shows, so that people can follow (0: at once)."""
    bot_lease_ms: int = 5_000
    """How long one process's hold on a campaign's bots lasts unless renewed: a process that dies
    is replaced as the campaign's bot driver within about this long."""
    bot_workers: int = 1
    """Processes that bots think in, beside the event loop (0: one thread)."""
    bot_priority: BotPriority = "idle"
    """How the bots' processes stand back when the machine is busy: ``idle``, they think only
    with CPU nothing else wants (Linux's SCHED_IDLE; elsewhere as ``low``), so their moves slow
    down under load rather than anyone's round trip; ``low``, nice 19; ``normal``, as the
    server."""
    bot_poll_s: float = 1.0
    """How often a driven campaign is looked at when no change of it reached this process."""
    bot_away_s: float = 60.0
    """How long a seat's player must have been away (no socket, no move) before the others may
    hand the seat to a bot."""
    log_format: LogFormat = "plain"
    """``json``: one JSON object per log line; every line carries its campaign and command ids
    either way (:mod:`server.ops.logs`)."""

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
        if self.presence_refresh_s <= 0:
            raise ValueError("presence_refresh_s must be above 0.")
        if self.http_keep_alive_s <= 0:
            raise ValueError("http_keep_alive_s must be above 0.")
        if self.ws_stall_timeout_s <= 0:
            raise ValueError("ws_stall_timeout_s must be above 0.")
        if self.ws_send_buffer_kib < 0:
            raise ValueError("ws_send_buffer_kib must be 0 (the kernel's own) or more.")
        if self.gc_young_threshold < 0:
            raise ValueError("gc_young_threshold must be 0 (CPython's default) or more.")
        if self.bot_pace_ms < 0 or self.bot_workers < 0:
            raise ValueError("bot_pace_ms and bot_workers must be 0 or more.")
        if self.bot_lease_ms < 300 or self.bot_poll_s <= 0:
            raise ValueError("bot_lease_ms must be at least 300 and bot_poll_s above 0.")
        self.limits().check()

    def bots(self) -> BotSettings:
        return BotSettings(
            pace_ms=self.bot_pace_ms,
            lease_ms=self.bot_lease_ms,
            workers=self.bot_workers,
            priority=self.bot_priority,
            poll_s=self.bot_poll_s,
            away_s=self.bot_away_s,
        )

    def limits(self) -> LimitSettings:
        return LimitSettings(
            creations=self.limit_creations,
            failed_auth_per_client=self.limit_failed_auth_per_client,
            failed_auth_per_campaign=self.limit_failed_auth_per_campaign,
            sockets_per_client=self.limit_sockets_per_client,
            messages_per_second=self.limit_messages_per_second,
            message_burst=self.limit_message_burst,
        )


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
