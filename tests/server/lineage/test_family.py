"""The lineage routes on a real server over each store: a family's tree of forks and undone
stretches, who may see which branch, paging, compare, and bad input."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.contract import EventStore
from server.store.redis_connect import RedisSettings
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from server.throttle import LimitSettings, Throttle
from tests.redis_support import delete_prefix
from tests.server.conftest import Live, Reproducible, auth, running

NO_CREATION_LIMIT = LimitSettings(creations="")
ROOMY = RedisSettings(pool_timeout_s=10.0, socket_timeout_s=10.0)
"""These tests count branches and pages, not time: dozens of forks made side by side on a loop
that shares two busy cores with other tests may keep a reply waiting past the 2 s a server
allows (which then answers 503, as it should), so the store here allows 10 s."""


@pytest.fixture(params=["sqlite", "redis", "cluster"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Live]:
    """The server over SQLite, Redis or a Redis Cluster (campaigns :class:`Reproducible`)."""
    url: str | None = None
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    store: EventStore
    if request.param == "sqlite":
        store = SqliteStore(tmp_path / "lineage.sqlite3")
    else:
        url = request.getfixturevalue(
            "redis_url" if request.param == "redis" else "redis_cluster_url"
        )
        store = RedisStore.from_url(url, prefix=prefix, settings=ROOMY)
    service = CampaignService(store, fresh=Reproducible())
    app = create_app(service, close_store=True, throttle=Throttle.in_memory(NO_CREATION_LIMIT))
    try:
        with running(app) as server:
            yield server
    finally:
        if url is not None:
            cleanup = threading.Thread(target=asyncio.run, args=(delete_prefix(url, prefix),))
            cleanup.start()
            cleanup.join(timeout=30)


@pytest.fixture
async def api(served: Live) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=served.http, timeout=30.0) as client:
        yield client


class Campaign:
    """A dice race of one seat, ``player``, that holds (one event a move) to stay running."""

    def __init__(self, api: httpx.AsyncClient, created: dict[str, Any]) -> None:
        self.api = api
        self.id: str = created["id"]
        self.token: str = created["seats"]["player"]
        self.version: int = created["version"]

    @classmethod
    async def new(cls, api: httpx.AsyncClient, *, private: bool = False) -> Campaign:
        body = {"game": "dice-race", "options": {"target": 500}, "private": private}
        response = await api.post("/api/campaigns", json=body)
        assert response.status_code == 201, response.text
        return cls(api, response.json())

    async def hold(self, times: int) -> None:
        for _ in range(times):
            answer = await self.api.post(
                f"/api/campaigns/{self.id}/actions",
                json={"action": "hold", "expected_version": self.version},
                headers=auth(self.token),
            )
            assert answer.status_code == 200, answer.text
            self.version = answer.json()["version"]

    async def rewind(self, to: int) -> None:
        answer = await self.api.post(
            f"/api/campaigns/{self.id}/rewind", json={"to": to}, headers=auth(self.token)
        )
        assert answer.status_code == 200, answer.text
        self.version = answer.json()["version"]

    async def fork(self, at: int) -> Campaign:
        answer = await self.api.post(
            f"/api/campaigns/{self.id}/fork", json={"at": at}, headers=auth(self.token)
        )
        assert answer.status_code == 201, answer.text
        return Campaign(self.api, answer.json())


async def lineage(
    api: httpx.AsyncClient, cid: str, token: str | None = None, **params: Any
) -> httpx.Response:
    headers = auth(token) if token else {}
    return await api.get(f"/api/campaigns/{cid}/lineage", params=params, headers=headers)


async def whole(api: httpx.AsyncClient, cid: str, token: str | None = None) -> dict[str, Any]:
    response = await lineage(api, cid, token, limit=500)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["next"] is None
    return body


def outline(branches: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each branch as (id, kind, parent branch, parent version, first, last, moves)."""
    return [
        (
            b["id"],
            b["kind"],
            b["parent"] and b["parent"]["branch"],
            b["parent"] and b["parent"]["version"],
            b["first"],
            b["last"],
            b["moves"],
        )
        for b in branches
    ]


async def test_a_family_of_forks_and_rewinds_is_one_tree(api: httpx.AsyncClient) -> None:
    root = await Campaign.new(api)  # versions 1 (created) and 2 (began)
    r = root.id
    await root.hold(8)  # 3..10
    await root.rewind(5)  # 11
    await root.hold(3)  # 12..14
    await root.rewind(3)  # 15: before the earlier rewind, whose stretch now hangs off this one's
    await root.hold(2)  # 16..17
    in_undone = await root.fork(8)  # at a version the first rewind undid
    on_line = await root.fork(16)
    early = await root.fork(3)
    await on_line.hold(3)  # 17..19
    grandchild = await on_line.fork(18)
    await grandchild.hold(1)
    body = await whole(api, grandchild.id)
    assert (body["root"], body["campaign"]) == (r, grandchild.id)
    early_fork = [(early.id, "fork", r, 3, 4, 3, 0)]
    undone = [
        (f"{r}~4", "undone", r, 3, 4, 14, 6),  # 4..5, the rewind at 11, 12..14
        (f"{r}~6", "undone", f"{r}~4", 5, 6, 10, 5),
        (in_undone.id, "fork", f"{r}~6", 8, 9, 8, 0),
    ]
    # Both part at version 3 of the root: the one with the lower id first, its subtree after it.
    at_3 = early_fork + undone if early.id < f"{r}~4" else undone + early_fork
    assert outline(body["branches"]) == [
        (r, "root", None, None, 1, 17, 6),  # 1..3, the rewind at 15, 16..17
        *at_3,
        (on_line.id, "fork", r, 16, 17, 19, 3),
        (grandchild.id, "fork", on_line.id, 18, 19, 19, 1),
    ]
    by_id = {b["id"]: b for b in body["branches"]}
    assert by_id[r]["rewinds"] == [{"at": 15, "to": 3}]
    assert by_id[f"{r}~4"]["rewinds"] == [{"at": 11, "to": 5}]
    assert by_id[f"{r}~4"]["undone_at"] == 15 and by_id[f"{r}~6"]["undone_at"] == 11
    assert {b["made_by"] for b in body["branches"][1:]} == {"player"}
    assert by_id[r]["made_by"] is None
    assert [by_id[i]["outcome"] for i in (r, f"{r}~4", on_line.id)] == [
        "running", "undone", "running",
    ]  # fmt: skip
    assert not any(b["private"] for b in body["branches"])
    assert all(b["ended"] is None for b in body["branches"])
    # every fork here kept the luck of a running campaign: the forks and their parents share it
    assert all(b["known_luck"] is True for b in body["branches"])
    # Every member of the family answers with the same tree.
    assert (await whole(api, r))["branches"] == body["branches"]


async def test_compare_says_where_two_histories_part(api: httpx.AsyncClient) -> None:
    root = await Campaign.new(api)
    await root.hold(6)  # head 8
    child = await root.fork(5)
    await child.hold(2)  # 6..7 of its own
    grandchild = await child.fork(6)
    cousin = await root.fork(4)
    other = await Campaign.new(api)

    async def compare(a: Campaign, b: Campaign) -> dict[str, Any]:
        response = await api.get(f"/api/campaigns/{a.id}/compare/{b.id}")
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    assert await compare(root, child) == {
        "a": root.id, "b": child.id, "common": 5, "a_head": 8, "b_head": 7,
    }  # fmt: skip
    assert (await compare(grandchild, child))["common"] == 6
    assert (await compare(grandchild, cousin))["common"] == 4
    assert (await compare(root, root))["common"] == 8
    assert (await compare(root, other))["common"] == 0


async def test_a_spectator_sees_no_private_family_and_a_seat_sees_its_own_campaign(
    api: httpx.AsyncClient,
) -> None:
    secret = await Campaign.new(api, private=True)
    s = secret.id
    await secret.hold(4)  # head 6
    await secret.rewind(3)  # 7
    fork = await secret.fork(5)  # at a version the rewind undid; private like its parent
    await fork.hold(1)
    for cid in (s, fork.id):
        refused = await lineage(api, cid)
        assert refused.status_code == 404
        assert refused.json()["error"]["code"] == "unknown_campaign"
    compared = await api.get(f"/api/campaigns/{s}/compare/{fork.id}")
    assert (compared.status_code, compared.json()["error"]["code"]) == (404, "unknown_campaign")
    # The fork's seat sees the fork, and its private ancestors as bare placeholders.
    seen = await whole(api, fork.id, fork.token)
    assert seen["branches"][:2] == [
        {"id": s, "kind": "root", "private": True},
        {"id": f"{s}~4", "kind": "undone", "private": True},
    ]
    (own,) = seen["branches"][2:]
    assert (own["id"], own["private"], own["parent"]) == (
        fork.id, True, {"branch": f"{s}~4", "campaign": s, "version": 5},
    )  # fmt: skip
    # The parent's tokens do not open the fork, nor the fork's the parent.
    assert (await lineage(api, s, fork.token)).status_code == 404
    parents = await whole(api, s, secret.token)
    assert [(b["id"], "first" in b) for b in parents["branches"]] == [
        (s, True), (f"{s}~4", True),
    ]  # fmt: skip
    both = await api.get(f"/api/campaigns/{fork.id}/compare/{s}", headers=auth(fork.token))
    assert both.status_code == 404  # the fork's token does not open the parent


async def test_bad_input_answers_typed_errors(api: httpx.AsyncClient) -> None:
    root = await Campaign.new(api)
    await root.hold(2)
    await root.fork(3)
    other = await Campaign.new(api)
    unknown = await lineage(api, "no-such-campaign")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "unknown_campaign")
    missing = await api.get(f"/api/campaigns/{root.id}/compare/no-such-campaign")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "unknown_campaign")
    for params in ({"limit": 0}, {"limit": 501}, {"limit": "many"}, {"after": "not a cursor"}):
        refused = await lineage(api, root.id, **params)
        assert refused.status_code == 400, params
        assert refused.json()["error"]["code"] == "bad_request"
    # A cursor of another family's lineage is refused, not applied to this one.
    first = (await lineage(api, root.id, limit=1)).json()
    assert first["next"] is not None
    stray = await lineage(api, other.id, after=first["next"])
    assert (stray.status_code, stray.json()["error"]["code"]) == (400, "bad_request")
    wrong = await lineage(api, root.id, "not-a-token-of-anything")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "unauthorized")
    assert (await lineage(api, root.id, limit=500)).status_code == 200


async def test_pages_hand_out_a_large_family_exactly_once(api: httpx.AsyncClient) -> None:
    root = await Campaign.new(api)
    await root.hold(30)  # head 32
    await root.rewind(20)  # 33: 21..32 undone
    await root.hold(5)
    forks: list[Campaign] = []
    for start in range(3, 38, 5):  # 7 batches of forks made side by side
        versions = [v for v in range(start, start + 5) if v != 33] * 6
        forks += await asyncio.gather(*(root.fork(v) for v in versions))
    grandchildren = await asyncio.gather(*(fork.fork(fork.version) for fork in forks[::10]))
    expected = 1 + 1 + len(forks) + len(grandchildren)  # root, the undone stretch, the forks
    assert expected > 200
    everything = await whole(api, root.id, None)
    ids = [b["id"] for b in everything["branches"]]
    assert len(ids) == expected == len(set(ids))
    for limit in (1, 37, 100):
        paged: list[str] = []
        after = None
        while True:
            params: dict[str, Any] = {"limit": limit} | ({"after": after} if after else {})
            answer = await lineage(api, forks[0].id, **params)
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert len(body["branches"]) <= limit
            paged += [b["id"] for b in body["branches"]]
            after = body["next"]
            if after is None:
                break
        assert paged == ids
