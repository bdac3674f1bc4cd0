"""Running the server: pick the store, build the app, hand it to uvicorn.

With a Redis URL the Redis Streams store is used (under the key prefix ``redis_prefix``); without
one the embedded SQLite store under the data directory. The first log line says which, the second
the address to open in a browser. With ``workers`` above 1 (Redis only), uvicorn runs that many
processes on one port, each building its app from the settings it inherits through the
environment, and keeping its metrics in a temporary directory made for the run
(:mod:`server.metrics`), removed when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import struct
import tempfile
from typing import Any

import uvicorn
from starlette.applications import Starlette
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from server import collector, logs
from server.app import create_app
from server.metrics import MULTIPROC_DIR
from server.service import CampaignService
from server.settings import Settings, as_environment, load
from server.stores import describe_store, open_store
from server.throttle import Throttle
from server.ws.frames import MAX_FRAME
from server.ws.session import MISSED_PONG, STALLED

log = logging.getLogger("tabletale.serve")


def build_app(settings: Settings) -> Starlette:
    store = open_store(settings)
    service = CampaignService(store, cache_size=settings.head_cache)
    app = create_app(
        service,
        catalog_interval=settings.catalog_interval_s,
        audit_interval=settings.head_audit_interval_s,
        presence_refresh=settings.presence_refresh_s,
        throttle=open_throttle(settings),
        close_store=True,
    )
    collector.tune(settings.gc_young_threshold)  # in each worker: after its app is built
    return app


def open_throttle(settings: Settings) -> Throttle:
    """The clients' limits, counted where every process sees them: in Redis when the server
    uses Redis, else in this process (the embedded store belongs to one process)."""
    if settings.redis_url:
        return Throttle.on_redis(
            settings.redis_url,
            settings.limits(),
            prefix=settings.redis_prefix,
            timeout=settings.redis_socket_timeout_s,
        )
    return Throttle.in_memory(settings.limits())


def app_from_environment() -> Starlette:
    """The app of one worker process (uvicorn's factory)."""
    return build_app(load())


def browser_url(settings: Settings) -> str:
    """The address to open the browser client at (a wildcard host is reached on loopback)."""
    host = settings.host
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "[::1]"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.port}/"


WRITE_HIGH_WATER = 16 * 1024
"""Bytes a socket's transport may hold before writing pauses (asyncio's and uvloop's default is
64 KiB); the kernel's send buffer (``ws_send_buffer_kib``) does the rest of the buffering."""

_RESET = struct.pack("ii", 1, 0)
"""``SO_LINGER`` on, for 0 s: closing the socket resets the connection and drops what the
kernel still holds for the peer, instead of keeping it for minutes of retransmissions."""


class GivingUpSocket(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O socket protocol, which gives up on a peer that stopped reading.

    uvicorn closes a socket by queueing a close frame and calling ``transport.close()``, which
    waits for the write buffer to drain first; for a peer that reads nothing it never drains, so
    the socket, its buffers and its session stayed for good (a missed pong too: the close frame
    queued behind the backlog), and a server stopping waited on them. Here the kernel's send
    buffer is bounded (``send_buffer``), and a transport is aborted when its writing stays paused
    (its buffer above its high-water mark) for ``stall_timeout`` seconds, when it misses its pong
    with frames still waiting, or when a close has not flushed within ``stall_timeout``. Before
    an abort the app is told why (``websocket.disconnect`` with the reason :data:`STALLED` or
    :data:`MISSED_PONG`), so the session ends, leaves the fan-out and presence and counts it; the
    abort drops the buffers and resets the connection.
    """

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        stall_timeout: float,
        send_buffer: int,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.stall_timeout = stall_timeout
        self.send_buffer = send_buffer
        self.stall_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # uvicorn writes a frame only while the transport is below its high-water mark, so this
        # is what a socket holds in the process besides its outbox's frames (shared with other
        # sockets) until it is given up on.
        self.transport.set_write_buffer_limits(high=WRITE_HIGH_WATER)
        raw = transport.get_extra_info("socket")
        if raw is not None and self.send_buffer:
            # The kernel's own, which grows to megabytes on a fast link, for a reader that may
            # have stopped: past this, frames wait in the transport, where a stall is seen.
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.stall_timer is None:
            self.stall_timer = self.loop.call_later(self.stall_timeout, self.give_up, STALLED)

    def resume_writing(self) -> None:
        super().resume_writing()
        if not self.transport.is_closing():  # a closing one has until it has flushed
            self._cancel_stall_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_stall_timer()
        super().connection_lost(exc)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        if self.transport.get_write_buffer_size():
            self.give_up(MISSED_PONG)  # it did not read our ping; it will not read a close

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.close" and self.close_timer is not None:
            # uvicorn's timer would close() a transport that may never flush: abort instead.
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, self._close_now)

    async def run_asgi(self) -> None:
        await super().run_asgi()
        self._abort_unless_flushed()

    def shutdown(self) -> None:
        super().shutdown()
        self._abort_unless_flushed()

    def give_up(self, reason: str) -> None:
        self.stall_timer = None
        if self.disconnected:
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": 1006, "reason": reason})
        raw = self.transport.get_extra_info("socket")
        if raw is not None:
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
        self.transport.abort()

    def _close_now(self) -> None:
        self.transport.close()
        if self.transport.get_write_buffer_size():
            self.give_up(STALLED)

    def _abort_unless_flushed(self) -> None:
        """A closing transport that still holds frames has ``stall_timeout`` to flush them."""
        if (
            not self.disconnected
            and self.stall_timer is None
            and self.transport.get_write_buffer_size()
        ):
            self.stall_timer = self.loop.call_later(self.stall_timeout, self.give_up, STALLED)

    def _cancel_stall_timer(self) -> None:
        if self.stall_timer is not None:
            self.stall_timer.cancel()
            self.stall_timer = None


def socket_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's socket options for ``settings`` (tests serve with these too)."""
    protocol: Any = settings.ws_protocol
    if protocol == "websockets-sansio":
        protocol = functools.partial(
            GivingUpSocket,
            stall_timeout=settings.ws_stall_timeout_s,
            send_buffer=settings.ws_send_buffer_kib * 1024,
        )
    return dict(
        ws=protocol,
        # uvicorn's own limit sits above the app's, so the app is the one that answers an
        # oversized frame (close code 1009) and a runaway frame is still cut off early.
        ws_max_size=MAX_FRAME * 4,
        ws_per_message_deflate=settings.ws_compression,
        ws_ping_interval=settings.ws_ping_interval_s,
        ws_ping_timeout=settings.ws_ping_interval_s,
        timeout_keep_alive=settings.http_keep_alive_s,
    )


def serve(settings: Settings) -> None:
    settings.check()
    logs.configure(settings.log_format)
    log.info(describe_store(settings))
    log.info("Open %s in a browser.", browser_url(settings))
    options = dict(
        host=settings.host,
        port=settings.port,
        **socket_options(settings),
        log_config=logs.config(settings.log_format),
        log_level="info",
        proxy_headers=True,
    )
    if settings.workers > 1:
        os.environ.update(as_environment(settings))
        # Fresh for every run: files left by an earlier run would count its actions again.
        with tempfile.TemporaryDirectory(prefix="tabletale-metrics-") as metrics_dir:
            os.environ[MULTIPROC_DIR] = metrics_dir
            try:
                uvicorn.run(
                    "server.serve:app_from_environment",
                    factory=True,
                    workers=settings.workers,
                    **options,
                )
            finally:
                del os.environ[MULTIPROC_DIR]
    else:
        uvicorn.run(build_app(settings), **options)
