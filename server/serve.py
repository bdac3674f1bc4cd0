"""Running the server: pick the store, build the app, hand it to uvicorn.

With a Redis URL the Redis Streams store is used (under the key prefix ``redis_prefix``); without
one the embedded SQLite store under the data directory. The first log line says which, the second
the address to open in a browser. With ``workers`` above 1 (Redis only), uvicorn runs that many
processes on one port, each building its app from the settings it inherits through the
environment, and keeping its metrics in a temporary directory made for the run
(:mod:`server.ops.metrics`), removed when the server stops.
"""

from __future__ import annotations

import functools
import logging
import os
import signal
import tempfile
from typing import Any

import uvicorn
from starlette.applications import Starlette

from server.app import create_app
from server.campaigns.service import CampaignService
from server.live.frames import MAX_FRAME
from server.ops import collector, logs
from server.ops.metrics import MULTIPROC_DIR
from server.ops.orphans import end_with_parent
from server.settings import Settings, as_environment, load
from server.store.formats import NewerFormat
from server.store.opening import describe_store, open_format, open_store
from server.throttle import Throttle
from server.ws.socket_protocol import GivingUpSocket

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
    """The app of one worker process (uvicorn's factory). A worker whose supervisor was killed
    shuts down as if told to (SIGTERM), rather than serve on with nobody to restart it."""
    end_with_parent(functools.partial(os.kill, os.getpid(), signal.SIGTERM))
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
    try:
        open_format(settings)
    except NewerFormat as error:
        # Stopped before listening: a server that answered 503 to everything would say less.
        log.error("%s", error)
        raise SystemExit(1) from None
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
