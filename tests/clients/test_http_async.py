"""The asyncio HTTP calls against the real server on a real socket: answers read whole (a length
or chunks), errors typed as the blocking calls type them, and no thread used."""

from __future__ import annotations

import asyncio
import concurrent.futures
import urllib.request
from collections.abc import Iterator
from typing import NoReturn

import pytest

from clients import http, http_async
from clients.connection import create_campaign
from clients.replica import ProtocolError
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, auth, free_port, running


@pytest.fixture
def live() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as served:
        yield served


async def test_a_campaign_is_created_on_the_event_loop_without_a_thread(live: Live) -> None:
    # The server runs in a thread of its own; this loop may hand nothing to a thread.
    asyncio.get_running_loop().set_default_executor(NoThreads())
    created = await create_campaign(live.http, "gil-ennis", seed=7)
    assert set(created["seats"]) == {"player"}  # Gil & Ennis solo: one seat
    about = await http_async.get(f"{live.http}/api/campaigns/{created['id']}")
    assert about["entry"]["id"] == created["id"]
    assert about["seats"] == ["player"]


async def test_an_error_answer_raises_the_servers_code_and_sentence(live: Live) -> None:
    url = f"{live.http}/api/campaigns"
    with pytest.raises(ProtocolError) as refused:
        await http_async.post(url, {"game": "chess"})
    with pytest.raises(ProtocolError) as blocking:
        await asyncio.to_thread(http.post, url, {"game": "chess"})
    assert refused.value.code == blocking.value.code == "bad_request"
    assert "chess" in str(refused.value)
    assert str(refused.value) == str(blocking.value)
    with pytest.raises(ProtocolError) as missing:
        await http_async.get(f"{live.http}/api/campaigns/nobody")
    assert missing.value.code == "not_found"


async def test_a_chunked_answer_is_read_whole(live: Live) -> None:
    created = await create_campaign(live.http, "gil-ennis", seed=7)
    token = created["seats"]["player"]
    url = f"{live.http}/api/campaigns/{created['id']}/export"
    reader, writer = await asyncio.open_connection("127.0.0.1", live.port)
    request = f"GET /api/campaigns/{created['id']}/export HTTP/1.1\r\nHost: x\r\n"
    writer.write(f"{request}Authorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode())
    raw = await reader.read()
    writer.close()
    assert b"transfer-encoding: chunked" in raw.lower()  # the export streams its lines
    status, body = await http_async._answer(asyncio_reader(raw))
    assert status == 200
    lines = body.decode().splitlines()
    assert lines and all(line.startswith("{") for line in lines)
    assert len(lines) == len(
        (await asyncio.to_thread(_blocking_text, url, auth(token))).splitlines()
    )


async def test_a_server_that_is_not_there_is_unreachable() -> None:
    url = f"http://127.0.0.1:{free_port()}/api/games"
    with pytest.raises(http.Unreachable, match="Cannot reach the server"):
        await http_async.get(url, timeout=5.0)


class NoThreads(concurrent.futures.ThreadPoolExecutor):
    """An executor that fails any work handed to it."""

    def submit(self, *args: object, **kwargs: object) -> NoReturn:  # type: ignore[override]
        raise AssertionError("Work was handed to a thread.")


def asyncio_reader(raw: bytes) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(raw)
    reader.feed_eof()
    return reader


def _blocking_text(url: str, headers: dict[str, str]) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
        text: str = answer.read().decode()
        return text
