from __future__ import annotations

from typing import Any

import httpx
import redis.asyncio

from domain.core.hashing import seed_commitment
from server.campaigns.tokens import token_hash
from tests.server.conftest import Live, auth


async def create(api: httpx.AsyncClient, **body: object) -> dict[str, object]:
    response = await api.post("/api/campaigns", json={"game": "dice-race", **body})
    assert response.status_code == 201, response.text
    created: dict[str, object] = response.json()
    return created


async def test_create_returns_one_token_per_seat_and_the_seed_hash(api: httpx.AsyncClient) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 30})
    seats = created["seats"]
    assert isinstance(seats, dict) and sorted(seats) == ["blue", "red"]
    assert seats["red"] != seats["blue"]
    assert created["version"] == 2 and created["game"] == "dice-race"
    assert isinstance(created["seed_hash"], str) and len(created["seed_hash"]) == 64


async def test_tokens_are_stored_only_as_hashes(live: Live, api: httpx.AsyncClient) -> None:
    created = await create(api)
    token = created["seats"]["player"]  # type: ignore[index]
    listed = (await api.get(f"/api/campaigns/{created['id']}")).json()
    assert token not in str(listed)
    state = await api.get(f"/api/campaigns/{created['id']}/state", headers=auth(token))
    assert state.json()["seat"] == "player"
    assert token_hash(token) != token
    # Nothing the store holds has the token in it; its hash is there.
    assert live.redis_url is not None
    client: Any = redis.asyncio.Redis.from_url(live.redis_url)  # replies are bytes
    try:
        stored = b""
        async for key in client.scan_iter(match=f"{live.prefix}:*"):
            match (await client.type(key)).decode():
                case "hash":
                    stored += b"".join(k + v for k, v in (await client.hgetall(key)).items())
                case "stream":
                    stored += b"".join(b"".join(f.values()) for _, f in await client.xrange(key))
                case "zset":
                    stored += b"".join(await client.zrange(key, 0, -1))
                case "set":
                    stored += b"".join(await client.smembers(key))
        assert token.encode() not in stored
        assert token_hash(token).encode() in stored
    finally:
        await client.aclose()


async def test_unknown_game_is_a_bad_request(api: httpx.AsyncClient) -> None:
    response = await api.post("/api/campaigns", json={"game": "chess"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


async def test_malformed_and_unknown_fields_are_bad_requests(api: httpx.AsyncClient) -> None:
    broken = await api.post("/api/campaigns", content=b"{not json")
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "bad_request"
    extra = await api.post("/api/campaigns", json={"game": "dice-race", "colour": "red"})
    assert extra.status_code == 400 and "colour" in extra.json()["error"]["message"]


async def test_wrong_seat_layout_is_a_bad_request(api: httpx.AsyncClient) -> None:
    response = await api.post("/api/campaigns", json={"game": "dice-race", "seats": ["x"]})
    assert response.status_code == 400
    assert response.json()["error"]["message"].endswith(".")


async def test_unknown_campaign_is_not_found(api: httpx.AsyncClient) -> None:
    for path in ("", "/state", "/events", "/timeline"):
        response = await api.get(f"/api/campaigns/nope{path}")
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "not_found"


async def test_wrong_token_is_refused(api: httpx.AsyncClient) -> None:
    created = await create(api)
    response = await api.get(f"/api/campaigns/{created['id']}/state", headers=auth("guess"))
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"


async def test_private_campaign_refuses_spectators_and_leaves_the_catalog(
    api: httpx.AsyncClient,
) -> None:
    public = await create(api)
    private = await create(api, private=True)
    refused = await api.get(f"/api/campaigns/{private['id']}/state")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    token = private["seats"]["player"]  # type: ignore[index]
    allowed = await api.get(f"/api/campaigns/{private['id']}/state", headers=auth(token))
    assert allowed.status_code == 200
    ids = [entry["id"] for entry in (await api.get("/api/campaigns")).json()["campaigns"]]
    assert public["id"] in ids and private["id"] not in ids


async def test_catalog_pages_are_full_of_public_campaigns_however_many_are_private(
    api: httpx.AsyncClient,
) -> None:
    public = {str((await create(api))["id"]) for _ in range(4)}
    private = [await create(api, private=True) for _ in range(6)]
    # A fork of a private campaign, by a seat that says nothing of privacy, is private too.
    token = private[-1]["seats"]["player"]  # type: ignore[index]
    forked = await api.post(
        f"/api/campaigns/{private[-1]['id']}/fork", json={"at": 2}, headers=auth(token)
    )
    assert forked.status_code == 201, forked.text
    fork_id = forked.json()["id"]
    assert (await api.get(f"/api/campaigns/{fork_id}/state")).status_code == 403

    # Seven private campaigns, all newer than every public one, and the first page is full of
    # public campaigns all the same.
    first = (await api.get("/api/campaigns", params={"limit": 3})).json()
    assert len(first["campaigns"]) == 3 and first["next_offset"] == 3
    last = (await api.get("/api/campaigns", params={"limit": 3, "offset": 3})).json()
    assert len(last["campaigns"]) == 1 and last["next_offset"] is None
    entries = first["campaigns"] + last["campaigns"]
    assert {entry["id"] for entry in entries} == public
    created = [entry["created_ms"] for entry in entries]
    assert created == sorted(created, reverse=True)


async def test_statistics_do_not_reveal_private_campaigns(api: httpx.AsyncClient) -> None:
    await create(api)
    private = await create(api, private=True)
    token = private["seats"]["player"]  # type: ignore[index]
    # Reading the private campaign with its token builds its catalog entry all the same.
    shown = await api.get(f"/api/campaigns/{private['id']}", headers=auth(token))
    assert shown.status_code == 200 and shown.json()["private"] is True
    stats = (await api.get("/api/stats")).json()["games"]
    (dice,) = [game for game in stats if game["game"] == "dice-race"]
    assert dice["totals"]["games"] == 1 and dice["totals"]["running"] == 1


async def test_catalog_is_paged_newest_first(api: httpx.AsyncClient) -> None:
    made = [(await create(api))["id"] for _ in range(5)]
    first = (await api.get("/api/campaigns", params={"limit": 2})).json()
    second = (await api.get("/api/campaigns", params={"limit": 2, "offset": 2})).json()
    listed = [e["id"] for e in first["campaigns"] + second["campaigns"]]
    assert len(listed) == 4 and len(set(listed)) == 4
    assert set(listed) <= set(made)
    assert first["next_offset"] == 2
    entry = first["campaigns"][0]
    assert entry["game"] == "dice-race" and entry["status"] == "running" and entry["version"] == 2


async def test_seed_is_revealed_only_after_the_end(api: httpx.AsyncClient) -> None:
    created = await create(api, options={"target": 1})
    cid, token = created["id"], created["seats"]["player"]  # type: ignore[index]
    running = (await api.get(f"/api/campaigns/{cid}")).json()
    assert running["seed"] is None and running["salt"] is None
    events = (await api.get(f"/api/campaigns/{cid}/events")).json()["events"]
    assert "seed" not in events[0]["event"] and "salt" not in events[0]["event"]
    version = 2
    while (await api.get(f"/api/campaigns/{cid}/state")).json()["outcome"] == "running":
        acted = await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "roll", "expected_version": version},
            headers=auth(token),
        )
        assert acted.status_code == 200, acted.text
        version = acted.json()["version"]
    ended = (await api.get(f"/api/campaigns/{cid}")).json()
    assert ended["entry"]["status"] == "won"
    assert seed_commitment(ended["seed"], ended["salt"]) == created["seed_hash"]
    events = (await api.get(f"/api/campaigns/{cid}/events")).json()["events"]
    assert events[0]["event"]["seed"] == ended["seed"]


async def test_the_games_endpoint_lists_facts_and_options(api: httpx.AsyncClient) -> None:
    games = {g["info"]["name"]: g for g in (await api.get("/api/games")).json()["games"]}
    eila, gil_ennis = games["eila"], games["gil-ennis"]
    assert eila["info"]["chapters"] is True and eila["info"]["seat_layouts"] == [["player"]]
    assert gil_ennis["info"]["seat_layouts"] == [["player"], ["gil", "ennis"]]
    assert gil_ennis["info"]["hidden_information"] and gil_ennis["info"]["chance"]
    mode = eila["options"]["properties"]["mode"]
    assert sorted(mode["enum"]) == ["advanced", "normal"] and mode["default"] == "normal"
    assert eila["options"]["additionalProperties"] is False
    refused = await api.post("/api/campaigns", json={"game": "eila", "options": {"mode": "hard"}})
    assert refused.status_code == 400 and "mode" in refused.json()["error"]["message"]


async def test_a_games_public_content_names_what_its_views_show(api: httpx.AsyncClient) -> None:
    gil_ennis = (await api.get("/api/games/gil-ennis/content")).json()
    assert gil_ennis["map"]["trail"][0] == {
        "id": "hollow-creek",
        "name": "Hollow Creek",
        "special": None,
    }
    assert [path["id"] for path in gil_ennis["map"]["paths"]] == ["ridge", "valley"]
    assert {dream["id"] for dream in gil_ennis["dreams"]} >= {"lantern-under-water"}
    eila = (await api.get("/api/games/eila/content")).json()
    assert eila["resources"][0] == ["food", "Food"] and eila["storage"]["fear"] == 8
    assert eila["items"]["I01"]["name"] == "Brass Key"
    assert "cards" not in eila, "story cards are met in play, not looked up"
    response = await api.get("/api/games/dice-race/content")
    assert response.json() == {} and response.headers["cache-control"].startswith("public")
    missing = await api.get("/api/games/chess/content")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


async def test_the_events_name_the_action_each_seat_chose_to_that_seat_alone(
    api: httpx.AsyncClient,
) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid, seats = created["id"], created["seats"]
    state = (await api.get(f"/api/campaigns/{cid}/state")).json()
    seat = state["view"]["to_act"]
    acted = await api.post(
        f"/api/campaigns/{cid}/actions",
        json={"action": "roll", "expected_version": 2},
        headers=auth(seats[seat]),  # type: ignore[index]
    )
    assert acted.status_code == 200, acted.text
    other = "blue" if seat == "red" else "red"
    for viewer, headers in (
        (seat, auth(seats[seat])),  # type: ignore[index]
        (other, auth(seats[other])),  # type: ignore[index]
        (None, {}),
    ):
        events = (await api.get(f"/api/campaigns/{cid}/events", headers=headers)).json()["events"]
        assert [e["action"] for e in events] == [None, None, "roll" if viewer == seat else None]
