"""Campaigns played on known luck are marked: one made with a chosen seed, a fork that shares its
parent's luck (and the parent, while it runs), and a campaign rewound past a draw. The catalog,
the state and the lineage say so, and the statistics count them and their results apart, so
that no win on known luck is counted with the others. A move taken back before any draw leaves
the campaign as it was."""

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
    assert await marked(api, await fork(api, running, running["version"], True)) == (False, False)
    assert await marked(api, running) == (False, False), "fresh dice share nothing"

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


async def act(api: httpx.AsyncClient, campaign: dict[str, Any], action: str) -> int:
    """Take ``action`` (``roll`` or ``hold``) at the head; returns the new version."""
    cid, token = campaign["id"], campaign["seats"]["player"]
    state = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(token))).json()
    body = {"action": action, "expected_version": state["version"]}
    acted = await api.post(f"/api/campaigns/{cid}/actions", json=body, headers=auth(token))
    assert acted.status_code == 200, acted.text
    version: int = acted.json()["version"]
    return version


async def total(api: httpx.AsyncClient, campaign: dict[str, Any]) -> int:
    token = campaign["seats"]["player"]
    state = await api.get(f"/api/campaigns/{campaign['id']}/state", headers=auth(token))
    totals: list[int] = state.json()["view"]["totals"]
    return totals[0]


async def rewind(api: httpx.AsyncClient, campaign: dict[str, Any], to: int) -> None:
    token = campaign["seats"]["player"]
    body = {"to": to}
    reply = await api.post(
        f"/api/campaigns/{campaign['id']}/rewind", json=body, headers=auth(token)
    )
    assert reply.status_code == 200, reply.text


async def lineage_marks(api: httpx.AsyncClient, campaign: dict[str, Any]) -> dict[str, bool]:
    token = campaign["seats"]["player"]
    reply = await api.get(f"/api/campaigns/{campaign['id']}/lineage", headers=auth(token))
    return {branch["campaign"]: branch["known_luck"] for branch in reply.json()["branches"]}


async def dice_totals(api: httpx.AsyncClient) -> dict[str, Any]:
    games = (await api.get("/api/stats")).json()["games"]
    found = [game["totals"] for game in games if game["game"] == "dice-race"]
    return found[0] if found else {}


def moved(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    """How much each count of the statistics went up."""
    return {
        name: after.get(name, 0) - before.get(name, 0)
        for name in ("games", "wins", "losses", "known_luck", "known_luck_wins")
    }


async def test_a_fork_played_first_to_preview_the_dice_marks_both_and_counts_apart(
    api: httpx.AsyncClient,
) -> None:
    before = await dice_totals(api)
    parent = await create(api, options={"target": 1})  # the first roll wins
    preview = await fork(api, parent, parent["version"], False)
    assert moved(before, await dice_totals(api))["known_luck"] == 2, "marked before any event"
    await act(api, preview, "roll")
    await act(api, parent, "roll")
    assert await total(api, preview) == await total(api, parent), "the same luck, seen first"

    assert await marked(api, preview) == (True, True)
    assert await marked(api, parent) == (True, True), "the parent's luck was previewed"
    assert await lineage_marks(api, parent) == {parent["id"]: True, preview["id"]: True}
    assert moved(before, await dice_totals(api)) == {
        "games": 0,
        "wins": 0,
        "losses": 0,
        "known_luck": 2,
        "known_luck_wins": 2,
    }


async def test_a_rewind_past_a_roll_replays_the_same_die_and_marks_the_campaign(
    api: httpx.AsyncClient,
) -> None:
    before = await dice_totals(api)
    campaign = await create(api, options={"target": 1000})
    start = campaign["version"]
    await act(api, campaign, "roll")
    seen = await total(api, campaign)
    assert await marked(api, campaign) == (False, False)
    await rewind(api, campaign, start)
    await act(api, campaign, "roll")
    assert await total(api, campaign) == seen, "the same action rolls the same die"
    assert await marked(api, campaign) == (True, True)
    assert await lineage_marks(api, campaign) == {campaign["id"]: True}
    assert moved(before, await dice_totals(api))["known_luck"] == 1


async def test_a_misclick_taken_back_before_any_draw_stays_fair(api: httpx.AsyncClient) -> None:
    before = await dice_totals(api)
    campaign = await create(api, options={"target": 1})
    start = campaign["version"]
    await act(api, campaign, "hold")  # meant to roll
    await rewind(api, campaign, start)
    await act(api, campaign, "roll")
    assert await marked(api, campaign) == (False, False)
    assert await lineage_marks(api, campaign) == {campaign["id"]: False}
    assert moved(before, await dice_totals(api)) == {
        "games": 1,
        "wins": 1,
        "losses": 0,
        "known_luck": 0,
        "known_luck_wins": 0,
    }


async def test_fresh_dice_still_share_the_face_down_decks_so_such_a_fork_marks_both(
    api: httpx.AsyncClient,
) -> None:
    parent = await create(api, game="gil-ennis")
    child = await fork(api, parent, parent["version"], True)
    assert await marked(api, child) == (True, True)
    assert await marked(api, parent) == (True, True), "its dream deck keeps the parent's order"
