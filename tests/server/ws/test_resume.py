from __future__ import annotations

from typing import Any

import httpx

from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore
from server.ws.session import MISSED_PAGE
from tests.server.conftest import Live, auth, socket_to


async def test_reconnect_with_a_version_receives_exactly_the_missed_events(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = (
        await api.post(
            "/api/campaigns",
            json={"game": "dice-race", "seats": ["red", "blue"], "options": {"target": 500}},
        )
    ).json()
    cid = created["id"]
    async with socket_to(live, cid) as first:
        await first.hello(created["seats"]["red"])
        version = 2
        for n in range(3):
            mover = (await api.get(f"/api/campaigns/{cid}/state")).json()["view"]["to_act"]
            reply = await api.post(
                f"/api/campaigns/{cid}/actions",
                json={"action": "roll", "expected_version": version, "command_id": f"a{n}"},
                headers=auth(created["seats"][mover]),
            )
            version = reply.json()["version"]
        seen = await first.updates_until(version)
    last_seen = seen[-1]["version"]
    for n in range(4):  # while the client is away
        mover = (await api.get(f"/api/campaigns/{cid}/state")).json()["view"]["to_act"]
        reply = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "hold", "expected_version": version, "command_id": f"b{n}"},
            headers=auth(created["seats"][mover]),
        )
        version = reply.json()["version"]
    async with socket_to(live, cid) as again:
        welcome = await again.hello(created["seats"]["red"], since=last_seen)
        assert welcome["version"] == version
        missed = welcome["missed"]
        assert [e["version"] for e in missed] == list(range(last_seen + 1, version + 1))
        assert all(e["event"]["type"] == "dice-race/held" for e in missed)
        head = (await api.get(f"/api/campaigns/{cid}/state")).json()
        assert welcome["view"] == head["view"]
        mover = head["view"]["to_act"]
        expected: list[Any] = [{"id": "hold", "label": "Hold"}] if mover == "red" else []
        assert welcome["legal_actions"][:1] == expected
        # and live events keep coming after the catch-up, without repeats
        reply = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "hold", "expected_version": version, "command_id": "c"},
            headers=auth(created["seats"][mover]),
        )
        live_update = await again.next_update()
        assert live_update["first"] == live_update["version"] == reply.json()["version"]
        assert live_update["version"] == version + 1
        assert again.replica.view == (await api.get(f"/api/campaigns/{cid}/state")).json()["view"]


async def test_since_outside_the_stream_is_a_bad_request(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
    async with socket_to(live, created["id"]) as player:
        await player.send({"type": "hello", "since": 99})
        assert (await player.expect("error"))["code"] == "bad_request"
        welcome = await player.hello(since=2)
        assert welcome["version"] == 2


async def test_a_long_resume_comes_in_pages_before_any_live_update(
    live: Live, api: httpx.AsyncClient
) -> None:
    assert live.redis_url is not None and live.prefix is not None
    created = (
        await api.post("/api/campaigns", json={"game": "dice-race", "options": {"target": 900}})
    ).json()
    cid, token = created["id"], created["seats"]["player"]
    store = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    try:  # another process plays 700 turns while nobody watches
        writer = CampaignService(store)
        version = created["version"]
        for _ in range(700):
            version = (await writer.act(cid, "player", "hold", expected_version=version)).last
    finally:
        await store.close()
    async with socket_to(live, cid) as again:
        welcome = await again.hello(token, since=1)
        assert welcome["version"] == version and welcome["missed_more"] is True
        assert len(welcome["missed"]) == MISSED_PAGE
        # An action now: its update must wait until the last page of history has gone.
        reply = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "hold", "expected_version": version},
            headers=auth(token),
        )
        assert reply.status_code == 200
        pages = [welcome["missed"]]
        while True:
            page = await again.expect("missed")
            assert 0 < len(page["events"]) <= MISSED_PAGE
            pages.append(page["events"])
            if not page["more"]:
                break
        versions = [event["version"] for events in pages for event in events]
        assert versions == list(range(2, version + 1))
        assert again.replica.events[-1]["version"] == version and not again.replica.missing
        update = await again.next_update()
        assert update["first"] == version + 1
        assert again.replica.view == (await api.get(f"/api/campaigns/{cid}/state")).json()["view"]
