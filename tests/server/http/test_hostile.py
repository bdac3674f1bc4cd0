"""Hostile numbers and bodies at the HTTP edge: typed refusals (400, 413), never a 500, and
nothing changed by a request that was refused."""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import time
from typing import Any

import httpx
import pytest

from server.campaigns.service import CampaignService
from server.context import MAX_BODY
from server.store.base import StoreUnavailable
from server.store.memory import MemoryStore
from tests.server.conftest import Live, auth

pytestmark = pytest.mark.redis

HUGE = 9223372036854775807  # 2**63 - 1: the largest 64-bit signed integer
ANSWER_S = 10.0


async def create(api: httpx.AsyncClient, **extra: Any) -> dict[str, Any]:
    response = await api.post("/api/campaigns", json={"game": "dice-race", **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def catalog(api: httpx.AsyncClient) -> list[str]:
    page = (await api.get("/api/campaigns", params={"limit": 200})).json()
    return [entry["id"] for entry in page["campaigns"]]


def refused(response: httpx.Response, status: int = 400, code: str = "bad_request") -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/campaigns", {"offset": HUGE}),
        ("/api/campaigns", {"offset": -1}),
        ("/api/campaigns", {"limit": 0}),
        ("/api/campaigns", {"limit": HUGE * 4}),
        ("/api/campaigns", {"offset": "1.5"}),
        ("/api/campaigns", {"offset": "ten"}),
        ("/{id}/events", {"after": HUGE}),
        ("/{id}/events", {"after": -3}),
        ("/{id}/events", {"limit": 0}),
        ("/{id}/state", {"at": 0}),
        ("/{id}/state", {"at": HUGE}),
        ("/{id}/state", {"at": -(2**63) - 1}),
        ("/{id}/timeline", {"after": HUGE}),
        ("/{id}/timeline", {"limit": 0}),
    ],
)
async def test_numbers_out_of_bounds_in_queries_are_refused(
    api: httpx.AsyncClient, path: str, params: dict[str, Any]
) -> None:
    created = await create(api)
    url = path.replace("/{id}", f"/api/campaigns/{created['id']}")
    refused(await api.get(url, params=params))


BAD_SEEDS: list[object] = [
    2**64,
    2**64 + 5,
    -1,
    -(2**63),
    -(2**63) - 1,
    10**40,
    1.5,
    2**53,  # a double cannot tell it from 2**53 + 1: it may have been rounded on its way
    13112283191526720000,  # 13112283191526718841 as a browser sends it
    "18446744073709551616",
    "00000000000000000042",  # shown back as "42", a seed hash over other text: refused
    "07",
    "-7",
    "7.0",
    " 7",
    "0x7",
    "",
    "\u0667",  # a digit, but not a decimal digit of ASCII
    "1" * 21,
    None,
    [7],
]


def refused_seed(response: httpx.Response) -> None:
    refused(response)
    assert "send the seed as a decimal string" in response.json()["error"]["message"]


@pytest.mark.parametrize("reseed", BAD_SEEDS)
async def test_a_fork_with_a_seed_out_of_range_is_refused_and_makes_nothing(
    api: httpx.AsyncClient, reseed: object
) -> None:
    created = await create(api)
    headers = auth(created["seats"]["player"])
    before = await catalog(api)
    response = await api.post(
        f"/api/campaigns/{created['id']}/fork", json={"at": 2, "reseed": reseed}, headers=headers
    )
    refused_seed(response)
    assert await catalog(api) == before


async def test_the_largest_seed_and_a_boolean_reseed_are_accepted(api: httpx.AsyncClient) -> None:
    created = await create(api)
    headers = auth(created["seats"]["player"])
    for reseed in ("18446744073709551615", "0", 2**53 - 1, 0, True, False):
        response = await api.post(
            f"/api/campaigns/{created['id']}/fork",
            json={"at": 2, "reseed": reseed},
            headers=headers,
        )
        assert response.status_code == 201, response.text


@pytest.mark.parametrize("seed", [seed for seed in BAD_SEEDS if seed is not None] + [True])
async def test_creation_with_a_seed_that_is_not_one_is_refused_and_makes_nothing(
    api: httpx.AsyncClient, seed: object
) -> None:
    before = await catalog(api)
    refused_seed(await api.post("/api/campaigns", json={"game": "dice-race", "seed": seed}))
    assert await catalog(api) == before


async def test_a_seed_too_large_for_any_number_reader_is_refused_with_the_same_advice(
    api: httpx.AsyncClient,
) -> None:
    before = await catalog(api)
    for raw in (b"1e400", b"-1e400", b"9" * 5000):
        body = b'{"game": "dice-race", "seed": ' + raw + b"}"
        sent = await api.post(
            "/api/campaigns", content=body, headers={"Content-Type": "application/json"}
        )
        refused_seed(sent)
    assert await catalog(api) == before


@pytest.mark.parametrize(
    "body",
    [
        {"game": "dice-race", "seats": ["x" * 65]},
        {"game": "dice-race", "seats": [f"s{n}" for n in range(17)]},
    ],
)
async def test_creation_with_numbers_or_names_out_of_bounds_is_refused(
    api: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    before = await catalog(api)
    refused(await api.post("/api/campaigns", json=body))
    assert await catalog(api) == before


@pytest.mark.parametrize(
    "body",
    [
        {"action": "hold", "expected_version": HUGE},
        {"action": "hold", "expected_version": -1},
        {"action": "hold", "expected_version": 2, "command_id": ""},
        {"action": "hold", "expected_version": 2, "command_id": "c" * 129},
        {"action": "hold", "expected_version": 2, "command_id": "bot:search:2:player@2"},
        {"action": "hold", "expected_version": 2**64},
    ],
)
async def test_actions_with_numbers_out_of_bounds_are_refused(
    api: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    created = await create(api)
    headers = auth(created["seats"]["player"])
    refused(await api.post(f"/api/campaigns/{created['id']}/actions", json=body, headers=headers))
    state = (await api.get(f"/api/campaigns/{created['id']}/state")).json()
    assert state["version"] == created["version"]


async def test_a_fork_the_store_fails_to_make_leaves_nothing_behind() -> None:
    class FailingFork(MemoryStore):
        async def fork(self, *args: Any, **kwargs: Any) -> Any:
            raise StoreUnavailable("The store went away mid-fork.")

    store = FailingFork()
    service = CampaignService(store)
    created = await service.create("dice-race", options={"target": 500})
    before = [info.id for info in await store.list_campaigns()]
    for reseed in (True, False, 12345):
        with pytest.raises(StoreUnavailable):
            await service.fork(created.id, 2, reseed=reseed)
    assert [info.id for info in await store.list_campaigns()] == before


# -- bodies over the limit -------------------------------------------------------------------


def _response_within(conn: socket.socket, seconds: float) -> bytes:
    conn.settimeout(seconds)
    answer = b""
    deadline = time.monotonic() + seconds
    while b"\r\n\r\n" not in answer and time.monotonic() < deadline:
        chunk = conn.recv(65536)
        if not chunk:
            break
        answer += chunk
    return answer


def _post_declaring(live: Live, path: str, declared: int, sent: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", live.port), timeout=ANSWER_S) as conn:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            f"Content-Length: {declared}\r\n\r\n"
        )
        conn.sendall(head.encode() + sent)
        return _response_within(conn, ANSWER_S)


def _post_chunked(live: Live, path: str, chunk: bytes, most: int) -> tuple[bytes, int]:
    """Send a chunked body until the server answers (or ``most`` bytes went); returns the
    answer and how many body bytes were sent before it came."""
    with socket.create_connection(("127.0.0.1", live.port), timeout=ANSWER_S) as conn:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        )
        conn.sendall(head.encode())
        sent = 0
        conn.setblocking(False)
        answer = b""
        while sent < most:
            with contextlib.suppress(BlockingIOError):
                answer += conn.recv(65536)
            if answer:
                break
            try:
                conn.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            except BlockingIOError:
                # The server's buffers are full (it stopped reading): wait for its answer or for
                # room to send, whichever comes first.
                select.select([conn], [conn], [], ANSWER_S)
                continue
            except (BrokenPipeError, ConnectionResetError):
                break  # the server closed its side: what it answered is read below
            sent += len(chunk)
        conn.setblocking(True)
        if not answer:
            answer = _response_within(conn, ANSWER_S)
        return answer, sent


async def test_a_body_declared_over_the_limit_is_refused_before_it_is_sent(live: Live) -> None:
    # 200 MiB announced, 10 bytes sent: the answer comes without waiting for the rest.
    answer = await asyncio.to_thread(
        _post_declaring, live, "/api/campaigns", 200 * 1024 * 1024, b'{"game": "'
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"too_large" in answer


async def test_a_chunked_body_is_cut_off_at_the_limit(live: Live) -> None:
    most = 16 * 1024 * 1024
    answer, sent = await asyncio.to_thread(_post_chunked, live, "/api/campaigns", b" " * 4096, most)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < most, "the server read on past the limit"


async def test_a_body_at_the_limit_is_read(api: httpx.AsyncClient) -> None:
    padded = b'{"game": "dice-race"}'.ljust(MAX_BODY, b" ")
    response = await api.post(
        "/api/campaigns", content=padded, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 201
    response = await api.post(
        "/api/campaigns", content=padded + b" ", headers={"Content-Type": "application/json"}
    )
    refused(response, 413, "too_large")
