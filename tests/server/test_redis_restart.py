"""Redis stopped and started again under a live session: 503s and rejections, then recovery.

The test runs its own ``redis-server`` on a free port. It keeps an append-only file in a private
temporary directory so that the campaign is still there after the restart; without persistence a
restart would empty the database and there would be no session to recover.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.app import create_app
from server.service import CampaignService
from server.store.redis import RedisStore
from tests.redis_support import answers
from tests.server.conftest import free_port, running, socket_to, wait_ready

pytestmark = [pytest.mark.redis, pytest.mark.slow]

START_TIMEOUT_S = 15.0


class OwnRedis:
    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("This test needs redis-server on the PATH.", False)
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.workdir)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while not answers(self.url):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise TimeoutError(f"redis-server on port {self.port} did not start.")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=15)
            self.process = None


@contextlib.contextmanager
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


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
