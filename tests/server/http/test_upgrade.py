"""Moving a campaign forward over HTTP, on the real server and Redis: the plan in words for a
seat holder, the move as a new campaign of its family that the lineage names, the original
untouched and still playable, one more move on the moved campaign, and bad input refused with
nothing written."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from domain.games import get_game
from server.campaigns.tokens import token_attrs
from server.store.redis_store import RedisStore
from tests.server.conftest import Live, auth
from tests.support.old_recorded import older, store_recording
from tests.support.unplayed import NEWER, store_unplayed

OLDER = older()
SAME = "eila/4+content.4 chapter-1"
"""Identical under today's rules."""
PARTED = "eila/3+content.2 chapter-1"
"""Diverges at move 26."""
ENDED = "gil-ennis/2+content.1 solo"
TOKEN = "the-player-token-of-an-older-server"
TODAY = get_game("eila").info.ruleset


@pytest.fixture
async def stored(live: Live) -> AsyncIterator[RedisStore]:
    assert live.redis_url is not None and live.prefix is not None
    store = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    try:
        for cid, name in (("same", SAME), ("parted", PARTED), ("ended", ENDED)):
            seat = OLDER[name].actions[0].seat
            await store_recording(store, cid, OLDER[name], attrs=token_attrs({seat: TOKEN}))
        yield store
    finally:
        await store.close()


async def plan(api: httpx.AsyncClient, cid: str, token: str | None = TOKEN) -> httpx.Response:
    return await api.get(f"/api/campaigns/{cid}/upgrade", headers=auth(token) if token else {})


async def heads(store: RedisStore) -> dict[str, int]:
    """Every campaign of the store with its head: what a refusal must leave as it was."""
    infos = await store.list_campaigns(offset=0, limit=100, listed_only=False)
    return {info.id: info.head for info in infos}


async def test_the_plan_says_in_words_what_moving_would_do(
    api: httpx.AsyncClient, stored: RedisStore
) -> None:
    same = (await plan(api, "same")).json()
    assert (same["kind"], same["moves"], same["applied"], same["at"]) == ("identical", 60, 60, None)
    assert (same["ruleset"], same["today"]) == ("eila/4+content.4", TODAY)
    assert "same game" in same["why"]
    parted = (await plan(api, "parted")).json()
    assert (parted["kind"], parted["at"], parted["applied"]) == ("diverges", 26, 25)
    assert parted["why"].startswith("Move 26 (“") and "goes on from move 25" in parted["why"]
    assert parted["summary"] == "diverges at move 26 of 60"


async def test_moving_forward_makes_a_new_campaign_of_its_family(
    api: httpx.AsyncClient, stored: RedisStore
) -> None:
    before = await heads(stored)
    original = (await api.get("/api/campaigns/parted")).json()
    moved = await api.post("/api/campaigns/parted/upgrade", headers=auth(TOKEN))
    assert moved.status_code == 201, moved.text
    out = moved.json()
    assert out["ruleset"] == TODAY and out["plan"]["kind"] == "diverges"
    assert set(out["seats"]) == {"player"} and out["seats"]["player"] != TOKEN
    new = out["id"]
    token = out["seats"]["player"]
    # The original is untouched, and still played under its own ruleset.
    assert (await heads(stored))["parted"] == before["parted"]
    after = (await api.get("/api/campaigns/parted")).json()
    # Only the mark of known luck is added: the moved campaign plays on the same luck.
    assert after["entry"].pop("known_luck") is True
    original["entry"].pop("known_luck")
    assert after == original
    # The moved campaign holds the 25 moves that applied, under today's ruleset.
    seen = (await api.get(f"/api/campaigns/{new}/state", headers=auth(token))).json()
    assert seen["version"] == out["version"]
    assert (await api.get(f"/api/campaigns/{new}")).json()["entry"]["ruleset"] == TODAY
    timeline = (await api.get(f"/api/campaigns/{new}/timeline")).json()["lines"]
    assert max(line.get("move", 0) for line in timeline) == 25
    # The lineage names it.
    branches = (await api.get("/api/campaigns/parted/lineage")).json()["branches"]
    assert any(b.get("campaign") == new for b in branches), branches
    child = next(b for b in branches if b.get("campaign") == new)
    assert child["made_by"] == f"moved to ruleset {TODAY} (by player)"
    assert child["parent"]["campaign"] == "parted" and child["parent"]["version"] == 0
    # One more move, accepted on the moved campaign with its own token.
    action = seen["legal_actions"][0]["id"]
    acted = await api.post(
        f"/api/campaigns/{new}/actions",
        json={"action": action, "expected_version": seen["version"], "command_id": "next"},
        headers=auth(token),
    )
    assert acted.status_code == 200, acted.text
    assert acted.json()["version"] > seen["version"]
    # ... and on the original too, under its own ruleset, with its old token.
    old = (await api.get("/api/campaigns/parted/state", headers=auth(TOKEN))).json()
    again = await api.post(
        "/api/campaigns/parted/actions",
        json={"action": old["legal_actions"][0]["id"], "expected_version": old["version"]},
        headers=auth(TOKEN),
    )
    assert again.status_code == 200, again.text


async def test_an_identical_move_keeps_every_event(
    api: httpx.AsyncClient, stored: RedisStore
) -> None:
    out = (await api.post("/api/campaigns/same/upgrade", headers=auth(TOKEN))).json()
    events = (await api.get(f"/api/campaigns/{out['id']}/events")).json()
    recorded = (await api.get("/api/campaigns/same/events")).json()
    assert len(events["events"]) == len(recorded["events"]) == out["version"]
    assert [e["event"] for e in events["events"][1:]] == [
        e["event"] for e in recorded["events"][1:]
    ]


@pytest.mark.parametrize(
    ("cid", "token", "status", "code"),
    [
        ("parted", None, 403, "forbidden"),
        ("parted", "not-a-token", 401, "unauthorized"),
        ("ended", TOKEN, 409, "conflict"),
        ("nowhere", TOKEN, 404, "not_found"),
    ],
)
async def test_bad_input_is_refused_and_nothing_written(
    api: httpx.AsyncClient, stored: RedisStore, cid: str, token: str | None, status: int, code: str
) -> None:
    before = await heads(stored)
    refused = await api.post(f"/api/campaigns/{cid}/upgrade", headers=auth(token) if token else {})
    assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), refused.text
    assert await heads(stored) == before


async def test_a_second_move_and_a_current_campaign_are_refused(
    api: httpx.AsyncClient, stored: RedisStore
) -> None:
    first = await api.post("/api/campaigns/same/upgrade", headers=auth(TOKEN))
    assert first.status_code == 201
    before = await heads(stored)
    twice = await api.post("/api/campaigns/same/upgrade", headers=auth(TOKEN))
    assert twice.status_code == 409 and first.json()["id"] in twice.json()["error"]["message"]
    moved: dict[str, Any] = first.json()
    token = moved["seats"]["player"]
    current = await api.post(f"/api/campaigns/{moved['id']}/upgrade", headers=auth(token))
    assert current.status_code == 409 and "already played under" in current.text
    assert (await plan(api, moved["id"], token)).json()["kind"] == "current"
    assert await heads(stored) == before


async def test_a_ruleset_this_server_does_not_play_is_refused_in_words(
    live: Live, api: httpx.AsyncClient, stored: RedisStore
) -> None:
    await store_unplayed(stored, "newer", *NEWER, attrs=token_attrs({"gil": TOKEN}))
    before = await heads(stored)
    for method in ("GET", "POST"):
        refused = await api.request(method, "/api/campaigns/newer/upgrade", headers=auth(TOKEN))
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "unsupported_ruleset"
        assert NEWER[1] in refused.json()["error"]["message"]
    assert await heads(stored) == before
