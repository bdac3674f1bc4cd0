from __future__ import annotations

from typing import Any

import httpx

from domain.core.hashing import seed_commitment
from tests.server.conftest import auth


async def two_seats(api: httpx.AsyncClient, target: int = 500) -> dict[str, Any]:
    response = await api.post(
        "/api/campaigns",
        json={"game": "dice-race", "seats": ["red", "blue"], "options": {"target": target}},
    )
    assert response.status_code == 201
    created: dict[str, Any] = response.json()
    return created


async def state(api: httpx.AsyncClient, cid: str, token: str | None = None, **params: int) -> Any:
    headers = auth(token) if token else {}
    response = await api.get(f"/api/campaigns/{cid}/state", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def act(
    api: httpx.AsyncClient, cid: str, token: str, action: str, version: int, command: str
) -> httpx.Response:
    return await api.post(
        f"/api/campaigns/{cid}/actions",
        json={"action": action, "expected_version": version, "command_id": command},
        headers=auth(token),
    )


async def mover(api: httpx.AsyncClient, created: dict[str, Any]) -> tuple[str, str]:
    """The seat to act and the other one."""
    seen = await state(api, created["id"])
    seat = seen["view"]["to_act"]
    return seat, "blue" if seat == "red" else "red"


async def test_action_is_accepted_and_moves_the_version(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    seat, _ = await mover(api, created)
    token = created["seats"][seat]
    before = await state(api, created["id"], token)
    assert [a["id"] for a in before["legal_actions"]] == ["hold", "roll"]
    response = await act(api, created["id"], token, "hold", 2, "c1")
    assert response.status_code == 200
    assert response.json() == {"first": 3, "version": 3, "duplicate": False, "command_id": "c1"}
    again = await act(api, created["id"], token, "hold", 2, "c1")
    assert again.json()["duplicate"] is True and again.json()["version"] == 3
    assert (await state(api, created["id"]))["version"] == 3


async def test_rejections_are_typed_and_append_nothing(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid = created["id"]
    seat, other = await mover(api, created)
    cases = [
        (created["seats"][other], "roll", 2, 422, "not_your_turn"),
        (created["seats"][seat], "jump", 2, 422, "illegal_action"),
        (created["seats"][seat], "roll", 7, 409, "stale_version"),
    ]
    for n, (token, action, version, code, kind) in enumerate(cases):
        response = await act(api, cid, token, action, version, f"bad{n}")
        assert response.status_code == code, (kind, response.text)
        assert response.json()["error"]["code"] == kind
    spectator = await api.post(
        f"/api/campaigns/{cid}/actions", json={"action": "roll", "expected_version": 2}
    )
    assert spectator.status_code == 403 and spectator.json()["error"]["code"] == "forbidden"
    assert (await state(api, cid))["version"] == 2


async def test_finished_campaign_takes_no_actions(api: httpx.AsyncClient) -> None:
    response = await api.post(
        "/api/campaigns", json={"game": "dice-race", "options": {"target": 1}}
    )
    created = response.json()
    cid, token = created["id"], created["seats"]["player"]
    version = 2
    while (await state(api, cid))["outcome"] == "running":
        version = (await act(api, cid, token, "roll", version, f"r{version}")).json()["version"]
    final = await state(api, cid, token)
    assert final["legal_actions"] == []
    late = await act(api, cid, token, "roll", version, "late")
    assert late.status_code == 422 and late.json()["error"]["code"] == "illegal_action"
    assert (await state(api, cid))["version"] == version


async def test_state_at_an_old_version_has_no_legal_actions(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    seat, _ = await mover(api, created)
    token = created["seats"][seat]
    await act(api, created["id"], token, "roll", 2, "c1")
    old = await state(api, created["id"], token, at=2)
    assert old["version"] == 2 and old["head"] == 3 and old["legal_actions"] == []
    assert old["view"]["totals"] == [0, 0]
    missing = await api.get(f"/api/campaigns/{created['id']}/state", params={"at": 99})
    assert missing.status_code == 422


async def test_fork_then_rewind_then_keep_playing_the_fork(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid = created["id"]
    version = 2
    for n in range(4):
        seat, _ = await mover(api, created)
        version = (await act(api, cid, created["seats"][seat], "roll", version, f"p{n}")).json()[
            "version"
        ]
    at3 = await state(api, cid, at=3)
    spectator_fork = await api.post(f"/api/campaigns/{cid}/fork", json={"at": 3})
    assert spectator_fork.status_code == 403
    said = spectator_fork.json()["error"]["message"]
    assert said.startswith("A spectator cannot fork this campaign while it runs")
    assert "token" not in said, "a refusal in plain words"
    forked = await api.post(
        f"/api/campaigns/{cid}/fork", json={"at": 3}, headers=auth(created["seats"]["red"])
    )
    assert forked.status_code == 201, forked.text
    fork = forked.json()
    assert fork["id"] != cid and fork["version"] == 3
    assert set(fork["seats"].values()).isdisjoint(created["seats"].values())
    assert (await state(api, fork["id"]))["view"] == at3["view"]
    parent_token_on_fork = await api.get(
        f"/api/campaigns/{fork['id']}/state", headers=auth(created["seats"]["red"])
    )
    assert parent_token_on_fork.status_code == 401
    seat, _ = await mover(api, fork)
    moved = await act(api, fork["id"], fork["seats"][seat], "hold", 3, "f1")
    assert moved.status_code == 200 and moved.json()["version"] == 4
    assert (await state(api, cid))["version"] == version  # the parent is untouched

    # Both seats played since move 3: the rewind is agreed to by the other seat.
    asked = await api.post(
        f"/api/campaigns/{cid}/proposals", json={"to": 3}, headers=auth(created["seats"]["blue"])
    )
    assert asked.status_code == 200, asked.text
    rewound = await api.post(
        f"/api/campaigns/{cid}/proposal/answer",
        json={"id": asked.json()["proposal"]["id"], "accept": True},
        headers=auth(created["seats"]["red"]),
    )
    assert rewound.status_code == 200, rewound.text
    after = await state(api, cid)
    assert after["version"] == version + 1 and after["view"] == at3["view"]
    entry = (await api.get(f"/api/campaigns/{fork['id']}")).json()["entry"]
    assert entry["parent"] == cid and entry["fork_version"] == 3


async def test_rewind_needs_a_seat_and_a_reachable_version(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid = created["id"]
    spectator = await api.post(f"/api/campaigns/{cid}/rewind", json={"to": 2})
    assert spectator.status_code == 403
    too_far = await api.post(
        f"/api/campaigns/{cid}/rewind", json={"to": 1}, headers=auth(created["seats"]["red"])
    )
    assert too_far.status_code == 422 and too_far.json()["error"]["code"] == "illegal_action"


async def test_timeline_has_a_line_per_described_event(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid = created["id"]
    seat, _ = await mover(api, created)
    await act(api, cid, created["seats"][seat], "hold", 2, "h")
    lines = (await api.get(f"/api/campaigns/{cid}/timeline")).json()["lines"]
    assert [line["version"] for line in lines] == [1, 3]
    assert lines[0]["text"].startswith("A campaign of Dice Race began")
    assert lines[1]["text"] == f"{seat} held"


async def test_events_are_paged_with_after_and_limit(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid = created["id"]
    for n in range(3):
        seat, _ = await mover(api, created)
        await act(api, cid, created["seats"][seat], "hold", 2 + n, f"h{n}")
    page = (await api.get(f"/api/campaigns/{cid}/events", params={"after": 1, "limit": 2})).json()
    assert page["head"] == 5
    assert [e["version"] for e in page["events"]] == [2, 3]
    assert page["events"][1]["event"]["type"] == "dice-race/held"
    bad = await api.get(f"/api/campaigns/{cid}/events", params={"after": "x"})
    assert bad.status_code == 400


async def test_a_finished_reseeded_fork_reveals_the_seed_it_published(
    api: httpx.AsyncClient,
) -> None:
    created = (
        await api.post("/api/campaigns", json={"game": "dice-race", "options": {"target": 12}})
    ).json()
    token = created["seats"]["player"]
    forked = await api.post(
        f"/api/campaigns/{created['id']}/fork",
        json={"at": created["version"], "reseed": "77"},
        headers=auth(token),
    )
    assert forked.status_code == 201, forked.text
    fork = forked.json()
    assert fork["seed_hash"] != created["seed_hash"]
    ftoken = fork["seats"]["player"]
    seen = await state(api, fork["id"], ftoken)
    for step in range(500):
        if seen["outcome"] != "running":
            break
        answer = await act(api, fork["id"], ftoken, "roll", seen["version"], f"r{step}")
        assert answer.status_code == 200, answer.text
        seen = await state(api, fork["id"], ftoken)
    assert seen["outcome"] == "won"
    assert seen["seed"] == "77" and seen["salt"] == ""  # a chosen seed's salt is the fixed one
    assert seed_commitment(seen["seed"], seen["salt"]) == fork["seed_hash"]
    assert (await state(api, created["id"]))["seed"] is None  # the parent still runs


async def test_state_and_timeline_list_the_fork_and_rewind_points(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid = created["id"]
    seat, _ = await mover(api, created)
    await act(api, cid, created["seats"][seat], "hold", 2, "h")
    seen = await state(api, cid)
    # runs of consecutive points around the version shown
    assert seen["points"] == {
        "near": 3,
        "fork": [[2, 3]],
        "rewind": [[2, 2]],
        "more_before": False,
        "more_after": False,
    }
    timeline = (await api.get(f"/api/campaigns/{cid}/timeline")).json()
    assert timeline["points"] == seen["points"]
    paged = (await api.get(f"/api/campaigns/{cid}/timeline?after=3&near=1")).json()
    assert (paged["lines"], paged["points"]["near"]) == ([], 1)
    assert paged["points"]["fork"] == [[2, 3]]
    refused = await api.post(
        f"/api/campaigns/{cid}/fork", json={"at": 1}, headers=auth(created["seats"]["red"])
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["message"].endswith("the nearest is version 2.")


async def test_a_finished_campaign_refuses_a_rewind_and_lists_none(api: httpx.AsyncClient) -> None:
    created = (
        await api.post("/api/campaigns", json={"game": "dice-race", "options": {"target": 6}})
    ).json()
    cid, token = created["id"], created["seats"]["player"]
    seen = await state(api, cid, token)
    for step in range(100):
        if seen["outcome"] != "running":
            break
        await act(api, cid, token, "roll", seen["version"], f"r{step}")
        seen = await state(api, cid, token)
    assert seen["outcome"] == "won" and seen["points"]["rewind"] == []
    refused = await api.post(f"/api/campaigns/{cid}/rewind", json={"to": 2}, headers=auth(token))
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "illegal_action" and "Fork it with 'reseed'" in error["message"]
    forked = await api.post(f"/api/campaigns/{cid}/fork", json={"at": 2, "reseed": True})
    assert forked.status_code == 201
