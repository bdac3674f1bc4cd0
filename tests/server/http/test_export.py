"""``GET /api/campaigns/{id}/export``: partial for a seat while the campaign runs, complete once it
has ended, and refused to spectators and wrong tokens."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from domain.core.hashing import seed_commitment
from server.campaigns.service import CampaignService
from server.export.errors import PartialExport
from server.export.format import MEDIA_TYPE
from server.export.importing import import_export
from server.export.reading import read_export
from server.store.sqlite import SqliteStore
from tests.server.conftest import auth

MOST_ACTIONS = 2_000


async def state(api: httpx.AsyncClient, cid: str, token: str) -> Any:
    response = await api.get(f"/api/campaigns/{cid}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


async def play(api: httpx.AsyncClient, cid: str, tokens: dict[str, str], moves: int) -> str:
    """Take up to ``moves`` random legal actions; returns the outcome then."""
    chooser = random.Random(5)
    for _ in range(moves):
        for token in tokens.values():
            seen = await state(api, cid, token)
            if seen["outcome"] != "running":
                return str(seen["outcome"])
            if seen["legal_actions"]:
                action = chooser.choice(seen["legal_actions"])["id"]
                body = {"action": action, "expected_version": seen["version"]}
                response = await api.post(
                    f"/api/campaigns/{cid}/actions", json=body, headers=auth(token)
                )
                assert response.status_code == 200, response.text
                break
    return str((await state(api, cid, next(iter(tokens.values()))))["outcome"])


async def export(api: httpx.AsyncClient, cid: str, token: str | None) -> httpx.Response:
    return await api.get(
        f"/api/campaigns/{cid}/export", headers=auth(token) if token is not None else {}
    )


def lines(response: httpx.Response) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in response.content.splitlines()]


async def test_a_seat_exports_a_partial_file_while_the_campaign_runs_and_the_whole_at_its_end(
    api: httpx.AsyncClient, tmp_path: Path
) -> None:
    created = (await api.post("/api/campaigns", json={"game": "gil-ennis"})).json()
    cid, tokens = created["id"], created["seats"]
    seat, token = next(iter(tokens.items()))
    assert await play(api, cid, tokens, 6) == "running"

    running = await export(api, cid, token)
    assert running.status_code == 200, running.text
    assert running.headers["content-type"].startswith(MEDIA_TYPE)
    header, campaign, *events, end = lines(running)
    assert (header["scope"], header["seat"]) == ("partial", seat)
    assert not any(key.startswith("token:") for key in campaign["attrs"])
    assert all(line["hash"] is None for line in events)
    assert not {"seed", "salt"} & set(events[0]["event"])
    # What the file shows of each event is what the seat's own log shows of it.
    log = (await api.get(f"/api/campaigns/{cid}/events", headers=auth(token))).json()["events"]
    assert [line["event"] for line in events] == [entry["event"] for entry in log]
    assert end["events"] == len(events) == campaign["head"]
    with pytest.raises(PartialExport, match="export it again once they have ended"):
        read_export(running.content.splitlines(keepends=True))

    assert await play(api, cid, tokens, MOST_ACTIONS) != "running"
    ended = await export(api, cid, token)
    assert ended.status_code == 200, ended.text
    checked = read_export(ended.content.splitlines(keepends=True))
    assert checked.header.scope == "complete" and checked.campaign.outcome != "running"
    first = checked.events[0].event
    assert seed_commitment(first.seed, first.salt) == created["seed_hash"]
    store = SqliteStore(tmp_path / "imported.sqlite3")
    try:
        assert (await import_export(store, checked)).outcome == "created"
        report = await CampaignService(store).verify(cid)
        assert report.ok and report.events == checked.campaign.head
    finally:
        await store.close()


async def test_spectators_and_wrong_tokens_get_typed_errors(api: httpx.AsyncClient) -> None:
    created = (await api.post("/api/campaigns", json={"game": "gil-ennis"})).json()
    cid = created["id"]
    spectator = await export(api, cid, None)
    assert spectator.status_code == 403
    assert spectator.json()["error"]["code"] == "forbidden"
    wrong = await export(api, cid, "not-a-seat-token")
    assert wrong.status_code == 401
    assert wrong.json()["error"]["code"] == "unauthorized"
    unknown = await export(api, "no-such-campaign", next(iter(created["seats"].values())))
    assert unknown.status_code == 404
