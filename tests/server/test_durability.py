"""Acknowledged actions survive crashes: redis-server killed (SIGKILL) with ``appendfsync
always`` and with ``everysec``, the server process killed, and the embedded SQLite store under a
killed server (which also passes ``PRAGMA integrity_check``).

A killed Redis process loses nothing it acknowledged with ``always``: Redis writes its
append-only file before it answers, and the operating system keeps what was written. With
``everysec`` it writes before it answers too, except while a background fsync is still running:
then it postpones the write, for up to two seconds, and answers all the same (Redis's
``flushAppendOnlyFile``). On a busy disk a killed Redis may therefore lose the acknowledged
actions of its last two seconds, and only those: what survives is a prefix of what was
acknowledged, and verifies. A crash of the whole host loses up to a second more; that case is
``tests/server/test_redis_lost_writes.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.campaigns.service import CampaignService
from server.store.contract import EventStore
from server.store.opening import SQLITE_FILE
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.redis_support import OwnRedis
from tests.server.conftest import Live, auth, wait_ready
from tests.server.test_redis_processes import server_process

pytestmark = [pytest.mark.slow]

ACKNOWLEDGED_BEFORE_THE_CRASH = 150
WAIT_S = 30.0


class Player:
    """Acts as fast as the server answers and remembers every acknowledged command."""

    def __init__(self, http: httpx.AsyncClient, base: str, cid: str, token: str) -> None:
        self.http = http
        self.base = base
        self.cid = cid
        self.token = token
        self.acknowledged: dict[str, int] = {}  # command id -> version
        self.answered_at: dict[str, float] = {}  # command id -> monotonic time of the answer
        self.crashed_at = 0.0
        self.version = 2
        self.reached = asyncio.Event()

    async def run(self) -> None:
        """Until a request fails (the crash): every answer that came back is acknowledged."""
        n = 0
        while True:
            command = f"c{n}"
            try:
                answer = await self.http.post(
                    f"{self.base}/api/campaigns/{self.cid}/actions",
                    json={
                        "action": "hold",
                        "expected_version": self.version,
                        "command_id": command,
                    },
                    headers=auth(self.token),
                )
            except httpx.TransportError:
                return
            if answer.status_code != 200:
                return
            self.version = answer.json()["version"]
            self.acknowledged[command] = self.version
            self.answered_at[command] = time.monotonic()
            n += 1
            if len(self.acknowledged) >= ACKNOWLEDGED_BEFORE_THE_CRASH:
                self.reached.set()


async def start(http: httpx.AsyncClient, live: Live) -> Player:
    body = {"game": "dice-race", "options": {"target": 1000}}
    created = (await http.post(f"{live.http}/api/campaigns", json=body)).json()
    return Player(http, live.http, created["id"], created["seats"]["player"])


async def crash_mid_play(player: Player, crash: object) -> None:
    """Let ``player`` run; once enough is acknowledged, call ``crash`` while it still acts."""
    playing = asyncio.create_task(player.run())
    await asyncio.wait_for(player.reached.wait(), WAIT_S)
    assert callable(crash)
    player.crashed_at = time.monotonic()
    crash()
    await asyncio.wait_for(playing, WAIT_S)


POSTPONED_WRITE_S = 2.0
"""How long Redis with ``appendfsync everysec`` may hold its append-only file's write back while
a background fsync runs, answering meanwhile."""


async def assert_kept(store: EventStore, player: Player, *, may_lose_s: float = 0.0) -> None:
    """Every acknowledged action is stored at its version, but those answered in the last
    ``may_lose_s`` before the crash, which may be lost as a whole tail (never one in the middle)."""
    service = CampaignService(store)
    events = await service.events(player.cid)
    commands = {event.command: event.version for event in events if event.command}
    lost = [c for c in player.acknowledged if commands.get(c) != player.acknowledged[c]]
    for command in lost:
        version = player.acknowledged[command]
        assert command not in commands, f"acknowledged {command} moved from version {version}"
        late = player.answered_at[command] >= player.crashed_at - may_lose_s
        assert late, f"acknowledged {command} at {version} is lost"
    if lost:
        first_lost = min(player.acknowledged[c] for c in lost)
        assert all(v < first_lost for v in commands.values()), "a hole in what was kept"
    assert (await service.verify(player.cid)).ok


@contextlib.contextmanager
def own_server(tmp: Path, appendfsync: str) -> Iterator[OwnRedis]:
    redis_server = OwnRedis(tmp / "redis")
    redis_server.start(appendfsync=appendfsync)
    try:
        yield redis_server
    finally:
        redis_server.stop()


@pytest.mark.redis
@pytest.mark.parametrize("appendfsync", ["always", "everysec"])
async def test_a_killed_redis_loses_no_acknowledged_action_but_a_postponed_tail(
    tmp_path: Path, appendfsync: str
) -> None:
    prefix = f"tt-{uuid.uuid4().hex[:8]}"
    with (
        own_server(tmp_path, appendfsync) as redis_server,
        server_process(redis_server.url, prefix, tmp_path / "server") as live,
    ):
        async with httpx.AsyncClient(timeout=10) as http:
            player = await start(http, live)
            await crash_mid_play(player, redis_server.kill)
            redis_server.start(appendfsync=appendfsync)
            store = RedisStore.from_url(redis_server.url, prefix=prefix)
            may_lose_s = POSTPONED_WRITE_S if appendfsync == "everysec" else 0.0
            try:
                await assert_kept(store, player, may_lose_s=may_lose_s)
            finally:
                await store.close()
            # The server carries on by itself from the store's head.
            wait_ready(live.http, path="/readyz", timeout=WAIT_S)
            head = (await http.get(f"{live.http}/api/campaigns/{player.cid}/state")).json()
            again = await http.post(
                f"{live.http}/api/campaigns/{player.cid}/actions",
                json={"action": "hold", "expected_version": head["version"]},
                headers=auth(player.token),
            )
            assert again.status_code == 200, again.text


@pytest.mark.redis
async def test_a_killed_server_loses_no_acknowledged_action(tmp_path: Path) -> None:
    prefix = f"tt-{uuid.uuid4().hex[:8]}"
    with own_server(tmp_path, "everysec") as redis_server:
        with server_process(redis_server.url, prefix, tmp_path / "one") as live:
            async with httpx.AsyncClient(timeout=10) as http:
                player = await start(http, live)
                assert live.process is not None
                await crash_mid_play(player, live.process.kill)
        with server_process(redis_server.url, prefix, tmp_path / "two") as again:
            async with httpx.AsyncClient(timeout=10) as http:
                state = await http.get(f"{again.http}/api/campaigns/{player.cid}/state")
                assert state.json()["version"] >= max(player.acknowledged.values())
        store = RedisStore.from_url(redis_server.url, prefix=prefix)
        try:
            await assert_kept(store, player)
        finally:
            await store.close()


async def test_sqlite_under_a_killed_server_keeps_every_action_and_its_integrity(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with server_process(None, "unused", data) as live:
        async with httpx.AsyncClient(timeout=10) as http:
            player = await start(http, live)
            assert live.process is not None
            await crash_mid_play(player, live.process.kill)
    with sqlite3.connect(data / SQLITE_FILE) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = SqliteStore(data / SQLITE_FILE)
    try:
        await assert_kept(store, player)
    finally:
        await store.close()
    with server_process(None, "unused", data) as again:
        async with httpx.AsyncClient(timeout=10) as http:
            state = (await http.get(f"{again.http}/api/campaigns/{player.cid}/state")).json()
            answer = await http.post(
                f"{again.http}/api/campaigns/{player.cid}/actions",
                json={"action": "hold", "expected_version": state["version"]},
                headers=auth(player.token),
            )
            assert answer.status_code == 200, answer.text
