"""Every version has a view for every viewer, or a typed answer: ``GET /state?at=N`` and the
replay socket (:mod:`server.ws.replay`) at versions inside an action's events, and at a version
whose view a game fails to render."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from clients.replica import Replica
from server.app import create_app
from server.campaigns.service import CampaignService
from server.export.importing import import_export
from server.export.reading import read_export
from server.store.sqlite import SqliteStore
from tests.server.conftest import Live, Socket, running
from tests.support import dice_race

FIGHT_BEGINS = Path(__file__).parent / "files" / "eila-fight-begins.jsonl"
"""An Eila chapter 1 campaign of random legal actions (347 versions). At 277 and 338 an option
has been chosen whose fight has not begun yet (the next event, inside the same action, begins
it): their views once failed, and the replay socket with them."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Live, CampaignService]]:
    service = CampaignService(SqliteStore(tmp_path / "tabletale.sqlite3"))
    with running(create_app(service, close_store=True)) as live:
        yield live, service


@pytest.fixture
async def api(server: tuple[Live, CampaignService]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server[0].http, timeout=30.0) as client:
        yield client


async def replayed(
    live: Live, campaign: str, start: int = 1
) -> tuple[list[dict[str, Any]], int | None, Replica]:
    """Every frame of a replay as fast as it goes, the close code, and the view they add up to."""
    url = f"{live.ws}/ws/campaigns/{campaign}/replay?from={start}&speed=0"
    async with connect(url, open_timeout=10, max_size=None) as connection:
        socket = Socket(connection)
        await socket.send({"type": "hello", "token": None})
        frames: list[dict[str, Any]] = []
        while not frames or frames[-1]["type"] != "end":
            try:
                frames.append(await socket.recv())
            except ConnectionClosed:
                break
        await connection.wait_closed()
        return frames, connection.close_code, socket.replica


async def test_the_version_before_a_fight_begins_has_a_view_and_a_turn(
    server: tuple[Live, CampaignService], api: httpx.AsyncClient
) -> None:
    live, service = server
    lines = FIGHT_BEGINS.read_bytes().splitlines(keepends=True)
    campaign = read_export(lines).campaign.id
    await import_export(service.store, read_export(lines))
    for version in (277, 338):
        reply = await api.get(f"/api/campaigns/{campaign}/state", params={"at": version})
        assert reply.status_code == 200, reply.text
        turn = reply.json()["view"]["turn"]
        assert turn["asked"].endswith("the combat begins"), turn
    frames, code, replica = await replayed(live, campaign)
    assert [f["type"] for f in frames] == ["welcome", *["update"] * 346, "end"]
    assert [f["version"] for f in frames[1:-1]] == list(range(2, 348))
    assert code == 1000
    head = (await api.get(f"/api/campaigns/{campaign}/state")).json()
    assert replica.view == head["view"]


class Unrenderable:
    """Breaks dice race's view of the states in ``broken`` while the block runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, broken: list[Any]) -> None:
        original = dice_race.GAME.view

        def view(state: Any, seat: str | None) -> Any:
            if state in broken:
                raise AssertionError("a fault in the game's view code")
            return original(state, seat)

        monkeypatch.setattr(dice_race.GAME, "view", view)


async def rolled(api: httpx.AsyncClient, service: CampaignService) -> tuple[str, list[Any]]:
    """A dice race of several rolls; its id and its state at every version."""
    dice_race.register()
    created = (
        await api.post("/api/campaigns", json={"game": "dice-race", "options": {"target": 500}})
    ).json()
    cid, token = created["id"], created["seats"]["player"]
    version = created["version"]
    for n in range(6):
        reply = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "roll", "expected_version": version, "command_id": f"r{n}"},
            headers={"Authorization": f"Bearer {token}"},
        )
        version = reply.json()["version"]
    states = [(await service.state_at(cid, v))[1] for v in range(1, version + 1)]
    return cid, states


async def test_a_replay_answers_a_view_it_cannot_render_and_goes_on(
    server: tuple[Live, CampaignService], api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, service = server
    cid, states = await rolled(api, service)
    head = (await api.get(f"/api/campaigns/{cid}/state")).json()
    Unrenderable(monkeypatch, [states[4 - 1], states[5 - 1]])  # versions 4 and 5
    frames, code, replica = await replayed(live, cid, start=2)
    kinds = [(f["type"], f.get("code"), f.get("first"), f.get("version")) for f in frames]
    assert kinds == [
        ("welcome", None, None, 2),
        ("update", None, 3, 3),
        ("error", "view_unavailable", None, None),
        ("error", "view_unavailable", None, None),
        # versions 4 and 5 come with 6, patched from the view at 3
        ("update", None, 4, 6),
        *[("update", None, v, v) for v in range(7, len(states) + 1)],
        ("end", None, None, len(states)),
    ]
    assert "version 4" in frames[2]["message"] and "version 5" in frames[3]["message"]
    assert [e["version"] for e in frames[4]["events"]] == [4, 5, 6]
    assert code == 1000 and replica.view == head["view"]


async def test_a_replay_that_cannot_show_its_first_version_says_so_and_closes(
    server: tuple[Live, CampaignService], api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, service = server
    cid, states = await rolled(api, service)
    Unrenderable(monkeypatch, [states[3 - 1]])
    frames, code, _ = await replayed(live, cid, start=3)
    assert [(f["type"], f.get("code")) for f in frames] == [("error", "view_unavailable")]
    assert code == 1011


async def test_the_state_at_a_version_whose_view_fails_is_a_typed_error(
    server: tuple[Live, CampaignService], api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, service = server
    cid, states = await rolled(api, service)
    Unrenderable(monkeypatch, [states[3 - 1]])
    reply = await api.get(f"/api/campaigns/{cid}/state", params={"at": 3})
    assert reply.status_code == 500
    assert reply.json()["error"]["code"] == "view_unavailable"
    assert (await api.get(f"/api/campaigns/{cid}/state", params={"at": 4})).status_code == 200


async def test_a_replay_that_fails_otherwise_says_so_and_closes(
    server: tuple[Live, CampaignService], api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, service = server
    cid, _ = await rolled(api, service)

    def redact(event: Any, seat: str | None) -> Any:
        raise AssertionError("a fault in the game's redaction")

    monkeypatch.setattr(dice_race.GAME, "redact", redact)
    frames, code, _ = await replayed(live, cid, start=2)
    assert [(f["type"], f.get("code")) for f in frames] == [
        ("welcome", None),
        ("error", "internal"),
    ]
    assert code == 1011
