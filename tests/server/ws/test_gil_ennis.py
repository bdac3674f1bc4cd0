"""A whole Gil & Ennis game over a socket, played by a random bot from the legal actions sent."""

from __future__ import annotations

import random

import httpx

from domain.core.hashing import seed_commitment
from tests.server.conftest import Live, auth, socket_to

MAX_STEPS = 5000


async def test_a_whole_game_is_played_over_a_socket(live: Live, api: httpx.AsyncClient) -> None:
    # luck the server draws (the same on every run of the test server), so the statistics count
    # the result: a chosen seed's would be counted apart, as known luck
    created = (await api.post("/api/campaigns", json={"game": "gil-ennis"})).json()
    cid = created["id"]
    chooser = random.Random(7)
    async with socket_to(live, cid) as player:
        latest = await player.hello(created["seats"]["player"])
        version = latest["version"]
        for step in range(MAX_STEPS):
            if latest["outcome"] != "running":
                break
            assert latest["legal_actions"], "a running game always offers the player something"
            action = chooser.choice(latest["legal_actions"])["id"]
            answer = await player.act(action, version, f"bot{step}")
            assert answer["type"] == "accepted", answer
            # One frame per action: the answer carries the events and the view's patch.
            assert answer["first"] == version + 1
            assert [e["version"] for e in answer["events"]] == list(
                range(version + 1, answer["version"] + 1)
            )
            assert player.replica.version == answer["version"]
            latest, version = answer, answer["version"]
        assert latest["outcome"] in ("won", "lost")
        assert latest["legal_actions"] == []
        assert not player.pending, "the acting socket gets no second frame for its own action"
    state = (
        await api.get(f"/api/campaigns/{cid}/state", headers=auth(created["seats"]["player"]))
    ).json()
    assert state["version"] == version and state["outcome"] == latest["outcome"]
    assert state["view"] == player.replica.view, "the patches add up to the server's view"
    assert seed_commitment(state["seed"], state["salt"]) == created["seed_hash"]
    timeline = (await api.get(f"/api/campaigns/{cid}/timeline")).json()["lines"]
    assert len(timeline) > 10 and all(line["text"] for line in timeline)
    stats = (await api.get("/api/stats")).json()["games"]
    (gil_ennis,) = [s for s in stats if s["game"] == "gil-ennis"]
    result = "wins" if latest["outcome"] == "won" else "losses"
    assert gil_ennis["totals"][result] == 1 and gil_ennis["totals"]["average_length"] == version
