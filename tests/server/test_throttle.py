"""Limits per client: campaigns created, failed tokens (per client and per campaign), sockets
held, messages per socket. Typed answers (``rate_limited``: HTTP 429 with ``Retry-After``, a
socket ``error`` or ``rejected``), other clients unaffected, and the counts shared by every
process on one Redis.

A client is the peer address; the tests speak through loopback, which uvicorn trusts as a
proxy, so ``X-Forwarded-For`` gives each simulated client an address of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette import status
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import load
from server.store.memory import MemoryStore
from server.throttle import LimitSettings, MessageBucket, Throttle
from tests.redis_support import delete_prefix, running_redis
from tests.server.conftest import Live, Socket, auth, running
from tests.server.test_redis_processes import server_process
from tests.support.polling import Deadline

WAIT_S = 30.0


def client(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


@contextlib.contextmanager
def limited(**limits: Any) -> Iterator[Live]:
    throttle = Throttle.in_memory(LimitSettings(**limits))
    with running(create_app(CampaignService(MemoryStore()), throttle=throttle)) as live:
        yield live


@contextlib.asynccontextmanager
async def socket_from(live: Live, cid: str, address: str) -> AsyncIterator[Socket]:
    async with connect(
        f"{live.ws}/ws/campaigns/{cid}", additional_headers=client(address), open_timeout=10
    ) as connection:
        yield Socket(connection)


def limited_answer(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


async def test_campaign_creation_is_limited_per_client() -> None:
    with limited(creations="3/minute") as live:
        async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
            body = {"game": "dice-race"}
            made = []
            for _ in range(3):
                response = await api.post("/api/campaigns", json=body, headers=client("10.0.0.1"))
                assert response.status_code == 201
                made.append(response.json())
            limited_answer(await api.post("/api/campaigns", json=body, headers=client("10.0.0.1")))
            # A fork is a creation too.
            fork = await api.post(
                f"/api/campaigns/{made[0]['id']}/fork",
                json={"at": 2},
                headers={**client("10.0.0.1"), **auth(made[0]["seats"]["player"])},
            )
            limited_answer(fork)
            other = await api.post("/api/campaigns", json=body, headers=client("10.0.0.2"))
            assert other.status_code == 201
            listed = (await api.get("/api/campaigns")).json()["campaigns"]
            assert len(listed) == 4


async def test_failed_tokens_are_limited_per_client_and_refuse_even_a_right_one() -> None:
    with limited(failed_auth_per_client="3/minute", failed_auth_per_campaign="") as live:
        async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
            created = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
            url = f"/api/campaigns/{created['id']}/state"
            guesser = client("10.0.0.7")
            for n in range(3):
                wrong = await api.get(url, headers={**guesser, **auth(f"guess-{n}")})
                assert wrong.status_code == 401
            limited_answer(await api.get(url, headers={**guesser, **auth("guess-3")}))
            right = auth(created["seats"]["player"])
            limited_answer(await api.get(url, headers={**guesser, **right}))
            # Spectators need no token, and other clients keep their seats.
            assert (await api.get(url, headers=guesser)).status_code == 200
            assert (await api.get(url, headers={**client("10.0.0.8"), **right})).status_code == 200
            # On a socket, the same refusal is a typed error.
            async with socket_from(live, created["id"], "10.0.0.7") as player:
                await player.send({"type": "hello", "token": created["seats"]["player"]})
                assert (await player.expect("error"))["code"] == "rate_limited"


async def test_failed_tokens_are_limited_per_campaign_from_any_client() -> None:
    with limited(failed_auth_per_client="", failed_auth_per_campaign="4/minute") as live:
        async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
            target = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
            other = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
            url = f"/api/campaigns/{target['id']}/state"
            for n in range(4):
                guess = await api.get(url, headers={**client(f"10.1.0.{n}"), **auth("guess")})
                assert guess.status_code == 401
            limited_answer(await api.get(url, headers={**client("10.1.0.9"), **auth("guess")}))
            other_url = f"/api/campaigns/{other['id']}/state"
            right = auth(other["seats"]["player"])
            assert (await api.get(other_url, headers=right)).status_code == 200


async def test_sockets_are_limited_per_client() -> None:
    with limited(sockets_per_client=2) as live:
        async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
            cid = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()["id"]
        async with socket_from(live, cid, "10.2.0.1") as first:
            await first.hello()
            async with socket_from(live, cid, "10.2.0.1") as second:
                await second.hello()
                async with socket_from(live, cid, "10.2.0.1") as third:
                    assert (await third.expect("error"))["code"] == "rate_limited"
                    with pytest.raises(ConnectionClosed):
                        await third.recv()
                    assert third.connection.close_code == status.WS_1013_TRY_AGAIN_LATER
                async with socket_from(live, cid, "10.2.0.2") as elsewhere:
                    await elsewhere.hello()
            # One closed: the client may open another (once the server has seen it close).
            deadline = Deadline("the closed socket to stop counting", WAIT_S)
            while True:
                async with socket_from(live, cid, "10.2.0.1") as again:
                    await again.send({"type": "hello"})
                    answer = await again.recv()
                    if answer["type"] == "welcome":
                        break
                    assert answer["code"] == "rate_limited"
                    deadline.check(answer)


async def test_messages_per_socket_are_limited_with_typed_answers() -> None:
    with limited(messages_per_second=2.0, message_burst=3) as live:
        async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
            created = (
                await api.post(
                    "/api/campaigns", json={"game": "dice-race", "options": {"target": 900}}
                )
            ).json()
        async with socket_from(live, created["id"], "10.3.0.1") as player:
            await player.hello(created["seats"]["player"])  # one of the burst of 3
            for _ in range(4):
                await player.send({"type": "sync"})
            act = {"type": "act", "action": "hold", "command_id": "c1", "expected_version": 2}
            await player.send(act)
            answers = [await player.recv() for _ in range(5)]
            kinds = [(a["type"], a.get("code")) for a in answers]
            assert kinds.count(("sync", None)) <= 2, kinds
            assert ("error", "rate_limited") in kinds
            assert answers[-1] == {**answers[-1], "type": "rejected", "code": "rate_limited"}
            assert answers[-1]["command_id"] == "c1"
            assert 0 < answers[-1]["retry_after"] <= 1 / 2.0
            # The budget refills: the same action goes through once the named pause is over.
            deadline = Deadline("the budget to refill", WAIT_S)
            while True:
                await player.send(act)
                answer = await player.recv()
                if answer["type"] == "accepted":
                    break
                assert answer["code"] == "rate_limited", answer
                deadline.check(answer)
                await asyncio.sleep(answer["retry_after"])  # the pause the server names
            assert answer["version"] == 3


def test_limits_are_read_from_the_environment_and_can_be_turned_off() -> None:
    settings = load(
        {
            "TABLETALE_LIMIT_CREATIONS": "off",
            "TABLETALE_LIMIT_FAILED_AUTH_PER_CLIENT": "5 per second",
            "TABLETALE_LIMIT_SOCKETS_PER_CLIENT": "0",
            "TABLETALE_LIMIT_MESSAGES_PER_SECOND": "0",
        }
    )
    settings.check()
    throttle = Throttle.in_memory(settings.limits())
    assert throttle.bucket() is None
    assert throttle.settings.failed_auth_per_client == "5 per second"
    with pytest.raises(ValueError, match="not a rate"):
        load({"TABLETALE_LIMIT_CREATIONS": "lots"}).check()


def test_a_message_bucket_allows_its_burst_then_its_rate() -> None:
    bucket = MessageBucket(10.0, 3)
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = bucket.take()
    assert 0 < wait <= 0.1


# -- across processes ------------------------------------------------------------------------


@pytest.fixture(params=["single", "cluster"])
def shared_limits(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Live, Live]]:
    """Two processes counting on one Redis: a single node, then a cluster."""
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    settings = {
        "TABLETALE_LIMIT_CREATIONS": "4/minute",
        "TABLETALE_LIMIT_FAILED_AUTH_PER_CLIENT": "3/minute",
        "TABLETALE_LIMIT_SOCKETS_PER_CLIENT": "3",
    }
    with contextlib.ExitStack() as stack:
        if request.param == "single":
            url = stack.enter_context(running_redis())
        else:
            url = request.getfixturevalue("redis_cluster_url")
        try:
            with (
                server_process(url, prefix, tmp_path / "a", settings=settings) as a,
                server_process(url, prefix, tmp_path / "b", settings=settings) as b,
            ):
                yield a, b
        finally:
            asyncio.run(delete_prefix(url, prefix))


@pytest.mark.redis
@pytest.mark.slow
async def test_limits_hold_across_processes(shared_limits: tuple[Live, Live]) -> None:
    a, b = shared_limits
    async with httpx.AsyncClient(timeout=10) as http:
        made = []
        for live in (a, a, b, b):
            response = await http.post(
                f"{live.http}/api/campaigns", json={"game": "dice-race"}, headers=client("10.9.0.1")
            )
            assert response.status_code == 201, response.text
            made.append(response.json())
        for live in (a, b):
            limited_answer(
                await http.post(
                    f"{live.http}/api/campaigns",
                    json={"game": "dice-race"},
                    headers=client("10.9.0.1"),
                )
            )
        cid, token = made[0]["id"], made[0]["seats"]["player"]
        guesser = client("10.9.0.2")
        for live in (a, b, a):
            wrong = await http.get(
                f"{live.http}/api/campaigns/{cid}/state", headers={**guesser, **auth("guess")}
            )
            assert wrong.status_code == 401
        # The fourth failure, on the other process, is past the shared count.
        limited_answer(
            await http.get(
                f"{b.http}/api/campaigns/{cid}/state", headers={**guesser, **auth("guess")}
            )
        )
        limited_answer(
            await http.get(
                f"{b.http}/api/campaigns/{cid}/state", headers={**guesser, **auth(token)}
            )
        )

    async with (
        socket_from(a, cid, "10.9.0.3") as one,
        socket_from(a, cid, "10.9.0.3") as two,
        socket_from(b, cid, "10.9.0.3") as three,
    ):
        for socket in (one, two, three):
            await socket.hello()
        async with socket_from(b, cid, "10.9.0.3") as four:
            assert (await four.expect("error"))["code"] == "rate_limited"
        async with socket_from(a, cid, "10.9.0.3") as five:
            assert (await five.expect("error"))["code"] == "rate_limited"
