"""Campaigns whose luck anyone may know are marked: one made with a chosen seed, and a fork that
keeps the luck of a finished campaign (its seed and salt are revealed) or of a campaign whose luck
was known already. The catalog and the state say so, and the statistics count them apart, so that
no win on known luck is counted with the others."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.conftest import auth

ROLLS = 50
"""A one-seat dice race to 1 ends at its first roll; this only stops a runaway test."""


async def create(api: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await api.post("/api/campaigns", json={"game": "dice-race", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def marked(api: httpx.AsyncClient, campaign: dict[str, Any]) -> tuple[bool, bool]:
    """Whether the state and the catalog entry say the campaign's luck is known."""
    token = next(iter(campaign["seats"].values()))
    state = (await api.get(f"/api/campaigns/{campaign['id']}/state", headers=auth(token))).json()
    entry = (await api.get(f"/api/campaigns/{campaign['id']}", headers=auth(token))).json()
    return state["known_luck"], entry["entry"]["known_luck"]


async def finish(api: httpx.AsyncClient, campaign: dict[str, Any]) -> int:
    """Roll until the race is over; returns the last version."""
    cid, token = campaign["id"], campaign["seats"]["player"]
    for _ in range(ROLLS):
        state = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(token))).json()
        if state["outcome"] != "running":
            version: int = state["version"]
            return version
        body = {"action": "roll", "expected_version": state["version"]}
        acted = await api.post(f"/api/campaigns/{cid}/actions", json=body, headers=auth(token))
        assert acted.status_code == 200, acted.text
    raise AssertionError(f"the race did not end in {ROLLS} rolls")


async def fork(api: httpx.AsyncClient, campaign: dict[str, Any], at: int, reseed: Any) -> Any:
    token = campaign["seats"]["player"]
    body = {"at": at, "reseed": reseed}
    forked = await api.post(f"/api/campaigns/{campaign['id']}/fork", json=body, headers=auth(token))
    assert forked.status_code == 201, forked.text
    return forked.json()


async def test_a_chosen_seed_is_known_luck_and_a_drawn_one_is_not(api: httpx.AsyncClient) -> None:
    assert await marked(api, await create(api, seed="42")) == (True, True)
    assert await marked(api, await create(api)) == (False, False)


async def test_forks_keep_known_luck_and_lose_it_only_with_fresh_secret_luck(
    api: httpx.AsyncClient,
) -> None:
    running = await create(api, options={"target": 1000})
    assert await marked(api, await fork(api, running, running["version"], False)) == (False, False)

    ended = await create(api, options={"target": 1})
    last = await finish(api, ended)
    start = ended["version"]
    # the parent's revealed luck, at its end or earlier: anyone can know what comes next
    assert await marked(api, await fork(api, ended, last, False)) == (True, True)
    assert await marked(api, await fork(api, ended, start, False)) == (True, True)
    # fresh luck drawn by the server is secret again; luck the forker chose is not
    assert await marked(api, await fork(api, ended, start, True)) == (False, False)
    assert await marked(api, await fork(api, ended, start, "7")) == (True, True)

    chosen = await create(api, seed="5", options={"target": 1000})
    known_fork = await fork(api, chosen, chosen["version"], False)
    assert await marked(api, known_fork) == (True, True), "known luck stays known in a fork"


async def test_statistics_count_campaigns_on_known_luck_apart(api: httpx.AsyncClient) -> None:
    async def dice() -> dict[str, Any]:
        games = (await api.get("/api/stats")).json()["games"]
        found = [game["totals"] for game in games if game["game"] == "dice-race"]
        return found[0] if found else {"games": 0, "wins": 0, "losses": 0, "known_luck": 0}

    before = await dice()
    secret = await create(api, options={"target": 1})
    await finish(api, secret)
    known = await create(api, seed="3", options={"target": 1})
    await finish(api, known)
    after = await dice()
    assert after["games"] - before["games"] == 1, "only the campaign on secret luck is a game"
    assert (after["wins"] + after["losses"]) - (before["wins"] + before["losses"]) == 1
    assert after["known_luck"] - before["known_luck"] == 1
