"""Two server processes on one Redis, single node and cluster: an action through one reaches
sockets on the other."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.store.redis_cluster import primary_urls
from tests.redis_cluster_support import node_serving
from tests.redis_support import delete_prefix, running_redis
from tests.server.conftest import Live, auth, free_port, socket_to, wait_ready
from tests.server.ws.test_presence import hello, presence_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = (
    "import sys; from tests.support import dice_race; dice_race.register(); "
    "from server.serve import serve; from server.settings import load; "
    "serve(load(host='127.0.0.1', port=int(sys.argv[1]), "
    "redis_url=sys.argv[2] or None, data_dir=sys.argv[3]))"
)


@contextlib.contextmanager
def server_process(
    redis_url: str | None, prefix: str, data_dir: Path, *, settings: dict[str, str] | None = None
) -> Iterator[Live]:
    """A server process; ``settings`` are more ``TABLETALE_*`` variables for it."""
    port = free_port()
    env = {**os.environ, "TABLETALE_REDIS_PREFIX": prefix, **(settings or {})}
    data_dir.mkdir(parents=True, exist_ok=True)
    # The log goes to a file: a pipe nobody reads would stop a talkative server when it fills.
    log_path = data_dir / f"server-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, str(port), redis_url or "", str(data_dir)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    try:
        try:
            wait_ready(f"http://127.0.0.1:{port}")
        except TimeoutError:
            process.kill()
            process.wait(timeout=10)
            pytest.fail(f"The server did not start:\n{log_path.read_text(errors='replace')}")
        live = Live(port)
        live.process = process
        yield live
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module", params=["single", "cluster"])
def shared_redis(request: pytest.FixtureRequest) -> Iterator[str]:
    """The Redis both processes use: a single node, then a cluster."""
    if request.param == "single":
        with running_redis() as url:
            yield url
    else:
        yield request.getfixturevalue("redis_cluster_url")


@pytest.fixture(scope="module")
def pair(
    shared_redis: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Live, Live]]:
    """Two server processes on one key prefix, shared by the module's tests on that Redis (two
    processes start in seconds): each test plays campaigns of its own on them."""
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    folder = tmp_path_factory.mktemp("pair")
    try:
        with (
            server_process(shared_redis, prefix, folder / "a") as a,
            server_process(shared_redis, prefix, folder / "b") as b,
        ):
            yield a, b
    finally:
        # a test's event loop may still be current in this thread: clean up from another one
        cleanup = threading.Thread(target=asyncio.run, args=(delete_prefix(shared_redis, prefix),))
        cleanup.start()
        cleanup.join(timeout=30)


async def test_an_action_through_one_process_reaches_sockets_on_another(
    pair: tuple[Live, Live],
) -> None:
    a, b = pair
    async with httpx.AsyncClient(timeout=10) as http:
        created = (
            await http.post(
                f"{a.http}/api/campaigns",
                json={"game": "dice-race", "seats": ["red", "blue"], "options": {"target": 500}},
            )
        ).json()
        cid = created["id"]
        on_b = (await http.get(f"{b.http}/api/campaigns/{cid}/state")).json()
        assert on_b["version"] == 2
    async with (
        socket_to(a, cid) as red,
        socket_to(b, cid) as blue,
        socket_to(b, cid) as watcher,
    ):
        await red.hello(created["seats"]["red"])
        await blue.hello(created["seats"]["blue"])
        await watcher.hello()
        version = 2
        movers = set()
        for n in range(6):
            mover, waiting = (red, blue) if red.replica.legal_actions else (blue, red)
            movers.add(id(mover))
            answer = await mover.act("roll", version, f"x{n}")
            assert answer["type"] == "accepted", answer
            version = answer["version"]
            theirs, seen = await waiting.next_update(), await watcher.next_update()
            assert theirs["version"] == seen["version"] == version
            assert red.replica.view == blue.replica.view == watcher.replica.view
            assert not (red.replica.legal_actions and blue.replica.legal_actions)
        assert len(movers) == 2, "both seats acted, one on each process"


async def test_a_stale_version_from_the_other_process_is_rejected(
    pair: tuple[Live, Live],
) -> None:
    a, b = pair
    async with httpx.AsyncClient(timeout=10) as http:
        created = (await http.post(f"{a.http}/api/campaigns", json={"game": "dice-race"})).json()
        cid, token = created["id"], created["seats"]["player"]
        body = {"action": "hold", "expected_version": 2}
        first = await http.post(
            f"{a.http}/api/campaigns/{cid}/actions", json=body, headers=auth(token)
        )
        second = await http.post(
            f"{b.http}/api/campaigns/{cid}/actions", json=body, headers=auth(token)
        )
        assert first.status_code == 200
        assert second.status_code == 409 and second.json()["error"]["code"] == "stale_version"


async def test_campaigns_on_every_shard_reach_watchers_on_the_other_process(
    pair: tuple[Live, Live], shared_redis: str
) -> None:
    a, b = pair
    shards = set(primary_urls(shared_redis))
    campaigns: dict[str, dict[str, Any]] = {}  # shard -> a campaign it serves
    async with httpx.AsyncClient(timeout=10) as http:
        for _ in range(60):
            created = (
                await http.post(f"{a.http}/api/campaigns", json={"game": "dice-race"})
            ).json()
            shard = node_serving(shared_redis, f"x:{{{created['id']}}}:events")
            campaigns.setdefault(shard, created)
            if set(campaigns) == shards:
                break
        assert set(campaigns) == shards
        async with contextlib.AsyncExitStack() as stack:
            watchers = []
            for created in campaigns.values():
                watcher = await stack.enter_async_context(socket_to(b, created["id"]))
                await watcher.hello()
                watchers.append(watcher)
            for created, watcher in zip(campaigns.values(), watchers, strict=True):
                reply = await http.post(
                    f"{a.http}/api/campaigns/{created['id']}/actions",
                    json={"action": "roll", "expected_version": 2},
                    headers=auth(created["seats"]["player"]),
                )
                assert reply.status_code == 200, reply.text
                update = await watcher.next_update()
                assert update["version"] == reply.json()["version"]


PRESENCE_REFRESH_S = 0.25
"""Short, so that a process killed without a word drops out within a second."""


async def test_who_is_connected_counts_every_process_and_a_killed_one_drops_out(
    shared_redis: str, tmp_path: Path
) -> None:
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    quick = {"TABLETALE_PRESENCE_REFRESH_S": str(PRESENCE_REFRESH_S)}
    try:
        with (
            server_process(shared_redis, prefix, tmp_path / "a", settings=quick) as a,
            server_process(shared_redis, prefix, tmp_path / "b", settings=quick) as b,
        ):
            async with httpx.AsyncClient(timeout=10) as http:
                created = (
                    await http.post(
                        f"{a.http}/api/campaigns",
                        json={"game": "dice-race", "seats": ["red", "blue"]},
                    )
                ).json()
            cid, tokens = created["id"], created["seats"]
            async with contextlib.AsyncExitStack() as stack:
                red = await stack.enter_async_context(socket_to(a, cid))
                await hello(red, tokens["red"], name="Ana", presence=True)
                await presence_until(red, [("red", "Ana")], 0)
                blue = await stack.enter_async_context(socket_to(b, cid))
                await hello(blue, tokens["blue"], name="Bo", presence=True)
                both = [("red", "Ana"), ("blue", "Bo")]
                await presence_until(blue, both, 0)
                await presence_until(red, both, 0)
                watcher = await stack.enter_async_context(socket_to(b, cid))
                await hello(watcher)
                await presence_until(red, both, 1)
                await presence_until(blue, both, 1)
                assert b.process is not None
                b.process.kill()  # no word to anyone: its part goes stale and drops out
                await presence_until(red, [("red", "Ana")], 0)
    finally:
        await delete_prefix(shared_redis, prefix)
