from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.campaigns.service import CampaignService
from server.ops import logs
from server.settings import load
from server.store.memory import MemoryStore
from tests.server.conftest import Live, auth, socket_to


@pytest.fixture
def captured(request: pytest.FixtureRequest) -> Iterator[tuple[logs.LogFormat, io.StringIO]]:
    """The server's own handler on the root logger, writing to a buffer."""
    log_format: logs.LogFormat = getattr(request, "param", "json")
    stream = io.StringIO()
    handler = logs.handler(log_format, stream)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield log_format, stream
    finally:
        root.removeHandler(handler)


def json_lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.startswith("{")]


async def deciding_fails(*args: object, **kwargs: object) -> None:
    logging.getLogger("tabletale.heads").warning("Deciding.")
    raise RuntimeError("The rules broke.")


@pytest.mark.parametrize("captured", ["json", "plain"], indirect=True)
async def test_lines_logged_while_handling_a_request_carry_its_campaign_and_command(
    captured: tuple[logs.LogFormat, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    log_format, stream = captured
    service = CampaignService(MemoryStore())
    app = create_app(service)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as api:
        created = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
        cid, token = created["id"], created["seats"]["player"]
        monkeypatch.setattr(service, "act", deciding_fails)
        answer = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "hold", "expected_version": 2, "command_id": "k1"},
            headers=auth(token),
        )
    assert answer.json()["error"]["code"] == "internal"
    logging.getLogger("tabletale.test").warning("After the request.")
    if log_format == "plain":
        lines = stream.getvalue().splitlines()
        deciding, failed, after = [line for line in lines if line.startswith(("WARN", "ERR"))]
        assert deciding == f"WARNING tabletale.heads [campaign={cid} command=k1]: Deciding."
        assert failed.startswith(f"ERROR tabletale.http [campaign={cid} command=k1]: Unexpected")
        assert after == "WARNING tabletale.test: After the request."
        return
    deciding, failed, after = json_lines(stream)
    assert (deciding["campaign_id"], deciding["command_id"]) == (cid, "k1")
    assert deciding["message"] == "Deciding." and deciding["level"] == "WARNING"
    assert (failed["campaign_id"], failed["command_id"]) == (cid, "k1")
    assert "RuntimeError: The rules broke." in failed["exception"]
    assert "campaign_id" not in after and "command_id" not in after


async def test_lines_logged_while_handling_a_socket_action_carry_its_campaign_and_command(
    live: Live,
    captured: tuple[logs.LogFormat, io.StringIO],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, stream = captured
    async with httpx.AsyncClient(base_url=live.http, timeout=10) as api:
        created = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
    cid, token = created["id"], created["seats"]["player"]
    monkeypatch.setattr(CampaignService, "act", deciding_fails)
    async with socket_to(live, cid) as player:
        await player.hello(token)
        answer = await player.act("hold", 2, "k2")
    assert answer["type"] == "rejected" and answer["code"] == "internal"
    by_message = {line["message"]: line for line in json_lines(stream)}
    for message in ("Deciding.", "Unexpected error in a WebSocket session"):
        line = by_message[message]
        assert (line["campaign_id"], line["command_id"]) == (cid, "k2")


def test_the_log_format_is_a_setting() -> None:
    assert load({}).log_format == "plain"
    assert load({"TABLETALE_LOG_FORMAT": "json"}).log_format == "json"
    with pytest.raises(ValueError, match="log_format"):
        load({"TABLETALE_LOG_FORMAT": "xml"})
