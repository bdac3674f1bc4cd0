"""A real server on a free loopback port, and small clients that speak its protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from websockets.asyncio.client import ClientConnection, connect

from clients.replica import Replica
from domain.core.rng import word
from server.app import create_app
from server.campaigns.fresh import Fresh
from server.campaigns.service import CampaignService
from server.serve import socket_options
from server.settings import Settings
from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix

READY_TIMEOUT_S = 60.0
REPRODUCIBLE_SEED = 7
RECV_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_ready(base: str, *, timeout: float = READY_TIMEOUT_S, path: str = "/healthz") -> None:
    """Poll ``path`` until it answers 200, or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last: object = None
    with httpx.Client(timeout=1.0) as client:
        while time.monotonic() < deadline:
            try:
                if client.get(base + path).status_code == 200:
                    return
            except httpx.TransportError as error:
                last = error
            threading.Event().wait(0.02)  # a poll interval, not a wait for an outcome
    raise TimeoutError(f"{base}{path} did not answer within {timeout} s (last: {last!r}).")


class Reproducible(Fresh):
    """Fresh campaign ids, but seeds counted from a fixed start and one salt for every campaign
    (shaped like a real one: 16 hex digits). Chance is keyed by the seed and the salt together,
    so a test's campaigns play the same games on every run, seeded or not."""

    def __init__(self) -> None:
        self._seeds = 0

    def seed(self) -> int:
        self._seeds += 1
        return word(REPRODUCIBLE_SEED, self._seeds)

    def salt(self) -> str:
        return "7e57" * 4


class Live:
    def __init__(self, port: int) -> None:
        self.port = port
        self.redis_url: str | None = None
        self.prefix: str | None = None
        """The store the server uses, for tests that look behind it."""
        self.process: subprocess.Popen[bytes] | None = None
        """The server's own process, when it runs in one (to kill it)."""
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"


@contextlib.contextmanager
def running(app: Starlette, settings: Settings | None = None) -> Iterator[Live]:
    """Serve ``app`` with uvicorn in a thread until the block ends, with the socket options of
    ``settings`` (the defaults: as `tabletale serve` serves sockets)."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        **socket_options(settings or Settings()),
    )
    server = Stoppable(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn:{port}", daemon=True)
    thread.start()
    try:
        wait_ready(f"http://127.0.0.1:{port}")
        yield Live(port)
    finally:
        server.stop()
        thread.join(timeout=15)


class Stoppable(uvicorn.Server):
    """uvicorn's server, which begins its shutdown as soon as :meth:`stop` is called from another
    thread: uvicorn's own loop looks at ``should_exit`` once every tick (0.1 s), and every server
    a test starts would wait for that tick at its end. Its ticks still run every 0.1 s."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._stopping: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    async def main_loop(self) -> None:
        stopping = asyncio.Event()
        self._stopping = (asyncio.get_running_loop(), stopping)
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), 0.1)  # the tick, or a stop sooner

    def stop(self) -> None:
        self.should_exit = True
        if self._stopping is not None:
            loop, stopping = self._stopping
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                loop.call_soon_threadsafe(stopping.set)


@pytest.fixture
def live(redis_url: str) -> Iterator[Live]:
    """The real server on the real Redis, under a key prefix of its own that is deleted after.

    Its campaigns are :class:`Reproducible`: a test plays the same games on every run."""
    with on_redis(redis_url, Reproducible()) as server:
        yield server


@contextlib.contextmanager
def on_redis(redis_url: str, fresh: Fresh | None) -> Iterator[Live]:
    """The server on ``redis_url`` under a key prefix of its own, deleted after; ``fresh``
    gives its ids, seeds and salts (None: random ones, as in production)."""
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    store = RedisStore.from_url(redis_url, prefix=prefix)
    app = create_app(CampaignService(store, fresh=fresh), close_store=True)
    try:
        with running(app) as server:
            server.redis_url, server.prefix = redis_url, prefix
            yield server
    finally:
        # the test's event loop may still be current in this thread: clean up from another one
        cleanup = threading.Thread(target=asyncio.run, args=(delete_prefix(redis_url, prefix),))
        cleanup.start()
        cleanup.join(timeout=30)


@pytest.fixture
async def api(live: Live) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http, timeout=10.0) as client:
        yield client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Socket:
    """A raw JSON WebSocket client for one campaign, for tests that look at the frames themselves.

    Every frame received is also fed to a :class:`~clients.replica.Replica`, so ``replica.view``
    is the view the frames add up to.
    """

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.pending: list[dict[str, Any]] = []
        self.replica = Replica()

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def recv(self, timeout: float = RECV_TIMEOUT_S) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.connection.recv(), timeout)
        message: dict[str, Any] = json.loads(raw)
        self.replica.absorb(message)
        return message

    async def expect(self, kind: str) -> dict[str, Any]:
        message = await self.recv()
        assert message["type"] == kind, message
        return message

    async def hello(self, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if since is not None:
            hello["since"] = since
        await self.send(hello)
        return await self.expect("welcome")

    async def act(self, action: str, version: int, command_id: str) -> dict[str, Any]:
        """Send an action; returns its answer (``accepted`` or ``rejected``), keeping updates."""
        await self.send(
            {"type": "act", "action": action, "expected_version": version, "command_id": command_id}
        )
        while True:
            message = await self.recv()
            answered = message["type"] in ("accepted", "rejected")
            if answered and message.get("command_id") == command_id:
                return message
            self.pending.append(message)

    async def next_update(self) -> dict[str, Any]:
        if self.pending:
            message = self.pending.pop(0)
        else:
            message = await self.recv()
        assert message["type"] == "update", message
        return message

    async def updates_until(self, version: int) -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        while not seen or seen[-1]["version"] < version:
            seen.append(await self.next_update())
        return seen


@contextlib.asynccontextmanager
async def socket_to(
    live: Live, campaign_id: str, *, subprotocols: list[str] | None = None
) -> AsyncIterator[Socket]:
    async with connect(
        f"{live.ws}/ws/campaigns/{campaign_id}",
        subprotocols=subprotocols,  # type: ignore[arg-type]
        open_timeout=10,
    ) as connection:
        yield Socket(connection)


Factory = Callable[[], Starlette]
