"""Two actions chosen at the same version race: exactly one is accepted, the other is refused
``stale_version`` and writes nothing, round after round, over sockets and over HTTP, through
one process and through two."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore
from server.throttle import LimitSettings, Throttle
from tests.redis_support import delete_prefix
from tests.server.conftest import Live, Socket, auth, running, socket_to
from tests.server.test_redis_processes import server_process

pytestmark = pytest.mark.redis

ROUNDS = 200
UNLIMITED = {"TABLETALE_LIMIT_MESSAGES_PER_SECOND": "0"}


async def campaign(http: httpx.AsyncClient, live: Live) -> tuple[str, str]:
    body = {"game": "dice-race", "options": {"target": 1000}}
    created = (await http.post(f"{live.http}/api/campaigns", json=body)).json()
    return created["id"], created["seats"]["player"]


async def socket_rounds(one: Socket, two: Socket, version: int, tag: str) -> int:
    for n in range(ROUNDS):
        answers = await asyncio.gather(
            one.act("hold", version, f"{tag}{n}a"), two.act("hold", version, f"{tag}{n}b")
        )
        kinds = sorted(answer["type"] for answer in answers)
        assert kinds == ["accepted", "rejected"], answers
        (refused,) = [a for a in answers if a["type"] == "rejected"]
        assert refused["code"] == "stale_version", refused
        version += 1
        assert max(a.get("version", 0) for a in answers) == version
        for socket in (one, two):  # the loser's socket saw the winner's update
            while socket.replica.version < version:
                socket.replica.absorb(await socket.next_update())
    return version


async def http_rounds(http: httpx.AsyncClient, bases: list[str], cid: str, token: str) -> int:
    version = (await http.get(f"{bases[0]}/api/campaigns/{cid}/state")).json()["version"]
    for n in range(ROUNDS):
        answers = await asyncio.gather(
            *(
                http.post(
                    f"{base}/api/campaigns/{cid}/actions",
                    json={"action": "hold", "expected_version": version, "command_id": f"h{n}{i}"},
                    headers=auth(token),
                )
                for i, base in enumerate(bases)
            )
        )
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [200, 409], [a.text for a in answers]
        version += 1
    return version


async def verify(redis_url: str, prefix: str, cid: str, version: int) -> None:
    store = RedisStore.from_url(redis_url, prefix=prefix)
    try:
        service = CampaignService(store)
        report = await service.verify(cid)
        assert report.ok and report.events == version
    finally:
        await store.close()


@pytest.fixture
def fast(redis_url: str) -> Iterator[tuple[Live, str]]:
    """A server whose sockets may send as fast as they like: the racers are bots in a loop,
    well past the default of 50 messages a second."""
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    store = RedisStore.from_url(redis_url, prefix=prefix)
    throttle = Throttle.in_memory(LimitSettings(messages_per_second=0))
    try:
        with running(
            create_app(CampaignService(store), throttle=throttle, close_store=True)
        ) as live:
            yield live, prefix
    finally:
        asyncio.run(delete_prefix(redis_url, prefix))


async def test_racing_actions_on_one_process(fast: tuple[Live, str], redis_url: str) -> None:
    live, prefix = fast
    async with httpx.AsyncClient(timeout=10) as api:
        cid, token = await campaign(api, live)
        async with socket_to(live, cid) as one, socket_to(live, cid) as two:
            await one.hello(token)
            await two.hello(token)
            version = await socket_rounds(one, two, 2, "s")
        version = await http_rounds(api, [live.http, live.http], cid, token)
    assert version == 2 + 2 * ROUNDS
    await verify(redis_url, prefix, cid, version)


@pytest.fixture
async def two(redis_url: str, tmp_path: Path) -> AsyncIterator[tuple[Live, Live, str]]:
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    try:
        with (
            server_process(redis_url, prefix, tmp_path / "a", settings=UNLIMITED) as a,
            server_process(redis_url, prefix, tmp_path / "b", settings=UNLIMITED) as b,
        ):
            yield a, b, prefix
    finally:
        await delete_prefix(redis_url, prefix)


@pytest.mark.slow
async def test_racing_actions_through_two_processes(
    two: tuple[Live, Live, str], redis_url: str
) -> None:
    a, b, prefix = two
    async with httpx.AsyncClient(timeout=10) as http:
        cid, token = await campaign(http, a)
        async with socket_to(a, cid) as one, socket_to(b, cid) as other:
            await one.hello(token)
            await other.hello(token)
            version = await socket_rounds(one, other, 2, "s")
        version = await http_rounds(http, [a.http, b.http], cid, token)
    assert version == 2 + 2 * ROUNDS
    await verify(redis_url, prefix, cid, version)
