"""Small builders and readers shared by the store conformance suite and the change feed tests."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from server.store.base import StoredEvent
from server.store.contract import EventStore
from server.store.memory import MemoryStore
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.redis_support import delete_prefix

# Generous bounds: a waiter that should return at once must do so well inside them.
PROMPT_S = 5.0
LONG_WAIT_S = 30.0


def batch(tag: str, count: int) -> list[bytes]:
    return [f"{tag}{n}".encode() for n in range(1, count + 1)]


def versions(events: list[StoredEvent]) -> list[int]:
    return [event.version for event in events]


def payloads(events: list[StoredEvent]) -> list[bytes]:
    return [event.data for event in events]


async def campaign_with(store: EventStore, campaign_id: str, count: int, *, tag: str = "p") -> None:
    await store.create(campaign_id, "gil_ennis", now_ms=1_000)
    if count:
        await store.append(campaign_id, 0, batch(tag, count))


async def family(store: EventStore) -> None:
    """parent p1..p5; child forked at 3 with c4, c5; grandchild forked from child at 4 with g5."""
    await campaign_with(store, "parent", 5)
    await store.fork("parent", 3, "child", now_ms=2_000)
    await store.append("child", 3, [b"c4", b"c5"])
    await store.fork("child", 4, "grandchild", now_ms=3_000)
    await store.append("grandchild", 4, [b"g5"])


class Heard:
    """What a change feed delivered, and a way to wait until it has delivered enough."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, list[StoredEvent]]] = []
        self.shares: list[tuple[str, str, bytes, bool]] = []
        """``(campaign_id, origin, data, ask)`` of what other processes shared."""
        self.resumed = 0
        self._changed = asyncio.Condition()

    def deliver(self, campaign_id: str, events: list[StoredEvent]) -> None:
        self.changes.append((campaign_id, events))
        asyncio.get_running_loop().create_task(self._notify())

    def shared(self, campaign_id: str, origin: str, data: bytes, ask: bool) -> None:
        self.shares.append((campaign_id, origin, data, ask))
        asyncio.get_running_loop().create_task(self._notify())

    async def on_resume(self) -> None:
        self.resumed += 1
        await self._notify()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def until(self, done: Callable[[], bool], timeout: float = PROMPT_S) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(done), timeout)

    def versions(self, campaign_id: str) -> list[int]:
        return [e.version for cid, events in self.changes if cid == campaign_id for e in events]


BACKENDS = ["memory", "sqlite", "redis", "cluster"]
"""Every adapter a table beside the stream is tested on (``request.param`` of a fixture)."""


@contextlib.asynccontextmanager
async def each_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[object]:
    """The store ``request.param`` names (one of :data:`BACKENDS`), on a key prefix or file of
    its own, closed and cleaned up afterwards."""
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        sqlite = SqliteStore(tmp_path / "store.sqlite3")
        try:
            yield sqlite
        finally:
            await sqlite.close()
        return
    url = request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url")
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    redis = RedisStore.from_url(url, prefix=prefix)
    try:
        yield redis
    finally:
        await delete_prefix(url, prefix)
        await redis.close()
