"""``tabletale upgrade``, on a real SQLite file and a real Redis under its own prefix: the dry
run lists every campaign with what moving it forward would do and writes nothing; a run moves
every running campaign of an older ruleset; a run started again after one that stopped half-way
moves the rest, and nothing twice."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.main import main
from server.campaigns.service import CampaignService
from server.lineage.family import FORKED_BY
from server.lineage.moving import MOVED_TO, move_forward, plan_of
from server.lineage.upgrading import BY
from server.store.contract import EventStore
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.redis_support import delete_prefix
from tests.support.old_recorded import older, store_recording

OLDER = older()
CAMPAIGNS = {
    "same": "eila/4+content.4 chapter-1",  # identical, running
    "parted": "eila/3+content.2 chapter-1",  # diverges at move 26, running
    "parted-too": "eila/4+content.3 chapter-1",  # diverges at move 26, running
    "setup": "gil-ennis/1 solo",  # diverges at move 0, ended
}


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:{tmp_path / 'tabletale.sqlite3'}"
        return
    redis_url: str = request.getfixturevalue("redis_url")
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    try:
        yield f"{redis_url}?prefix={prefix}"
    finally:
        asyncio.run(delete_prefix(redis_url, prefix))


def opened(url: str) -> EventStore:
    if url.startswith("sqlite:"):
        return SqliteStore(Path(url.removeprefix("sqlite:")))
    base, _, prefix = url.partition("?prefix=")
    return RedisStore.from_url(base, prefix=prefix)


async def fill(url: str) -> str:
    """The older campaigns, and one of today's ruleset; returns the id of today's."""
    store = opened(url)
    try:
        for cid, name in CAMPAIGNS.items():
            await store_recording(store, cid, OLDER[name])
        created = await CampaignService(store).create("gil-ennis", seed=7)
        return created.id
    finally:
        await store.close()


async def heads(url: str) -> dict[str, tuple[int, str | None]]:
    store = opened(url)
    try:
        infos = await store.list_campaigns(offset=0, limit=100, listed_only=False)
        return {info.id: (info.head, info.attrs.get(MOVED_TO) and info.parent) for info in infos}
    finally:
        await store.close()


async def move_one(url: str, cid: str) -> str:
    """What a run that stopped after its first campaign left behind."""
    store = opened(url)
    try:
        service = CampaignService(store)
        made = await move_forward(service, cid, await plan_of(service, cid), attrs={})
        return made.id
    finally:
        await store.close()


async def made_by(url: str, ids: list[str]) -> set[str | None]:
    store = opened(url)
    try:
        return {(await store.info(cid)).attrs.get(FORKED_BY) for cid in ids}
    finally:
        await store.close()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["upgrade", *args]) == 0
    return capsys.readouterr().out


def test_a_dry_run_lists_every_campaign_and_writes_nothing(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    current = asyncio.run(fill(store_url))
    before = asyncio.run(heads(store_url))
    out = run(capsys, "--dry-run", "--store", store_url)
    assert asyncio.run(heads(store_url)) == before
    assert "same (eila/4+content.4): identical (60 moves)" in out
    assert "parted (eila/3+content.2): diverges at move 26 of 60" in out
    assert "setup (gil-ennis/1): diverges at move 0 of 54; it has ended (lost)" in out
    assert f"{current} (gil-ennis/2+content.2): already current" in out
    assert "Plans: 1 identical, 3 diverge, 0 not possible, 1 already current." in out
    assert "Would move 3; 0 moved before; 1 ended" in out


def test_a_run_moves_the_rest_after_an_interruption_and_nothing_twice(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(fill(store_url))
    first = asyncio.run(move_one(store_url, "parted"))
    out = run(capsys, "--store", store_url)
    assert f"parted (eila/3+content.2): diverges at move 26 of 60; already moved to {first}" in out
    moved = dict(re.findall(r"^(\S+) \(.*; moved to (\S+), seat tokens: player=\S+$", out, re.M))
    assert set(moved) == {"same", "parted-too"}
    assert "Moved 2; 1 moved before; 1 ended" in out
    after = asyncio.run(heads(store_url))
    assert {cid: parent for cid, (_, parent) in after.items() if parent} == {
        first: "parted",
        moved["same"]: "same",
        moved["parted-too"]: "parted-too",
    }
    again = run(capsys, "--store", store_url)
    assert "Moved 0; 3 moved before; 1 ended" in again
    assert asyncio.run(heads(store_url)) == after
    makers = asyncio.run(made_by(store_url, [moved["same"], moved["parted-too"]]))
    assert makers == {BY}
