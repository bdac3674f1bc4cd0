"""Redis stopped and started again under a live session: 503s and rejections, then recovery.

The test runs its own ``redis-server`` on a free port. It keeps an append-only file in a private
temporary directory so that the campaign is still there after the restart; without persistence a
restart would empty the database and there would be no session to recover.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx
import pytest

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore
from tests.redis_support import own_redis
from tests.server.conftest import running, socket_to, wait_ready

pytestmark = [pytest.mark.redis, pytest.mark.slow]


async def test_the_server_recovers_when_redis_comes_back(tmp_path: Path) -> None:
    with own_redis(tmp_path) as redis_server:
        store = RedisStore.from_url(redis_server.url, prefix=f"tt-{uuid.uuid4().hex[:8]}")
        app = create_app(CampaignService(store), close_store=True)
        with running(app) as live:
            async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
                created = (
                    await api.post(
                        "/api/campaigns", json={"game": "dice-race", "options": {"target": 500}}
                    )
                ).json()
                cid, token = created["id"], created["seats"]["player"]
                async with socket_to(live, cid) as player:
                    await player.hello(token)
                    before = await player.act("hold", 2, "before")
                    assert before["type"] == "accepted" and before["version"] == 3

                    redis_server.stop()
                    ready = await api.get("/readyz")
                    assert ready.status_code == 503
                    assert ready.json()["error"]["code"] == "unavailable"
                    state = await api.get(f"/api/campaigns/{cid}/state")
                    assert state.status_code == 503
                    assert state.json()["error"]["code"] == "unavailable"
                    refused = await player.act("hold", 3, "during")
                    assert refused["type"] == "rejected" and refused["code"] == "unavailable"

                    redis_server.start()
                    wait_ready(live.http, path="/readyz")
                    again = await player.act("hold", 3, "after")
                    assert again["type"] == "accepted" and again["version"] == 4
                    assert player.replica.version == 4
                    head = (await api.get(f"/api/campaigns/{cid}/state")).json()
                    assert head["version"] == 4
