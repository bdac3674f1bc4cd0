"""A frozen Redis (SIGSTOP): requests fail fast with ``unavailable``, ``/readyz`` sooner still,
and everything recovers by itself once Redis runs again (SIGCONT).

A stopped process keeps its connections open and answers nothing, which is worse than a dead
one: nothing fails until a timeout says so. The test freezes a private ``redis-server`` for a
few seconds (the issue's 20 s, shortened: the bounds do not depend on how long it lasts).

"Fast" is measured against one timeout of a plain Redis client on the same frozen server, in the
same run: each request answers within about one such timeout (the old behaviour retried for
15 s), all at once rather than in turn, so a busy machine slows both sides alike.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
import redis.asyncio
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.redis_connect import RedisSettings
from server.store.redis_store import RedisStore
from tests.redis_support import own_redis
from tests.server.conftest import auth, running, socket_to, wait_ready

# Measures time and load: run alone (tests/run.sh runs it after the parallel phase).
pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.serial]

T = TypeVar("T")

STORE_TIMEOUT_S = 2.0
"""The store's socket timeout: a request answers ``unavailable`` after about one of these."""
PING_TIMEOUT_S = 0.5
"""/readyz's ping has a shorter timeout of its own."""


async def one_timeout(url: str) -> float:
    """How long one command of a plain client takes to time out on the frozen server, here."""
    # No retries: one timeout, as the store's own link waits one before it says unavailable.
    client = redis.asyncio.Redis.from_url(
        url, socket_timeout=STORE_TIMEOUT_S, retry=Retry(NoBackoff(), 0)
    )
    try:
        started = time.monotonic()
        with pytest.raises(redis.exceptions.TimeoutError):
            await client.ping()
        return time.monotonic() - started
    finally:
        await client.aclose(close_connection_pool=True)


async def timed(call: Awaitable[T]) -> tuple[T, float]:
    started = time.monotonic()
    response = await call
    return response, time.monotonic() - started


async def test_a_frozen_redis_fails_requests_fast_and_recovers_by_itself(tmp_path: Path) -> None:
    with own_redis(tmp_path) as redis_server:
        settings = RedisSettings(socket_timeout_s=STORE_TIMEOUT_S, ping_timeout_s=PING_TIMEOUT_S)
        store = RedisStore.from_url(
            redis_server.url, prefix=f"tt-{uuid.uuid4().hex[:8]}", settings=settings
        )
        app = create_app(CampaignService(store), close_store=True)
        with running(app) as live:
            async with httpx.AsyncClient(base_url=live.http, timeout=30) as api:
                created = (
                    await api.post(
                        "/api/campaigns", json={"game": "dice-race", "options": {"target": 900}}
                    )
                ).json()
                cid, token = created["id"], created["seats"]["player"]
                other = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
                async with socket_to(live, cid) as player, socket_to(live, cid) as watcher:
                    await player.hello(token)
                    await watcher.hello()
                    assert (await player.act("hold", 2, "before"))["type"] == "accepted"
                    await watcher.next_update()

                    redis_server.pause()
                    try:
                        timeout = await one_timeout(redis_server.url)
                        ready, took = await timed(api.get("/readyz"))
                        assert ready.status_code == 503
                        assert ready.json()["error"]["code"] == "unavailable"
                        assert took < timeout, (took, timeout)

                        # Many requests at once, on one campaign and another: each answers
                        # unavailable within about the store's timeout, none waits for the
                        # others in turn.
                        calls = [
                            api.get(f"/api/campaigns/{cid}/state"),
                            api.get(f"/api/campaigns/{cid}/state", params={"at": 2}),
                            api.get(f"/api/campaigns/{cid}/events"),
                            api.post(
                                f"/api/campaigns/{cid}/actions",
                                json={"action": "hold", "expected_version": 3},
                                headers=auth(token),
                            ),
                            api.get(f"/api/campaigns/{other['id']}/state"),
                            api.get("/api/campaigns"),
                            api.post("/api/campaigns", json={"game": "dice-race"}),
                        ]
                        answers = await asyncio.gather(*(timed(call) for call in calls))
                        for response, took in answers:
                            assert response.status_code == 503, response.text
                            assert response.json()["error"]["code"] == "unavailable"
                            assert took < 2 * timeout, (response.url, took, timeout)

                        refused, took = await timed(player.act("hold", 3, "during"))
                        assert refused["type"] == "rejected" and refused["code"] == "unavailable"
                        assert took < 2 * timeout, (took, timeout)

                        # Later requests keep failing fast while Redis stays frozen.
                        again, took = await timed(api.get(f"/api/campaigns/{cid}/state"))
                        assert again.status_code == 503 and took < 2 * timeout, (took, timeout)
                    finally:
                        redis_server.resume()

                    wait_ready(live.http, path="/readyz", timeout=15)
                    # No manual step: the next requests work, and live pushes flow again.
                    state = await api.get(f"/api/campaigns/{cid}/state")
                    assert state.status_code == 200 and state.json()["version"] == 3
                    accepted = await player.act("hold", 3, "after")
                    assert accepted["type"] == "accepted" and accepted["version"] == 4
                    assert (await watcher.next_update())["version"] == 4
                    assert watcher.replica.view == player.replica.view
                    created_after = await api.post("/api/campaigns", json={"game": "dice-race"})
                    assert created_after.status_code == 201
