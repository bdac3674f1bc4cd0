from __future__ import annotations

import httpx
from websockets.asyncio.client import connect

from tests.server.conftest import Live, Socket, auth


async def test_replay_streams_history_from_a_version_then_ends(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = (
        await api.post("/api/campaigns", json={"game": "dice-race", "options": {"target": 500}})
    ).json()
    cid, token = created["id"], created["seats"]["player"]
    version = 2
    for n in range(5):
        reply = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "roll", "expected_version": version, "command_id": f"r{n}"},
            headers=auth(token),
        )
        version = reply.json()["version"]
    url = f"{live.ws}/ws/campaigns/{cid}/replay?from=3&speed=0"
    async with connect(url, open_timeout=10) as connection:
        replay = Socket(connection)
        welcome = await replay.hello()
        assert welcome["version"] == 3 and welcome["legal_actions"] == []
        steps = await replay.updates_until(version)
        end = await replay.expect("end")
    assert [(s["first"], s["version"]) for s in steps] == [(v, v) for v in range(4, version + 1)]
    assert all(s["legal_actions"] == [] and len(s["events"]) == 1 for s in steps)
    # Each roll is one event and leaves a decision (roll again or hold): every one is a point.
    assert welcome["decision_point"] is True
    assert all(s["decision_point"] is True for s in steps)
    head = (await api.get(f"/api/campaigns/{cid}/state")).json()
    assert replay.replica.view == head["view"] and end["version"] == version
    assert connection.close_code == 1000


async def test_replay_refuses_a_bad_speed(live: Live, api: httpx.AsyncClient) -> None:
    created = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
    url = f"{live.ws}/ws/campaigns/{created['id']}/replay?speed=fast"
    async with connect(url, open_timeout=10) as connection:
        error = await Socket(connection).expect("error")
    assert error["code"] == "bad_request" and connection.close_code == 1008


async def test_replay_updates_say_which_versions_are_decision_points(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = (await api.post("/api/campaigns", json={"game": "gil-ennis"})).json()
    cid, token = created["id"], created["seats"]["player"]
    url = f"{live.ws}/ws/campaigns/{cid}/replay?from=1&speed=0"
    async with connect(url, open_timeout=10) as connection:
        replay = Socket(connection)
        welcome = await replay.hello(token)
        steps = await replay.updates_until(created["version"])
        await replay.expect("end")
    # Creation and set-up's rolls are one append: only its last version waits for a decision.
    assert welcome["decision_point"] is False
    assert [s["decision_point"] for s in steps] == [False, False, True]
