"""A fork's end reveals its own seed, never one a campaign it was forked from still plays with.

A fork's history starts with its parent's events, the parent's seed among them; a fork that kept
the parent's luck plays with the parent's seed. Revealing either when the fork ends would let anyone
read the parent's luck ahead while the parent runs. They are revealed once the parent ends."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.server.campaigns.test_known_luck import create, finish, fork
from tests.server.conftest import auth


async def seeds_in_events(api: httpx.AsyncClient, campaign: str) -> dict[int, str | None]:
    """Each seeding event's version and the seed a spectator's copy of the log shows (None)."""
    log = (await api.get(f"/api/campaigns/{campaign}/events")).json()["events"]
    return {
        seen["version"]: seen["event"].get("seed")
        for seen in log
        if seen["event"]["type"] in ("campaign/created", "campaign/reseeded")
    }


async def revealed_seed(api: httpx.AsyncClient, campaign: str) -> str | None:
    seed: str | None = (await api.get(f"/api/campaigns/{campaign}/state")).json()["seed"]
    return seed


async def export_scope(api: httpx.AsyncClient, campaign: dict[str, Any]) -> str:
    token = campaign["seats"]["player"]
    reply = await api.get(f"/api/campaigns/{campaign['id']}/export", headers=auth(token))
    assert reply.status_code == 200, reply.text
    scope: str = json.loads(reply.text.splitlines()[0])["scope"]
    return scope


async def test_a_reseeded_fork_that_ends_keeps_its_running_parents_seed_secret(
    api: httpx.AsyncClient,
) -> None:
    parent = await create(api, options={"target": 1})  # ends at its first roll; not rolled yet
    child = await fork(api, parent, parent["version"], True)
    await finish(api, child)

    seeds = await seeds_in_events(api, child["id"])
    own = max(seeds)
    assert seeds[1] is None, "the parent's seed, in the fork's history, stays secret"
    assert seeds[own] is not None, "the fork's own seed is revealed at its end"
    assert await revealed_seed(api, child["id"]) == seeds[own]
    assert await export_scope(api, child) == "partial"

    await finish(api, parent)
    assert (await seeds_in_events(api, parent["id"]))[1] is not None
    assert await export_scope(api, child) == "complete"


async def test_a_fork_that_kept_its_parents_luck_reveals_it_only_once_the_parent_ends(
    api: httpx.AsyncClient,
) -> None:
    parent = await create(api, options={"target": 1})
    child = await fork(api, parent, parent["version"], False)
    await finish(api, child)

    assert await revealed_seed(api, child["id"]) is None
    assert (await seeds_in_events(api, child["id"]))[1] is None

    await finish(api, parent)
    parents_seed = await revealed_seed(api, parent["id"])
    assert parents_seed is not None
    assert await revealed_seed(api, child["id"]) == parents_seed


async def test_a_spectator_forks_a_finished_fork_in_its_parents_history_only_once_it_ends(
    api: httpx.AsyncClient,
) -> None:
    parent = await create(api, options={"target": 1})
    shared = parent["version"]
    child = await fork(api, parent, shared, False)  # a reseeded fork has no earlier points
    last = await finish(api, child)

    async def spectator_fork(at: int) -> int:
        reply = await api.post(f"/api/campaigns/{child['id']}/fork", json={"at": at})
        return reply.status_code

    before = (await api.get(f"/api/campaigns/{child['id']}/lineage")).json()
    # the shared history is the running parent's: its hidden cards and luck stay its seats'
    assert await spectator_fork(shared) == 403
    after = (await api.get(f"/api/campaigns/{child['id']}/lineage")).json()
    assert len(after["branches"]) == len(before["branches"]), "a refused fork leaves nothing"
    assert await spectator_fork(last) == 201, "the fork's own, finished history is anyone's"

    await finish(api, parent)
    assert await spectator_fork(shared) == 201
